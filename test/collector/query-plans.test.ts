// What every route reads must be answered from an index, on both engines, whatever the
// tables' size: no full scan of a table, and for a list's page no sort either, for each
// filter combination a list route allows. The routes come from ROUTES, and each runs its
// own handler (its real store functions) against the real database, every statement it
// sends planned on the way (plans-explain.ts: how each engine is asked, and why that
// answer does not depend on how many rows the test made).

import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyring } from '../../packages/collector/src/platform/keyring.js';
import { ROUTES } from '../../packages/collector/src/app.js';
import { authenticateSession } from '../../packages/collector/src/modules/owners/service.js';
import { authenticatePartner, type PartnerContext } from '../../packages/collector/src/flows/portal.js';
import { creditPayout } from '../../packages/collector/src/flows/credit-notes.js';
import { erasePartner, eraseReferral, forgetEmail } from '../../packages/collector/src/flows/erasure.js';
import { ServiceError } from '../../packages/collector/src/platform/errors.js';
import type { Access } from '../../packages/collector/src/api/auth.js';
import { parseListQuery } from '../../packages/collector/src/platform/http/list-query.js';
import type { Route, RouteInput } from '../../packages/collector/src/api/route.js';
import { validateQuery } from '../../packages/collector/src/platform/http/validate.js';
import type { Db } from '../../packages/collector/src/platform/db/db.js';
import * as programs from '../../packages/collector/src/modules/programs/repo.js';
import type { ProgramRow } from '../../packages/collector/src/modules/programs/model.js';
import type { SessionRow } from '../../packages/collector/src/modules/owners/repo.js';
import { ENGINE } from './database.js';
import { PUBLIC_URL, seedPartner, startCollector, T0, type CallOptions, type Collector } from './harness.js';
import { isPage, keysAndIndexes, oneLine, openExplainer, planning, type Explainer, type PlanNode, type Planned } from './plans-explain.js';
import { ownerSession } from './session.js';
import { authenticateEmbed, mintEmbedToken, openSession } from '../../packages/collector/src/flows/embed.js';
import type { EmbedSessionRow } from '../../packages/collector/src/modules/embed/repo.js';
import { makeClickPartitions } from '../../packages/collector/src/modules/clicks/partitions.js';
import { customer, newSecret, postEvent, stripeEvent } from './stripe-fixtures.js';
import { lsEvent, lsSignature, lsSubscription, newLsSecret, postLs } from './lemonsqueezy-fixtures.js';
import { basicAuth, cbEvent, customer as cbCustomer, newCbSecret, postCb } from './chargebee-fixtures.js';
import { newRcSecret, postRc, rcId, rcNotification, rcSignature } from './recurly-fixtures.js';
import { newShopifySecret, postShopify, shopifyHmac, shopifyOrder } from './shopify-fixtures.js';
import { customer as paddleCustomer, newPaddleSecret, paddleEvent, paddleSignature, postPaddle } from './paddle-fixtures.js';

/**
 * Every request of this file on a connection of its own. Between two of them the file
 * plans statements for seconds, in the process that also runs the server; on a loaded
 * machine the client's idle-socket timer there fires late, after the server's keep-alive
 * timeout closed that socket, and the next request, sent on it, met ECONNRESET.
 */
const call = (method: string, path: string, opts: CallOptions = {}) =>
  c.call(method, path, { ...opts, headers: { connection: 'close', ...opts.headers } });

/** Registered on PostgreSQL only (not skipped elsewhere: a skipped test proves nothing). */
const describeOnPostgres = (ENGINE === 'postgres' ? describe : () => undefined) as typeof describe;

/** A valid value for each kind of filter: a real record's id where there is one. */
function sampleValue(name: string, describe: string): string {
  const known = ids.get(name);
  if (known) return known;
  const choices = /^one of ([^,]+)/.exec(describe);
  if (choices?.[1]) return choices[1];
  if (name.includes('email')) return 'someone@example.test';
  if (name.includes('_at_')) return '2025-03-01T10:00:00Z';
  if (describe === 'a whole number') return '0';
  return 'x';
}

/** Every subset of the route's filters, the empty one included. */
function combinations(names: readonly string[]): string[][] {
  return Array.from({ length: 2 ** names.length }, (_, mask) => names.filter((_, i) => mask & (1 << i)));
}

