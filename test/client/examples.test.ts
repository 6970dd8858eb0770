// The client's README examples (packages/client/examples/*.ts), each run as a program of its
// own, as a company would run it (tsx, the package by its name: its sources, through the
// package's tsconfig), against the test file's collector; what each prints and what the
// collector then holds are checked. The receiver gets a real delivery from the webhook sender.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../packages/client/src/index.js';
import { programsKit } from '../collector/programs-kit.js';
import { programWithClient } from './kit.js';

const CLIENT = fileURLToPath(new URL('../../packages/client/', import.meta.url));
const kit = programsKit({ outbound: { allowHttp: true, allowPrivate: true, timeoutMs: 2000 } });

function start(example: string, env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', `examples/${example}`], {
    cwd: CLIENT,
    env: { ...process.env, TSX_TSCONFIG_PATH: 'tsconfig.json', ...env },
  });
}

/** Runs an example to its end: its exit code and output. */
function run(example: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = start(example, env);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A program with Alice, a click through her link (`visit-1`), and the environment the examples read. */
async function program() {
  const p = await programWithClient(kit.c);
  await unwrap(p.tally.POST('/v1/tracking/click', { body: { gr_id: 'visit-1', pk: 'alice-example', url: 'https://other.example/' } }));
  return { ...p, env: { TALLY_URL: kit.c.url, TALLY_SECRET_TOKEN: p.secret } };
}

describe('the examples, run against a collector', () => {
  it("record-conversion.ts credits Alice's link; run again, it says so, with the same referral", async () => {
    const { tally, env } = await program();
    const first = await run('record-conversion.ts', env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const { data } = await unwrap(tally.GET('/v1/referrals', { params: { query: { email_eq: 'carol@customer.test' } } }));
    expect(data).toHaveLength(1);
    const referral = data[0]!;
    expect(first.stdout).toBe(`recorded ${referral.id} ${referral.attributes.state}\n`);
    const again = await run('record-conversion.ts', env);
    expect(again.stdout).toBe(`already recorded ${referral.id} ${referral.attributes.state}\n`);
  });

  it('record-conversion.ts says who was referred before, when another click id brought the same person', async () => {
    const { tally, env } = await program();
    await unwrap(tally.POST('/v1/tracking/click', { body: { gr_id: 'visit-0', pk: 'alice-example', url: 'https://other.example/' } }));
    const before = await tally.recordConversion({ email: 'carol@customer.test', gr_id: 'visit-0', pk: 'alice-example' });
    const ran = await run('record-conversion.ts', env);
    expect([ran.code, ran.stdout]).toEqual([0, `referred before ${before.referral.id}\n`]);
  });

  it('record-payment.ts earns the commission of the referral the conversion made, once', async () => {
    const { tally, env } = await program();
    expect((await run('record-conversion.ts', env)).code).toBe(0);
    const paid = await run('record-payment.ts', env);
    expect(paid.stderr).toBe('');
    const { data: payments } = await unwrap(tally.GET('/v1/payments'));
    expect(payments).toHaveLength(1);
    const { data: commissions } = await unwrap(tally.GET('/v1/commissions'));
    expect(commissions).toHaveLength(1);
    const { amount, currency } = commissions[0]!.attributes;
    expect(amount).toBeGreaterThan(0);
    expect(paid.stdout).toBe(`recorded ${payments[0]!.id} commission ${amount} ${currency}\n`);
    expect((await run('record-payment.ts', env)).stdout).toBe(`already recorded ${payments[0]!.id} commission ${amount} ${currency}\n`);
  });

  it('record-lead.ts finds Alice by her address and submits her lead', async () => {
    const { tally, env } = await program();
    const ran = await run('record-lead.ts', env);
    expect(ran.stderr).toBe('');
    const { data: leads } = await unwrap(tally.GET('/v1/leads'));
    expect(leads.map((l) => [l.attributes.email, l.attributes.stage])).toEqual([['dan@prospect.test', 'new']]);
    expect(ran.stdout).toBe(`lead ${leads[0]!.id} new\n`);
  });

  it('list-commissions.ts prints every pending commission, over two pages, and no other', async () => {
    const { tally, env } = await program();
    const { data: partners } = await unwrap(tally.GET('/v1/partners'));
    const made: string[] = [];
    for (let i = 1; i <= 52; i++) {
      const body = { partner_id: partners[0]!.id, amount: 100 + i, currency: 'USD' };
      made.push((await unwrap(tally.POST('/v1/commissions', { body }))).data.id);
    }
    const rejected = made.pop()!;
    await unwrap(
      tally.PATCH('/v1/commissions/{id}', { params: { path: { id: rejected } }, body: { state: 'rejected', reject_reason: 'test' } }),
    );
    const ran = await run('list-commissions.ts', env);
    expect(ran.stderr).toBe('');
    // Newest first, as every list.
    expect(ran.stdout).toBe(
      made
        .map((id, i) => `${id} ${101 + i} USD\n`)
        .reverse()
        .join(''),
    );
  });

  it('webhook-receiver.ts verifies what the webhook sender posts, handles each event once, and refuses a forgery with 400', async () => {
    const { tally } = await program();
    kit.c.clock.now = Math.floor(Date.now() / 1000);
    // The endpoint first, for its secret; its address once the receiver listens.
    const made = await unwrap(
      tally.POST('/v1/webhook_endpoints', { body: { url: 'http://127.0.0.1:9/tally', event_types: ['referral.created'] } }),
    );
    const id = made.data.id;
    const child = start('webhook-receiver.ts', { PORT: '0', TALLY_WEBHOOK_SECRET: made.data.attributes.secret! });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    const printed = async (pattern: RegExp): Promise<RegExpMatchArray> => {
      for (let i = 0; i < 300; i++) {
        const m = stdout.match(pattern);
        if (m) return m;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`the receiver printed ${JSON.stringify(stdout)}, not ${pattern}`);
    };
    try {
      const url = `http://127.0.0.1:${(await printed(/^listening on (\d+)$/m))[1]}/tally`;
      await unwrap(tally.PATCH('/v1/webhook_endpoints/{id}', { params: { path: { id } }, body: { url } }));
      const forged = await fetch(url, {
        method: 'POST',
        headers: { 'webhook-id': 'x', 'webhook-timestamp': String(kit.c.clock.now), 'webhook-signature': 'v1,AAAA' },
        body: '{}',
      });
      expect(forged.status).toBe(400);
      const { referral } = await tally.recordConversion({ email: 'carol@customer.test', gr_id: 'visit-1', pk: 'alice-example' });
      await kit.c.running.work.deliver();
      const deliveries = async () =>
        (await unwrap(tally.GET('/v1/webhook_endpoints/{id}/deliveries', { params: { path: { id } } }))).data.map((d) => d.attributes);
      expect(await deliveries()).toMatchObject([{ event_type: 'referral.created', state: 'succeeded', last_status: 200 }]);
      expect(stdout).toBe(`listening on ${new URL(url).port}\nreferral.created ${referral.id}\n`);
      // Sent again (a resend, as a retry would), it is answered 200 and not handled twice.
      const [first] = (await unwrap(tally.GET('/v1/webhook_endpoints/{id}/deliveries', { params: { path: { id } } }))).data;
      await unwrap(tally.POST('/v1/webhook_deliveries/{id}/resend', { params: { path: { id: first!.id } } }));
      await kit.c.running.work.deliver();
      expect((await deliveries()).map((d) => [d.state, d.last_status])).toEqual([
        ['succeeded', 200],
        ['succeeded', 200],
      ]);
      expect(stdout.match(/referral\.created/g)).toHaveLength(1);
    } finally {
      child.kill();
    }
  });
});
