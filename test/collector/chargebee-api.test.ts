// The event fetched back (docs/chargebee.md, decision 0391): with the program's Chargebee
// site and API key, each webhook's event is read again from Chargebee's API (a local server
// answering as its reference documents, chargebee-api.ts) and acted on only when Chargebee's
// copy means the same. An event Chargebee does not have, or one altered on the way, is
// refused with nothing stored; a busy API is a 503 for Chargebee to send again; a key it
// refuses leaves the basic auth that held. Without a credential, nothing is asked.

import { afterAll, describe, expect, it } from 'vitest';
import { billingKit, type Connected, type Json } from './billing-kit.js';
import { startChargebeeApi } from './chargebee-api.js';
import { expectError } from './harness.js';
import { basicAuth, cbEvent, cbId, customer, invoice, newCbSecret, payment, postCb, subscription } from './chargebee-fixtures.js';

const KEY = 'test_cuI8VnV2cdD0QQ4cuV7CZ8Aj9fOZL3cu';
const cbApi = await startChargebeeApi(KEY);
afterAll(() => cbApi.close());

const kit = billingKit('chargebee', { platformApiUrls: { chargebee: cbApi.url } });
const { ok, connected, referral, list, amounts, events } = kit;

/** A program connected with its basic auth and, unless told otherwise, its site and API key. */
async function program(apiKey: string | null = KEY): Promise<Connected> {
  const p = await connected(newCbSecret());
  if (apiKey) await ok(p, 'POST', '/v1/integrations/chargebee/credential', { site: 'acme-test', api_key: apiKey });
  return p;
}

/** A referral's paid invoice as payment_succeeded tells it, and the event's id. */
async function sale(p: Connected, subTotal = 10_000) {
  const r = await referral(p);
  const customerId = cbId('cus');
  const inv = invoice({ customerId, subscriptionId: `sub-${customerId}`, subTotal });
  const content = {
    transaction: payment({ invoice: inv }),
    invoice: inv,
    customer: customer({ id: customerId, email: r.email, cf: { tally_gr_id: r.grId } }),
    subscription: subscription({ id: `sub-${customerId}`, customerId }),
  };
  return { r, event: cbEvent('payment_succeeded', content) };
}

const post = (p: Connected, event: Json) => postCb(kit.c, p.endpoint, JSON.stringify(event), basicAuth(p.signing));

describe("the event fetched back through Chargebee's API", () => {
  it("an event Chargebee has is read from it, then credited; the key goes as basic auth's user", async () => {
    const p = await program();
    const { event } = await sale(p);
    // Chargebee's copy: the same event, its fields in another order and webhook_status moved on.
    cbApi.events.set(event.id as string, { ...event, webhook_status: 'succeeded', content: { ...(event.content as Json) } });
    const before = cbApi.calls.length;
    const reply = await post(p, event);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.data.attributes.outcome).toBe('credited');
    expect(cbApi.calls.slice(before).map((c) => c.path)).toEqual([`/api/v2/events/${event.id}`]);
    expect(await amounts(p)).toEqual([2_000]);
  });

  it('an event Chargebee does not have, or one whose amount was altered on the way, is refused and nothing is stored', async () => {
    const p = await program();
    const unknown = (await sale(p)).event;
    const forged = await post(p, unknown);
    expectError(forged, 400, 'invalid_signature');
    expect(forged.body.errors[0].detail).toMatch(/has no event/);

    const { event } = await sale(p);
    cbApi.events.set(event.id as string, event);
    const content = event.content as Json;
    const altered = { ...event, content: { ...content, invoice: { ...(content.invoice as Json), total: 99_000 } } };
    const changed = await post(p, altered);
    expectError(changed, 400, 'invalid_signature');
    expect(changed.body.errors[0].detail).toMatch(/something else/);
    expect(await events(p)).toEqual([]);
    expect(await list(p, 'payments')).toEqual([]);
  });

  it('a busy API (429) answers 503 and records nothing; the same webhook sent again is credited', async () => {
    const p = await program();
    const { event } = await sale(p, 5_000);
    cbApi.events.set(event.id as string, event);
    cbApi.failWith = 429;
    try {
      const reply = await post(p, event);
      expect(reply.status).toBe(503);
      expect(await events(p)).toEqual([]);
    } finally {
      cbApi.failWith = undefined;
    }
    expect((await post(p, event)).body.data.attributes.outcome).toBe('credited');
    expect(await amounts(p)).toEqual([1_000]);
  });

  it('a key Chargebee refuses leaves the basic auth that held; without a credential nothing is asked', async () => {
    const refused = await program('test_revokedKey0000000000000000');
    const first = (await sale(refused, 2_000)).event;
    expect((await post(refused, first)).body.data.attributes.outcome).toBe('credited');
    const plain = await program(null);
    const before = cbApi.calls.length;
    const second = (await sale(plain, 2_000)).event;
    expect((await post(plain, second)).body.data.attributes.outcome).toBe('credited');
    expect(cbApi.calls.length).toBe(before);
  });
});