/** Query strings for routes with a `query` schema (the statistics, Wise's requirements): each one the route accepts is tried. */
const SAMPLE_QUERIES = [
  '',
  'from=2025-03-01&to=2025-03-31',
  'from=2025-01-01&to=2025-12-31&tz=Asia/Kolkata&interval=month',
  'from=2025-03-01&to=2025-03-31&partner_id_eq=:partner',
  'from=2025-03-01&to=2025-03-31&sort=owed&q=Partner&page=2&per_page=10',
  'token=no-such-token',
  'currency=EUR',
  'year=2025',
];

/** The tax forms' keys, so that the 1099 export reads what it reads rather than refuse. */
const TAX_FORM_KEYS = keyring(randomBytes(32).toString('base64'));

/** An id no record has: a route reached with it still sends its lookup. */
const NO_RECORD = '01900000-0000-7000-8000-000000000000';

let c: Collector;
let explainer: Explainer;
let program: ProgramRow;
let owner: { session: SessionRow; program: ProgramRow };
let partner: PartnerContext;
let partnerCookie: string;
let embedded: EmbedSessionRow;
/** Filter values that name real records. */
const ids = new Map<string, string>();
const PAGE_SLUG = 'plans';
let stripeEndpoint = '';

beforeAll(async () => {
  // No DNS leaves the machine: the webhook's host below resolves to nothing, here.
  const noDns = async (host: string): Promise<never> => {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  };
  c = await startCollector({ outbound: { resolve: noDns } });
  explainer = await openExplainer(ENGINE, c.running.db, c.databaseUrl);
  // A little of everything a route reads, so that each handler goes past its lookups.
  const p = await seedPartner(c, { paypal_email: 'pay@plans.test' });
  await seedPartner(c);
  await call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id: 'plans-g', pk: p.key } });
  const conv = await call('POST', '/v1/tracking/conversion', {
    token: c.publishable,
    body: { email: 'buyer@plans.test', gr_id: 'plans-g', pk: p.key },
  });
  await call('POST', '/v1/payments', {
    body: { amount: 10_000, currency: 'USD', referral_id: conv.body.data.id, idempotency_key: 'plans-1' },
  });
  // A paid batch of its own, and so an invoice; the open USD batch below stays the newest.
  await call('POST', '/v1/commissions', { body: { partner_id: p.partnerId, amount: 500, currency: 'EUR' } });
  const paid = (await call('POST', '/v1/payout_batches', { body: { currency: 'EUR' } })).body.data[0].id;
  await call('POST', `/v1/payout_batches/${paid}/paid`);
  // A deep link of the partnership's, to a page of the program's own origin.
  const origin = (await call('GET', '/v1/program')).body.data.attributes.allowed_origins[0];
  const link = await call('POST', '/v1/links', {
    body: { partnership_id: p.partnershipId, destination: `${origin}/pricing`, key: 'plans-link' },
  });
  expect(link.status).toBe(201);
  // Its money back in part, as a provider's reversal would: a credit note against that invoice.
  const credit = { cause: 'trr_plans', amount: 100, reason: 'plans' };
  await c.running.db.transaction((tx) => creditPayout(tx, c.programId, { id: paid, partner_id: p.partnerId }, credit, T0));
  expect((await call('POST', '/v1/payout_batches', { body: {} })).body.data).toHaveLength(1);
  // A referral held for review (a disposable address), and the owner's decision about it.
  const held = await call('POST', '/v1/tracking/conversion', {
    token: c.publishable,
    body: { email: 'throwaway@mailinator.com', gr_id: 'plans-g', pk: p.key },
  });
  await call('POST', '/v1/review_decisions', { body: { referral_id: held.body.data.id, decision: 'approve', reason: 'known customer' } });
  ids.set('partner_id_eq', p.partnerId).set('partnership_id_eq', p.partnershipId).set('referral_id_eq', conv.body.data.id);
  // A group with a reward and a move rule, and a partnership moved into it.
  const vip = (await call('POST', '/v1/groups', { body: { name: 'VIP' } })).body.data;
  await call('POST', `/v1/groups/${vip.id}/rewards`, {
    body: { event: 'sale', kind: 'percentage', amount: 3000, duration: { kind: 'lifetime' } },
  });
  await call('PATCH', `/v1/partnerships/${p.partnershipId}`, { body: { group_id: vip.id } });
  ids.set('group_id_eq', vip.id).set('to_group_id_eq', vip.id);
  // A discount of the group's, and a code of the partnership's for it.
  const discount = (
    await call('POST', '/v1/discounts', {
      body: { name: 'Plans', kind: 'percent', amount: 1000, group_id: vip.id, duration: { kind: 'once' } },
    })
  ).body.data;
  await call('POST', '/v1/discount_codes', { body: { partnership_id: p.partnershipId, code: 'PLANS', discount_id: discount.id } });
  // A lead of the partner's, for the leads' lists (docs/leads.md).
  await call('POST', '/v1/leads', { body: { partner_id: p.partnerId, name: 'Plan Lead', email: 'lead@plans.test' } });
  ids.set('discount_id_eq', discount.id).set('code_eq', 'plans');
  const secret = newSecret();
  const connected = await call('POST', '/v1/integrations/stripe/secrets', { body: { secret } });
  stripeEndpoint = String(connected.body.meta.endpoint_url).split('/').pop()!;
  await postEvent(
    `${c.url}/v1/integrations/stripe/webhook/${stripeEndpoint}`,
    stripeEvent('customer.created', customer({ email: 'buyer@plans.test' })),
    secret,
    { timestamp: c.clock.now },
  );
  // And one event of each other platform, for their logs.
  const paddleSigning = newPaddleSecret();
  await call('POST', '/v1/integrations/paddle/secrets', { body: { secret: paddleSigning } });
  const paddleBody = JSON.stringify(paddleEvent('customer.created', paddleCustomer({ email: 'buyer@plans.test' })));
  await postPaddle(c, stripeEndpoint, paddleBody, paddleSignature(paddleBody, paddleSigning, Math.floor(Date.now() / 1000)));
  const lsSigning = newLsSecret();
  await call('POST', '/v1/integrations/lemonsqueezy/secrets', { body: { secret: lsSigning } });
  const lsBody = JSON.stringify(lsEvent('subscription_cancelled', lsSubscription({ email: 'buyer@plans.test' })));
  await postLs(c, stripeEndpoint, lsBody, lsSignature(lsBody, lsSigning));
  const cbSigning = newCbSecret();
  await call('POST', '/v1/integrations/chargebee/secrets', { body: { secret: cbSigning } });
  const cbBody = JSON.stringify(cbEvent('customer_changed', { customer: cbCustomer({ email: 'buyer@plans.test' }) }));
  await postCb(c, stripeEndpoint, cbBody, basicAuth(cbSigning));
  const rcSigning = newRcSecret();
  await call('POST', '/v1/integrations/recurly/secrets', { body: { secret: rcSigning } });
  const rcBody = JSON.stringify(rcNotification('subscription', 'canceled', rcId(), c.clock.now));
  await postRc(c, stripeEndpoint, rcBody, rcSignature(rcBody, [rcSigning], c.clock.now * 1000));
  const shopifySigning = newShopifySecret();
  await call('POST', '/v1/integrations/shopify/secrets', { body: { secret: shopifySigning } });
  const shopifyBody = JSON.stringify(shopifyOrder({ email: 'buyer@plans.test', subtotal: 1_000 }));
  await postShopify(c, stripeEndpoint, shopifyBody, { topic: 'orders/paid', hmac: shopifyHmac(shopifyBody, shopifySigning) });
  await call('PATCH', '/v1/program', { body: { slug: PAGE_SLUG, page_enabled: true } });
  // Lists under a record need one to list under: an endpoint (off) with one delivery, a
  // test event, whose send fails at the DNS above and reaches no one.
  const endpoint = await call('POST', '/v1/webhook_endpoints', { body: { url: 'https://hooks.invalid/plans', enabled: false } });
  await call('POST', `/v1/webhook_endpoints/${endpoint.body.data.id}/test`);
  program = (await programs.get(c.running.db, c.programId))!;
  // The callers as the auth middleware finds them: an owner's session, a partner's.
  const signedIn = await ownerSession(c);
  owner = (await authenticateSession(c.running.db, signedIn.cookie.split('=')[1]!, c.clock.now))!;
  const invited = await call('POST', `/v1/partners/${p.partnerId}/invitation`);
  const redeemed = await call('POST', '/v1/portal/auth/redeem', {
    token: null,
    body: { token: invited.body.meta.link.split('#')[1], password: 'a long partner password' },
  });
  partnerCookie = redeemed.headers
    .getSetCookie()
    .find((x) => x.startsWith('tally_partner='))!
    .split(';')[0]!;
  partner = (await authenticatePartner(c.running.db, partnerCookie.split('=')[1]!, c.clock.now))!;
  // A bounty of the group's, and the partner's submission to it.
  const bountyTerms = { name: 'Plans', kind: 'submission', group_ids: [vip.id], starts_at: T0 - 86_400, ends_at: T0 + 400 * 86_400 };
  const bounty = (await call('POST', '/v1/bounties', { body: { ...bountyTerms, amount: 100, currency: 'USD' } })).body.data;
  await call('POST', `/v1/portal/partnerships/${p.partnershipId}/bounties/${bounty.id}/submissions`, {
    token: null,
    headers: { cookie: partnerCookie, origin: c.url },
    body: { text: 'plans' },
  });
  // The embedded portal's session, for a user of the company's own.
  const minted = await mintEmbedToken(
    c.running.db,
    program,
    { user_id: 'u-plans', name: 'Embedded', email: 'embedded@plans.test' },
    c.clock.now,
  );
  await call('POST', '/v1/discount_codes', { body: { partnership_id: minted.partnership_id, code: 'EMBEDPLANS' } });
  const opened = await openSession(c.running.db, minted.token, c.clock.now);
  embedded = (await authenticateEmbed(c.running.db, opened.token, c.clock.now))!.session;
  // Threads to list and read (a partner's, the embedded partner's), and a broadcast to all.
  await call('POST', '/v1/broadcasts', { body: { bodies: { en: 'Plans' } } });
  await call('POST', `/v1/message_threads/${minted.partnership_id}/messages`, { body: { body: 'Plans' } });
});
afterAll(async () => {
  await explainer?.close();
  await c?.close();
});

