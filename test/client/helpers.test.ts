// @tally/client against a real collector (packages/client/README.md): the helpers record a
// conversion, a lead and a payment as their routes do, retries answer the same records, and
// every refusal is a TallyError carrying the API's one error shape; the typed client reaches
// any route, and another program's records stay out of reach.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTally, TallyError, unwrap } from '../../packages/client/src/index.js';
import { programsKit } from '../collector/programs-kit.js';
import { checkedFetch, programWithClient } from './kit.js';

const kit = programsKit();

/** A click through Alice's link, as the snippet records it on the landing page. */
async function click(tally: Awaited<ReturnType<typeof programWithClient>>['tally'], grId: string) {
  await unwrap(tally.POST('/v1/tracking/click', { body: { gr_id: grId, pk: 'alice-example', url: 'https://other.example/' } }));
}

/** What a call threw. */
async function thrown(call: Promise<unknown>): Promise<TallyError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof TallyError)) throw new Error(`expected a TallyError, got ${String(err)}`);
  return err;
}

describe('recordConversion', () => {
  it("credits the link's partner; the same conversion again answers the same referral, not created", async () => {
    const { tally } = await programWithClient(kit.c);
    await click(tally, 'visit-1');
    const first = await tally.recordConversion({ email: 'carol@customer.test', gr_id: 'visit-1', pk: 'alice-example' });
    expect(first.created).toBe(true);
    expect(first.referral).toMatchObject({ type: 'referral', attributes: { email: 'carol@customer.test' } });
    const again = await tally.recordConversion({ email: 'carol@customer.test', gr_id: 'visit-1', pk: 'alice-example' });
    expect(again).toEqual({ referral: first.referral, created: false });
    const listed = await unwrap(tally.GET('/v1/referrals', { params: { query: { email_eq: 'carol@customer.test' } } }));
    expect(listed.data.map((r) => r.id)).toEqual([first.referral.id]);
  });

  it("throws the API's refusal as a TallyError: the first referral stands (409 referral_exists, its id in meta), a bad address is 422 at /email", async () => {
    const { tally } = await programWithClient(kit.c);
    await click(tally, 'visit-1');
    const { referral } = await tally.recordConversion({ email: 'dave@customer.test', gr_id: 'visit-1', pk: 'alice-example' });
    const taken = await thrown(tally.recordConversion({ email: 'dave@customer.test', gr_id: 'visit-2', pk: 'alice-example' }));
    expect(taken).toMatchObject({ status: 409, code: 'referral_exists', title: 'Referral exists', pointer: '/email' });
    expect(taken.meta).toEqual({ referral_id: referral.id });
    expect(taken.errors).toHaveLength(1);
    expect(taken.message).toBe(`referral_exists: ${taken.detail}`);
    const invalid = await thrown(tally.recordConversion({ email: 'not an address', gr_id: 'visit-3' }));
    expect(invalid).toMatchObject({ status: 422, code: 'invalid_email', pointer: '/email' });
  });

  it('works with the publishable token too, whose refusals say only unattributed', async () => {
    const { tally, publishable } = await programWithClient(kit.c);
    await click(tally, 'visit-1');
    const pub = createTally({ baseUrl: kit.c.url, token: publishable, fetch: checkedFetch });
    expect((await pub.recordConversion({ email: 'erin@customer.test', gr_id: 'visit-1', pk: 'alice-example' })).created).toBe(true);
    const again = await thrown(pub.recordConversion({ email: 'erin@customer.test', gr_id: 'visit-9', pk: 'alice-example' }));
    expect(again).toMatchObject({ status: 422, code: 'unattributed' });
    // Everything else is the secret token's.
    expect(await thrown(pub.recordPayment({ amount: 100, currency: 'EUR', idempotency_key: 'p' }))).toMatchObject({
      status: 403,
      code: 'forbidden',
    });
  });
});

describe('recordPayment', () => {
  it("earns the partner's commission in minor units; the same idempotency key answers the same payment, not created", async () => {
    const { tally } = await programWithClient(kit.c);
    await click(tally, 'visit-1');
    await tally.recordConversion({ email: 'carol@customer.test', gr_id: 'visit-1', pk: 'alice-example' });
    const input = { amount: 4900, currency: 'eur', idempotency_key: 'invoice-1', referral_email: 'carol@customer.test' };
    const paid = await tally.recordPayment(input);
    expect(paid.created).toBe(true);
    expect(paid.payment.attributes).toMatchObject({ amount: 4900, currency: 'EUR', idempotency_key: 'invoice-1' });
    const { data: program } = await unwrap(tally.GET('/v1/program'));
    const rate = program.attributes.commission_rate_bps;
    expect(paid.commission).toMatchObject({
      type: 'commission',
      attributes: { amount: Math.round((4900 * rate) / 10_000), currency: 'EUR' },
    });
    const replay = await tally.recordPayment(input);
    expect(replay).toEqual({ ...paid, created: false });
    const other = await thrown(tally.recordPayment({ ...input, amount: 5000 }));
    expect(other).toMatchObject({ status: 409, code: 'idempotency_conflict' });
  });

  it('refuses a payment for nobody referred (422 unknown_referral) and an unknown field (422 unknown_field at its pointer)', async () => {
    const { tally } = await programWithClient(kit.c);
    const unknown = await thrown(
      tally.recordPayment({ amount: 100, currency: 'EUR', idempotency_key: 'x', referral_email: 'zoe@nowhere.test' }),
    );
    expect(unknown).toMatchObject({ status: 422, code: 'unknown_referral' });
    // A caller without the types (plain JavaScript) may still send a typo: the API names it.
    const typo = await thrown(
      tally.recordPayment({ amount: 100, currency: 'EUR', idempotency_key: 'y', refferal_email: 'a@b.test' } as never),
    );
    expect(typo).toMatchObject({ status: 422, code: 'unknown_field', pointer: '/refferal_email' });
  });
});

