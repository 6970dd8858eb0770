// `tally webhooks`, run as a user runs it: add (the secret printed once), list, rotate,
// disable, enable, remove; a URL into this machine refused unless the configuration
// allows it; and a running server sends to what the CLI added.

import { afterEach, beforeEach, expect, it } from 'vitest';
import { testDatabase, type TestDatabase } from './database.js';
import { serve, stopServers, tally, type Served } from './processes.js';
import { signedBy, startReceiver, type Receiver } from './receiver.js';

let database: TestDatabase;
let receiver: Receiver;
let server: Served | undefined;
let env: Record<string, string>;
beforeEach(async () => {
  database = await testDatabase();
  receiver = await startReceiver();
  env = { DATABASE_URL: database.url };
});
afterEach(async () => {
  await stopServers(server);
  await receiver.close();
  await database.drop();
});

it('adds, lists, rotates, disables, enables and removes; a local URL needs the configuration to allow it', async () => {
  const made = await tally(['programs', 'create', '--name', 'Acme', '--site-url', 'https://acme.test/', '--json'], env);
  const bearer = (JSON.parse(made.stdout) as { tokens: { secret: string } }).tokens.secret;
  const refused = await tally(['webhooks', 'add', '--url', `${receiver.url}/cli`], env);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toMatch(/must be https/);
  const local = { ...env, WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOW_PRIVATE: '1' };
  expect((await tally(['webhooks', 'add', '--url', 'http://127.0.0.1:9/x'], { ...env, WEBHOOK_ALLOW_HTTP: '1' })).stderr).toMatch(
    /resolves to 127\.0\.0\.1/,
  );
  expect((await tally(['webhooks', 'add', '--url', `${receiver.url}/cli`, '--events', 'referral.nope'], local)).stderr).toMatch(
    /unknown event type referral\.nope/,
  );

  const added = await tally(['webhooks', 'add', '--url', `${receiver.url}/cli`, '--events', 'partnership.created'], local);
  expect(added.code).toBe(0);
  const id = /endpoint (\S+) to/.exec(added.stdout)?.[1];
  const secret = /signing secret: (whsec_\S+)/.exec(added.stdout)?.[1];
  expect(id).toBeDefined();
  expect(secret).toBeDefined();
  const listed = await tally(['webhooks', 'list'], local);
  expect(listed.stdout).toContain(`${id}  ${receiver.url}/cli  partnership.created  enabled  secret whsec_…${secret!.slice(-4)}`);
  expect(listed.stdout).not.toContain(secret);

  // A running server sends what the CLI subscribed, signed by the printed secret.
  server = await serve({ ...local, RATE_LIMIT_IP: '0' });
  const partner = await fetch(`${server.url}/v1/partners`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Cli', email: 'cli@p.test' }),
  });
  await fetch(`${server.url}/v1/partnerships`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify({ partner_id: ((await partner.json()) as { data: { id: string } }).data.id }),
  });
  const [got] = await receiver.waitFor(1, '/cli');
  expect(got!.json.type).toBe('partnership.created');
  expect(signedBy(secret!, got!)).toBe(true);

  const rotated = await tally(['webhooks', 'rotate', id!], local);
  const fresh = /signing secret: (whsec_\S+)/.exec(rotated.stdout)?.[1];
  expect(fresh).toBeDefined();
  expect(fresh).not.toBe(secret);
  expect((await tally(['webhooks', 'disable', id!], local)).stdout).toContain('disabled (by its owner)');
  expect((await tally(['webhooks', 'enable', id!], local)).stdout).toContain(' enabled ');
  expect((await tally(['webhooks', 'remove', id!], local)).code).toBe(0);
  expect((await tally(['webhooks', 'list'], local)).stdout).toContain('has no webhook endpoints');
  const again = await tally(['webhooks', 'remove', id!], local);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain(`no webhook endpoint ${id}`);
}, 60_000);