/** A call with the credential the route takes: the partner's cookie on the portal's routes, the secret token elsewhere. */
function callAs(r: Route, path: string) {
  const opts: CallOptions = r.access === 'partner' ? { token: null, headers: { cookie: partnerCookie } } : {};
  return call('GET', path, opts);
}

/**
 * The route's path parameters: each `:name` is a real record's id, the first in the list
 * its path leads with (GET /v1/partners for /v1/partners/:id), or an id no record has
 * when that path lists nothing.
 */
async function paramsFor(r: Route): Promise<Record<string, string>> {
  const params: Record<string, string> = {};
  const segments = r.path.split('/');
  for (const [i, segment] of segments.entries()) {
    if (!segment.startsWith(':')) continue;
    const name = segment.slice(1);
    if (name === 'slug') params[name] = PAGE_SLUG;
    else if (name === 'endpoint') params[name] = stripeEndpoint;
    else {
      const prefix = segments
        .slice(0, i)
        .map((s) => (s.startsWith(':') ? (params[s.slice(1)] ?? NO_RECORD) : s))
        .join('/');
      const listed = ROUTES.some((x) => x.method === 'get' && x.path === segments.slice(0, i).join('/'))
        ? await callAs(r, prefix)
        : undefined;
      const first = listed?.status === 200 && Array.isArray(listed.body?.data) ? listed.body.data[0]?.id : undefined;
      params[name] = typeof first === 'string' ? first : NO_RECORD;
    }
  }
  return params;
}

