// `tally stripe connect` and `tally stripe status`, run as a user runs them: the URL to
// enter in Stripe and the events to select are printed, the secret never is, and the
// secret it added verifies a signed event posted to a running server.

import { afterEach, beforeEach, expect, it } from 'vitest';
import { testDatabase, type TestDatabase } from './database.js';
import { serve, tally } from './processes.js';
import { customer, newSecret, postEvent, stripeEvent } from './stripe-fixtures.js';

let database: TestDatabase;
let env: Record<string, string>;
beforeEach(async () => {
  database = await testDatabase();
  env = { DATABASE_URL: database.url, PUBLIC_URL: 'https://tally.example.com' };
});
afterEach(async () => {
  await database.drop();
});

it('connect prints the webhook URL and the events, never the secret; status shows them again; the secret verifies events', async () => {
  const made = await tally(['programs', 'create', '--name', 'Acme', '--site-url', 'https://acme.test/', '--json'], env);
  const programId = (JSON.parse(made.stdout) as { program: { id: string } }).program.id;
  expect((await tally(['stripe', 'status', '--program', programId], env)).stdout).toContain('is not connected to Stripe yet');

  const secret = newSecret();
  const connected = await tally(['stripe', 'connect', '--program', programId, '--secret', secret, '--label', 'live'], env);
  expect(connected.code).toBe(0);
  const url = /https:\/\/tally\.example\.com(\/v1\/integrations\/stripe\/webhook\/we_[\w-]+)/.exec(connected.stdout)?.[1];
  expect(url).toBeDefined();
  for (const event of ['checkout.session.completed', 'invoice.paid', 'charge.refunded', 'customer.subscription.deleted']) {
    expect(connected.stdout).toContain(`  ${event}\n`);
  }
  expect(connected.stdout + connected.stderr).not.toContain(secret.slice(6));
  expect(connected.stdout).toContain(`live whsec_…${secret.slice(-4)}`);

  // A second secret from stdin (kept out of the shell's history): both are listed.
  const second = newSecret();
  const fromStdin = await tally(['stripe', 'connect', '--program', programId, '--secret', '-'], env, `${second}\n`);
  expect(fromStdin.code).toBe(0);
  const status = await tally(['stripe', 'status', '--program', programId], env);
  expect(status.stdout).toContain(`https://tally.example.com${url}`);
  expect(status.stdout).toContain(`Stripe whsec_…${second.slice(-4)}`);
  expect(status.stdout).not.toContain(second.slice(6));

  expect((await tally(['stripe', 'connect', '--program', programId, '--secret', 'sk_live_nope'], env)).code).not.toBe(0);
  expect((await tally(['stripe', 'connect', '--program', programId], env)).code).toBe(2);

  const server = await serve({ ...env, LOG_LEVEL: 'info' });
  try {
    const now = Math.floor(Date.now() / 1000);
    const reply = await postEvent(
      server.url + url!,
      stripeEvent('customer.created', customer({ email: 'who@shop.test' }), { created: now }),
      second,
      { timestamp: now },
    );
    expect(reply.status).toBe(200);
    expect(reply.body.data.attributes.outcome).toBe('ignored');
    expect(server.output()).not.toContain('who@shop.test');
    expect(server.output()).not.toContain(second.slice(6));
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});

it('status on a collector whose PUBLIC_URL is local says Stripe cannot reach it, and how to forward its events with the Stripe CLI', async () => {
  const local = { ...env, PUBLIC_URL: 'http://localhost:8787' };
  const made = await tally(['programs', 'create', '--name', 'Local', '--site-url', 'https://local.test/', '--json'], local);
  const programId = (JSON.parse(made.stdout) as { program: { id: string } }).program.id;
  const connected = await tally(['stripe', 'connect', '--program', programId, '--secret', newSecret()], local);
  expect(connected.code).toBe(0);
  const url = /(http:\/\/localhost:8787\/v1\/integrations\/stripe\/webhook\/we_[\w-]+)/.exec(connected.stdout)?.[1];
  expect(connected.stdout).toContain(
    `Warning: PUBLIC_URL is local. Stripe cannot reach this address: forward its test events with the Stripe CLI, stripe listen --forward-to ${url} --events checkout.session.completed,`,
  );
  expect(connected.stdout).toContain('Test event: in test mode, with the Stripe CLI: stripe trigger checkout.session.completed');
  // A public address has no warning.
  const status = await tally(['stripe', 'status', '--program', programId], env);
  expect(status.stdout).toContain('https://tally.example.com/v1/integrations/stripe/webhook/');
  expect(status.stdout).not.toContain('Warning');
});
