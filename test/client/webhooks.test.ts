// verifyWebhook against what the collector's webhook sender really posts (docs/webhooks.md) to
// a local HTTP server: the event it verifies is the body sent; a changed byte, another secret,
// a timestamp out of the tolerance or a missing header is refused; during a rotation either
// secret verifies, and after it only the new one.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../../packages/client/src/index.js';
import { startCollector, type Collector } from '../collector/harness.js';
import { startReceiver, type Received, type Receiver } from '../collector/receiver.js';

let c: Collector;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  c = await startCollector({ outbound: { allowHttp: true, allowPrivate: true, timeoutMs: 2000 } });
  // Signatures are checked against the real clock, as a receiver's would be.
  c.clock.now = Math.floor(Date.now() / 1000);
});
afterAll(async () => {
  await c.close();
  await receiver.close();
});

let n = 0;

/** An endpoint of a new program at its own path of the receiver: its secret, and a call with the program's token. */
async function endpoint(): Promise<{ path: string; id: string; secret: string; call: (m: string, p: string) => Promise<any> }> {
  const p = await c.otherProgram();
  const path = `/hook-${++n}`;
  const made = await c.call('POST', '/v1/webhook_endpoints', { token: p.secret, body: { url: receiver.url + path } });
  expect(made.status).toBe(201);
  const call = async (method: string, route: string) => (await c.call(method, route, { token: p.secret })).body;
  return { path, id: made.body.data.id, secret: made.body.data.attributes.secret, call };
}

/** Sends the endpoint a test event and returns the request the receiver got. */
async function delivered(e: { path: string; id: string; call: (m: string, p: string) => Promise<any> }): Promise<Received> {
  const before = receiver.received.filter((r) => r.path === e.path).length;
  await e.call('POST', `/v1/webhook_endpoints/${e.id}/test`);
  await c.running.work.deliver();
  const got = await receiver.waitFor(before + 1, e.path);
  return got[before]!;
}

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return (err as Error).message;
  }
  throw new Error('verified');
};

describe('verifyWebhook on a real delivery', () => {
  it('returns the event the body carries, from a string or the bytes, with Node headers or a Headers', async () => {
    const e = await endpoint();
    const r = await delivered(e);
    const event = verifyWebhook(r.body, r.headers, e.secret);
    expect(event).toEqual(JSON.parse(r.body));
    expect(event).toMatchObject({ id: r.headers['webhook-id'], type: 'webhook.test', data: { id: e.id, type: 'webhook_endpoint' } });
    expect(verifyWebhook(Buffer.from(r.body), new Headers(r.headers), e.secret)).toEqual(event);
    // The secret's prefix is optional, as the scheme's libraries take it.
    expect(verifyWebhook(r.body, r.headers, e.secret.slice('whsec_'.length)).id).toBe(event.id);
  });

  it('refuses a changed body, another secret, a missing header and a timestamp beyond the tolerance', async () => {
    const e = await endpoint();
    const other = await endpoint();
    const r = await delivered(e);
    const at = Number(r.headers['webhook-timestamp']);
    expect(refusal(() => verifyWebhook(r.body.replace('webhook.test', 'webhook.tesT'), r.headers, e.secret))).toMatch(/no signature/);
    expect(refusal(() => verifyWebhook(r.body, r.headers, other.secret))).toMatch(/no signature/);
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const { [name]: _, ...without } = r.headers;
      expect(refusal(() => verifyWebhook(r.body, without, e.secret))).toMatch(/missing/);
    }
    // The id is signed too: a replay under another id fails.
    expect(refusal(() => verifyWebhook(r.body, { ...r.headers, 'webhook-id': 'another' }, e.secret))).toMatch(/no signature/);
    expect(verifyWebhook(r.body, r.headers, e.secret, { now: at + 300 }).type).toBe('webhook.test');
    expect(verifyWebhook(r.body, r.headers, e.secret, { now: at - 300 }).type).toBe('webhook.test');
    expect(refusal(() => verifyWebhook(r.body, r.headers, e.secret, { now: at + 301 }))).toMatch(/300 s/);
    expect(refusal(() => verifyWebhook(r.body, r.headers, e.secret, { now: at - 301 }))).toMatch(/300 s/);
    expect(verifyWebhook(r.body, r.headers, e.secret, { now: at + 3600, toleranceSeconds: 3600 }).type).toBe('webhook.test');
    expect(refusal(() => verifyWebhook(r.body, r.headers, []))).toMatch(/no webhook secret/);
  });

  it('during a rotation both secrets sign, and either verifies; once it ends, only the new one', async () => {
    const e = await endpoint();
    const rotated = await e.call('POST', `/v1/webhook_endpoints/${e.id}/rotate_secret`);
    const fresh: string = rotated.data.attributes.secret;
    expect(fresh).not.toBe(e.secret);
    const during = await delivered(e);
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifyWebhook(during.body, during.headers, e.secret).type).toBe('webhook.test');
    expect(verifyWebhook(during.body, during.headers, fresh).type).toBe('webhook.test');
    expect(verifyWebhook(during.body, during.headers, [fresh, e.secret]).type).toBe('webhook.test');
    // The old secret signs for 24 hours; a receiver holding both still verifies what follows.
    const saved = c.clock.now;
    c.clock.now += 86_401;
    try {
      const after = await delivered(e);
      const at = Number(after.headers['webhook-timestamp']);
      expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
      expect(verifyWebhook(after.body, after.headers, [e.secret, fresh], { now: at }).type).toBe('webhook.test');
      expect(refusal(() => verifyWebhook(after.body, after.headers, e.secret, { now: at }))).toMatch(/no signature/);
    } finally {
      c.clock.now = saved;
    }
  });
});