/** Runs the route's own handler on the database, each statement planned; the statements and how it ended. */
async function handle(
  r: Route,
  params: Record<string, string>,
  querystring: string,
): Promise<{ sent: Planned[]; outcome: string; body?: any }> {
  const sent: Planned[] = [];
  const db: Db = planning(c.running.db, explainer, sent);
  const caller: Access | undefined = r.access === 'session' ? 'secret' : r.access === 'public' ? undefined : r.access;
  // As the app builds it (app.ts, handler()); a field it gained since, no read here needs.
  const input = {
    db,
    now: c.clock.now,
    program:
      r.access === 'session' ? owner.program : caller === 'secret' || caller === 'publishable' || caller === 'embed' ? program : undefined,
    caller,
    session: r.access === 'session' ? owner.session : undefined,
    account: r.access === 'partner' ? partner.account : undefined,
    partnerSession: r.access === 'partner' ? partner.session : undefined,
    embed: r.access === 'embed' ? embedded : undefined,
    outbox: undefined,
    role: undefined,
    client: '127.0.0.1',
    clientIp: '127.0.0.1',
    taxFormKeys: TAX_FORM_KEYS,
    publicUrl: PUBLIC_URL,
    params,
    body: undefined,
    list: parseListQuery(r.list ? querystring : '', r.list ?? {}),
    query: r.query ? validateQuery(r.query, querystring) : undefined,
    raw: '',
    header: () => undefined,
  } as unknown as RouteInput<unknown, unknown>;
  try {
    const reply = await r.handle(input);
    // A streamed answer (an export) reads as it is taken: taken whole, its statements are planned.
    if (reply.body instanceof Readable) for await (const _ of reply.body);
    return { sent, outcome: String(reply.status), body: reply.body };
  } catch (err) {
    // A route reached with an id no record has answers 404, after its lookup was planned; one
    // a rule refuses (Wise's requirements of a program without Wise) after its reads, likewise.
    if (err instanceof ServiceError && (err.code === 'not_found' || err.kind === 'rule')) return { sent, outcome: err.code };
    throw err;
  }
}