describe('recordLead', () => {
  it('submits a lead for the partner, stage new; the same person again is 409 duplicate_lead with the reason', async () => {
    const { tally } = await programWithClient(kit.c);
    const partners = await unwrap(tally.GET('/v1/partners', { params: { query: { email_eq: 'alice@partner.test' } } }));
    const partnerId = partners.data[0]!.id;
    const lead = await tally.recordLead({
      partner_id: partnerId,
      name: 'Dan Prospect',
      email: 'dan@prospect.test',
      company: 'Prospect Ltd',
    });
    expect(lead).toMatchObject({ type: 'lead', attributes: { stage: 'new', submitted_by: 'owner', email: 'dan@prospect.test' } });
    const twice = await thrown(tally.recordLead({ partner_id: partnerId, name: 'Dan', email: 'dan@prospect.test' }));
    expect(twice).toMatchObject({ status: 409, code: 'duplicate_lead', meta: { reason: 'lead_email', lead_id: lead.id } });
    expect(await thrown(tally.recordLead({ partner_id: 'nobody', name: 'X', email: 'x@x.test' }))).toMatchObject({
      status: 422,
      code: 'unknown_partner',
    });
  });
});

describe('the typed client', () => {
  it("reaches any route with the token; another program's record is 404 not_found, as the API answers everyone", async () => {
    const mine = await programWithClient(kit.c);
    const theirs = await programWithClient(kit.c);
    const { data: partners } = await unwrap(mine.tally.GET('/v1/partners'));
    expect(partners.map((p) => p.attributes.name)).toEqual(['Alice Example']);
    const id = partners[0]!.id;
    const own = await mine.tally.GET('/v1/partners/{id}', { params: { path: { id } } });
    expect(own.data?.data.id).toBe(id);
    const foreign = await theirs.tally.GET('/v1/partners/{id}', { params: { path: { id } } });
    expect(foreign.response.status).toBe(404);
    expect(foreign.error?.errors[0]?.code).toBe('not_found');
    expect(await thrown(unwrap(theirs.tally.GET('/v1/partners/{id}', { params: { path: { id } } })))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });

  it('a wrong token is 401 unauthorized; the base URL may end with a slash', async () => {
    const bad = createTally({ baseUrl: `${kit.c.url}/`, token: 'tly_sec_nothing' });
    expect(await thrown(unwrap(bad.GET('/v1/partners')))).toMatchObject({ status: 401, code: 'unauthorized' });
    const { secret } = await kit.c.otherProgram();
    const good = createTally({ baseUrl: `${kit.c.url}/`, token: secret });
    expect((await unwrap(good.GET('/v1/partners'))).data).toEqual([]);
  });

  it("an answer that is not the API's (a proxy's page) keeps its status and Retry-After; no answer at all is status 0, network_error, with the cause", async () => {
    const proxy = createServer((_req, res) => res.writeHead(503, { 'retry-after': '7', 'content-type': 'text/html' }).end('<h1>down</h1>'));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const port = (proxy.address() as AddressInfo).port;
    try {
      const down = await thrown(
        createTally({ baseUrl: `http://127.0.0.1:${port}`, token: 't' }).recordConversion({ email: 'a@b.test', gr_id: 'g' }),
      );
      expect(down).toMatchObject({ status: 503, code: 'unexpected_answer', errors: [], retryAfter: 7, message: 'HTTP 503' });
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
    // The port is closed now: nothing answers.
    const gone = await thrown(
      createTally({ baseUrl: `http://127.0.0.1:${port}`, token: 't' }).recordLead({ partner_id: 'p', name: 'N', email: 'n@n.test' }),
    );
    expect(gone).toMatchObject({ status: 0, code: 'network_error', message: 'no answer from Tally: fetch failed' });
    expect(gone.cause).toBeInstanceOf(Error);
  });

  it('sends each request through the fetch it was given, with the token and the headers asked for', async () => {
    const { secret } = await kit.c.otherProgram();
    const seen: Request[] = [];
    const tally = createTally({
      baseUrl: kit.c.url,
      token: secret,
      headers: { 'x-request-source': 'billing-worker' },
      fetch: (request) => {
        seen.push(request.clone());
        return fetch(request);
      },
    });
    await unwrap(tally.GET('/v1/partners', { params: { query: { per_page: 5 } } }));
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe(`${kit.c.url}/v1/partners?per_page=5`);
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${secret}`);
    expect(seen[0]!.headers.get('x-request-source')).toBe('billing-worker');
  });
});