const fullScans = (plan: readonly PlanNode[]) => plan.filter((n) => n.fullScan);
/**
 * PostgreSQL pruned every partition of a partitioned table (clicks) at planning: a filter
 * that no month can hold (created_at_lt and created_at_gt of one instant). The plan reads
 * no table, and its Sort sorts no row.
 */
const readsNothing = (plan: readonly PlanNode[]) =>
  ENGINE === 'postgres' && plan.every((n) => n.table === undefined && /^(Limit|Sort|Result)\b/.test(n.line));
const describePlan = (s: Planned) => `${oneLine(s.sql)}: ${s.plan.map((n) => n.line).join(' | ')}`;

const reads = ROUTES.filter((r) => r.method === 'get');
// A download (the audit log's CSV) takes a list's filters but answers no page: its statements are held as other reads'.
// An export (`/export`) streams a list's pages by cursor: each filter combination is planned as a list's.
const isExport = (r: (typeof ROUTES)[number]) => r.path.endsWith('/export');
const listRoutes = reads.filter((r) => r.list && !r.produces && !isExport(r));
const exportRoutes = reads.filter((r) => r.list && isExport(r));
const otherReads = reads.filter((r) => !r.list || (r.produces && !isExport(r)));
let listCombinations = 0;
let otherQueries = 0;
/** Routes reached with an id no record has: only their lookup was planned. */
const notFound = new Set<string>();

describe('the requests of this file', () => {
  it("each opens its own connection: none is left idle for the server's keep-alive timeout to close under the next", async () => {
    let opened = 0;
    const count = () => opened++;
    c.running.server.on('connection', count);
    try {
      for (let i = 0; i < 3; i++) expect((await call('GET', '/v1/partners')).status).toBe(200);
    } finally {
      c.running.server.off('connection', count);
    }
    expect(opened).toBe(3);
  });
});

describe(`what each route reads uses an index (${ENGINE})`, () => {
  for (const r of listRoutes) {
    const names = Object.keys(r.list ?? {});
    it(`${r.path}: ${2 ** names.length} filter combinations, page 1 and pages by cursor both ways, from an index in the list's order`, async () => {
      const params = await paramsFor(r);
      // A record of the list to page from: any will do, the cursor is its place in the order.
      const anyRecord = (await handle(r, params, 'per_page=1')).body?.data?.[0]?.id as string | undefined;
      const bad: string[] = [];
      for (const combo of combinations(names)) {
        listCombinations++;
        const filters = combo.map((n) => [n, sampleValue(n, r.list?.[n]?.describe ?? '')]);
        const first = await handle(r, params, new URLSearchParams([...filters, ['per_page', '50']]).toString());
        const cursor = (first.body?.data?.at(-1)?.id as string | undefined) ?? anyRecord;
        const pages = cursor === undefined ? [[]] : [[], [['starting_after', cursor]], [['ending_before', cursor]]];
        for (const paging of pages) {
          const query = new URLSearchParams([...filters, ...paging, ['per_page', '50']]);
          const { sent, outcome } = paging.length === 0 ? first : await handle(r, params, query.toString());
          // Every list reads its page with the one list query of platform/db/list.ts.
          const lists = sent.filter((s) => isPage(s.sql));
          expect(
            lists.length,
            `${r.path}?${query} (${outcome}) sent ${lists.length} list queries: ${sent.map((s) => oneLine(s.sql)).join(' ; ')}`,
          ).toBe(1);
          for (const s of sent) {
            const wrong = readsNothing(s.plan) ? [] : isPage(s.sql) ? s.plan.filter((n) => n.fullScan || n.sort) : fullScans(s.plan);
            if (wrong.length > 0) bad.push(`${r.path}?${query}: ${describePlan(s)}`);
          }
        }
      }
      expect(anyRecord, `${r.path} lists nothing to page from: seed a record`).toBeDefined();
      expect(bad).toEqual([]);
    });
  }

  // An export walks its list's query by cursor, a page after another, under each filter combination.
  for (const r of exportRoutes) {
    const names = Object.keys(r.list ?? {});
    it(`${r.path}: ${2 ** names.length} filter combinations, each page from an index in the list's order`, async () => {
      const params = await paramsFor(r);
      const bad: string[] = [];
      for (const combo of combinations(names)) {
        listCombinations++;
        const query = new URLSearchParams(combo.map((n) => [n, sampleValue(n, r.list?.[n]?.describe ?? '')])).toString();
        const { sent, outcome } = await handle(r, params, query);
        expect(outcome, `${r.path}?${query}`).toBe('200');
        const lists = sent.filter((s) => isPage(s.sql));
        expect(lists.length, `${r.path}?${query} sent no list query`).toBeGreaterThan(0);
        for (const s of lists) {
          const wrong = readsNothing(s.plan) ? [] : s.plan.filter((n) => n.fullScan || n.sort);
          if (wrong.length > 0) bad.push(`${r.path}?${query}: ${describePlan(s)}`);
        }
      }
      expect(bad).toEqual([]);
    });
  }

  // Routes that read without a list's filters and pages: a record, a program's tokens or
  // members, the statistics, the portal's partnerships and payouts. Each statement must
  // find its rows through an index; a sort of what it found is allowed.
  for (const r of otherReads) {
    it(`${r.path}: every statement through an index`, async () => {
      const params = await paramsFor(r);
      const queries = r.query
        ? SAMPLE_QUERIES.map((q) => q.replace(':partner', ids.get('partner_id_eq') ?? NO_RECORD)).filter((q) => {
            try {
              validateQuery(r.query!, q);
              return true;
            } catch {
              return false;
            }
          })
        : [''];
      expect(queries.length, `no sample query fits ${r.path}: add one to SAMPLE_QUERIES`).toBeGreaterThan(0);
      const bad: string[] = [];
      for (const query of queries) {
        otherQueries++;
        const { sent, outcome } = await handle(r, params, query);
        if (outcome === 'not_found') notFound.add(r.path);
        for (const s of sent) if (fullScans(s.plan).length > 0) bad.push(`${r.path}?${query}: ${describePlan(s)}`);
      }
      expect(bad).toEqual([]);
    });
  }

  afterAll(() => {
    console.log(
      `query plans (${ENGINE}): ${listCombinations} filter combinations of ${listRoutes.length} list routes (page 1, and by cursor after and before), ` +
        `${otherQueries} queries of ${otherReads.length} other reading routes` +
        (notFound.size > 0 ? ` (no record to reach, lookup only: ${[...notFound].join(', ')})` : ''),
    );
  });
});

// Deleting a partner and erasing a person run inside the write transaction, which every
// other write waits for: a full scan there stalls the whole service. Each statement those
// paths send is planned here, and so is what the engine does for them unseen: the
// foreign-key check of each deleted row reads every child table by its referencing
// columns, which no plan shows, so each such key must lead an index.
describe(`deletes and erasures use an index for every statement and foreign-key check (${ENGINE})`, () => {
  /** Every statement with a plan line that scans a whole table. */
  function scans(sent: readonly Planned[]): string[] {
    const bad: string[] = [];
    for (const s of sent) {
      if (!/^\s*(SELECT|UPDATE|DELETE)/i.test(s.sql)) continue;
      // The programs table holds one row per tenant (a handful): walking it to look a
      // person up in each program's unique index is the intended plan, not a table scan.
      const full = fullScans(s.plan).filter((n) => n.table !== 'programs' && !/^SCAN (CONSTANT ROW|p$|p USING|programs)/.test(n.line));
      if (full.length > 0) bad.push(`${oneLine(s.sql)}: ${full.map((n) => n.line).join(' | ')}`);
    }
    return bad;
  }

  /** Foreign keys that point at a table the statements delete from, and lead no index. */
  async function unindexedKeys(deleted: ReadonlySet<string>): Promise<string[]> {
    const { keys, indexes } = await keysAndIndexes(c.running.db);
    // SQLite's check looks the key up as declared; PostgreSQL's equality lookup takes the key's columns in any order.
    const leads = (columns: readonly string[], index: readonly string[]) =>
      ENGINE === 'sqlite'
        ? columns.every((col, i) => index[i] === col)
        : columns.every((col) => index.slice(0, columns.length).includes(col));
    return keys
      .filter((k) => deleted.has(k.parent) && !(indexes.get(k.table) ?? []).some((index) => leads(k.columns, index)))
      .map((k) => `${k.table}(${k.columns.join(', ')}) → ${k.parent}`);
  }

  async function paths(run: (db: Db) => Promise<unknown>): Promise<{ deleted: string[]; scans: string[]; keys: string[] }> {
    const sent: Planned[] = [];
    await run(planning(c.running.db, explainer, sent));
    const deleted = [...new Set(sent.flatMap(({ sql }) => /^\s*DELETE FROM (\w+)/i.exec(sql)?.[1] ?? []))].sort();
    return { deleted, scans: scans(sent), keys: await unindexedKeys(new Set(deleted)) };
  }

  it('deleting a partner', async () => {
    const partner = await seedPartner(c);
    const result = await paths((db) => erasePartner(db, c.programId, partner.partnerId, T0));
    expect(result.deleted).toEqual([
      'clicks',
      'clicks_purged',
      'leads',
      'message_threads',
      'messages',
      'partners',
      'partnerships',
      'slugs',
    ]);
    expect(result.keys).toEqual([]);
    expect(result.scans).toEqual([]);
  });

  async function referral(email: string): Promise<string> {
    const partner = await seedPartner(c);
    const conv = await call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      body: { email, gr_id: `g-${email}`, pk: partner.key },
    });
    expect(conv.status).toBe(201);
    return conv.body.data.id as string;
  }

  it('erasing a referral', async () => {
    const id = await referral('erase@plans.test');
    const result = await paths((db) => eraseReferral(db, c.programId, id, T0));
    expect(result.deleted).toEqual(['billing_customers', 'billing_links', 'clicks', 'events', 'notifications', 'referrals']);
    expect(result.keys).toEqual([]);
    expect(result.scans).toEqual([]);
  });

  it('forgetting a person in one program', async () => {
    await referral('forget-one@plans.test');
    const result = await paths((db) => forgetEmail(db, 'forget-one@plans.test', T0, c.programId));
    expect(result.deleted).toEqual(['billing_customers', 'billing_links', 'clicks', 'events', 'notifications', 'referrals']);
    expect(result.keys).toEqual([]);
    expect(result.scans).toEqual([]);
  });

  it('forgetting a person in every program', async () => {
    await referral('forget-all@plans.test');
    const result = await paths((db) => forgetEmail(db, 'forget-all@plans.test', T0));
    expect(result.deleted).toEqual(['billing_customers', 'billing_links', 'clicks', 'events', 'notifications', 'referrals']);
    expect(result.keys).toEqual([]);
    expect(result.scans).toEqual([]);
  });
});

// On PostgreSQL clicks are partitioned by month (decision 0283): a page of the clicks list
// plans only the months its time range or its cursor can reach, by plan-time pruning (the
// planner is given the values: no named statement, no generic plan), so a page costs the
// same with two years of months as with one. Page 1 without a range reads every month's
// clicks_list index, newest first (a Merge Append: the DEFAULT partition may hold any time).
describeOnPostgres('a page of clicks reads only the months it needs (postgres)', () => {
  const DAY = 86_400;
  /** Clicks in the middle of four months: 2025-01 … 2025-04 (T0 is 2025-03-01 10:00 UTC). */
  const at = { jan: T0 - 45 * DAY, feb: T0 - 14 * DAY, mar: T0 + 14 * DAY, apr: T0 + 45 * DAY };
  const clickIds = new Map<string, string>();
  const clicksRoute = ROUTES.find((r) => r.method === 'get' && r.path === '/v1/clicks')!;

  beforeAll(async () => {
    // The start made 2025-03 … 2025-06; these are the months before it.
    await makeClickPartitions(c.running.db, T0 - 80 * DAY);
    const p = await seedPartner(c);
    const saved = c.clock.now;
    try {
      for (const [month, time] of Object.entries(at)) {
        c.clock.now = time;
        const gr = `prune-${month}`;
        expect((await call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id: gr, pk: p.key } })).status).toBe(202);
        const row = await c.running.db.get<{ id: string }>('SELECT id FROM clicks WHERE program_id = ? AND gr_id = ?', [c.programId, gr]);
        clickIds.set(month, row!.id);
      }
    } finally {
      c.clock.now = saved;
    }
  });

  /** The partitions the page's query reads, and the clicks it answered. */
  async function page(query: string): Promise<{ reads: string[]; ids: string[] }> {
    const { sent, body } = await handle(clicksRoute, {}, query);
    const list = sent.filter((s) => isPage(s.sql));
    expect(list).toHaveLength(1);
    const bad = list[0]!.plan.filter((n) => n.fullScan || n.sort);
    expect(bad.map((n) => n.line)).toEqual([]);
    const reads = [...new Set(list[0]!.plan.flatMap((n) => n.table ?? []))].sort();
    return { reads, ids: (body?.data ?? []).map((d: { id: string }) => d.id) };
  }

  it('a time range reads the months it spans, and no other', async () => {
    const feb = await page('created_at_gt=2025-02-01T00:00:00Z&created_at_lt=2025-02-28T00:00:00Z');
    expect(feb.reads).toEqual(['clicks_2025_02']);
    expect(feb.ids).toEqual([clickIds.get('feb')]);
    const two = await page('created_at_gt=2025-01-20T00:00:00Z&created_at_lt=2025-03-20T00:00:00Z');
    expect(two.reads).toEqual(['clicks_2025_01', 'clicks_2025_02', 'clicks_2025_03']);
  });

  it('a cursor page reads only the months on its side of the cursor', async () => {
    const after = await page(`starting_after=${clickIds.get('feb')}&per_page=10`);
    // Older than February's click: February and before, and DEFAULT (which may hold any time).
    expect(after.reads.filter((t) => t > 'clicks_2025_02' && t !== 'clicks_default')).toEqual([]);
    expect(after.reads).toContain('clicks_2025_02');
    expect(after.ids.slice(0, 1)).toEqual([clickIds.get('jan')]);
    const before = await page(`ending_before=${clickIds.get('feb')}&per_page=10`);
    expect(before.reads.filter((t) => t < 'clicks_2025_02')).toEqual([]);
    expect(before.reads).toContain('clicks_2025_02');
    expect(before.ids).toEqual(expect.arrayContaining([clickIds.get('apr'), clickIds.get('mar')]));
    expect(before.ids).not.toContain(clickIds.get('feb'));
    const window = await page(`starting_after=${clickIds.get('apr')}&created_at_gt=2025-02-01T00:00:00Z&per_page=10`);
    expect(window.reads).toEqual(['clicks_2025_02', 'clicks_2025_03', 'clicks_2025_04']);
    expect([window.ids[0], window.ids.at(-1)]).toEqual([clickIds.get('mar'), clickIds.get('feb')]);
  });
});
