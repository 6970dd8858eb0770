// The sweep of every write route (docs/audit.md): each route of the table that a person or
// a token calls is called once, by the caller its access names, and each answer is held to
// the log: a 2xx wrote exactly one entry, with the route's action and the request's id, and
// anything else wrote none. The routes left out are named, each with its reason.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../packages/collector/src/app.js';
import { auditPlan, exemption } from '../../packages/collector/src/api/audit-plan.js';
import type { Route } from '../../packages/collector/src/api/route.js';
import { seedPartner, startCollector, type Collector, type Reply } from './harness.js';
import { ownerSession, partnerPortal } from './session.js';
import { newSecret } from './stripe-fixtures.js';
import { newPaddleSecret } from './paddle-fixtures.js';
import { newLsSecret } from './lemonsqueezy-fixtures.js';
import { newCbSecret } from './chargebee-fixtures.js';
import { newRcSecret } from './recurly-fixtures.js';
import { newShopifySecret } from './shopify-fixtures.js';

let c: Collector;
beforeAll(async () => {
  c = await startCollector({ outbound: { allowHttp: true, allowPrivate: true } });
});
afterAll(async () => {
  await c?.close();
});

const writes = ROUTES.filter((r) => r.method !== 'get');
const key = (r: Route) => `${r.method} ${r.path}`;

/** The writes of a program's members that change nothing a log should hold. */
const CHANGE_NOTHING = ['post /v1/auth/factors/passkey/options', 'post /v1/auth/passkey/options', 'post /v1/groups/:id/preview'];

describe('the routes left out of the log', () => {
  it('are reads, tracking, webhooks, public routes, partners’ own accounts, a preview and a passkey’s start, nothing else', () => {
    const left = writes.filter((r) => exemption(r) !== undefined);
    for (const r of left) {
      const why = exemption(r) ?? '';
      const kind =
        r.access === 'publishable'
          ? 'tracking'
          : r.webhookBodyLimit
            ? 'webhook'
            : r.access === 'public'
              ? 'public'
              : r.access === 'partner'
                ? 'account'
                : key(r);
      expect(why.length, key(r)).toBeGreaterThan(10);
      expect(['tracking', 'webhook', 'public', 'account', ...CHANGE_NOTHING], key(r)).toContain(kind);
    }
    expect(
      left
        .filter((r) => r.access === 'secret' || r.access === 'session' || r.access === 'embed')
        .map(key)
        .sort(),
    ).toEqual(CHANGE_NOTHING);
    expect(writes.length - left.length).toBeGreaterThanOrEqual(95);
  });
});

/** Records of the program for the routes' ids, made before the sweep. */
async function fixtures() {
  const p = await seedPartner(c, { paypal_email: 'sweep@pay.test' });
  await c.call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id: 's1', pk: p.key } });
  const referral = (await c.call('POST', '/v1/tracking/conversion', { token: c.publishable, body: { email: 's@buyer.test', gr_id: 's1' } }))
    .body.data;
  const payment = (
    await c.call('POST', '/v1/payments', { body: { amount: 5000, currency: 'USD', referral_id: referral.id, idempotency_key: 'sweep-1' } })
  ).body;
  const group = (await c.call('POST', '/v1/groups', { body: { name: 'Sweep' } })).body.data;
  const reward = (
    await c.call('POST', `/v1/groups/${group.id}/rewards`, { body: { event: 'lead', kind: 'flat', amount: 100, currency: 'USD' } })
  ).body.data;
  const endpoint = (await c.call('POST', '/v1/webhook_endpoints', { body: { url: 'http://127.0.0.1:9/hook', enabled: false } })).body.data;
  const delivery = (await c.call('POST', `/v1/webhook_endpoints/${endpoint.id}/test`)).body.data;
  const token = (await c.call('POST', '/v1/tokens', { body: { kind: 'publishable' } })).body.data;
  const member = (await c.call('POST', '/v1/members', { body: { email: 'sweep-member@owners.test' } })).body.data;
  const resource = (await c.call('POST', '/v1/resources/copy', { body: { title: 'Sweep', body: 'Copy' } })).body.data;
  const bounty = (
    await c.call('POST', '/v1/bounties', {
      body: { name: 'Sweep', kind: 'submission', starts_at: 0, ends_at: 4e9, amount: 100, currency: 'USD' },
    })
  ).body.data;
  const lead = (await c.call('POST', '/v1/leads', { body: { partner_id: p.partnerId, name: 'Lead', email: 'lead@sweep.test' } })).body.data;
  const site = (await c.call('GET', '/v1/program')).body.data.attributes.site_url as string;
  const link = (await c.call('POST', '/v1/links', { body: { partnership_id: p.partnershipId, destination: new URL('/x', site).href } }))
    .body.data;
  const discount = (
    await c.call('POST', '/v1/discounts', { body: { name: 'Sweep', kind: 'percent', amount: 1000, duration: { kind: 'once' } } })
  ).body.data;
  const code = (
    await c.call('POST', '/v1/discount_codes', { body: { partnership_id: p.partnershipId, code: 'SWEEP', discount_id: discount.id } })
  ).body.data;
  await c.call('POST', `/v1/message_threads/${p.partnershipId}/messages`, { body: { body: 'Hello' } });
  const ids: Record<string, string | undefined> = {
    partners: p.partnerId,
    partnerships: p.partnershipId,
    groups: group?.id,
    rewards: reward?.id,
    discount_codes: code?.id,
    commissions: payment.included?.[0]?.id,
    referrals: referral.id,
    webhook_endpoints: endpoint.id,
    webhook_deliveries: delivery?.id,
    tokens: token?.id,
    members: member?.id,
    resources: resource?.id,
    bounties: bounty?.id,
    leads: lead?.id,
    links: link?.id,
    message_threads: p.partnershipId,
    'portal/partnerships': p.partnershipId,
  };
  return {
    p,
    ids,
    bounty: bounty.id as string,
    site,
    payment: payment.data.id as string,
    discount: discount?.id as string,
    referral: referral.id as string,
  };
}

type Fixtures = Awaited<ReturnType<typeof fixtures>>;

/** Bodies the routes accept, where an empty one is refused; the rest are sent `{}`. */
function bodyOf(r: Route, f: Fixtures, password: string): unknown {
  const secrets: Record<string, () => string> = {
    stripe: newSecret,
    paddle: newPaddleSecret,
    lemonsqueezy: newLsSecret,
    chargebee: newCbSecret,
    recurly: newRcSecret,
    shopify: newShopifySecret,
  };
  const platform = /^\/v1\/integrations\/(\w+)\/secrets$/.exec(r.path)?.[1];
  if (platform && r.method === 'post') return { secret: secrets[platform]?.() };
  const bodies: Record<string, unknown> = {
    'post /v1/partners': { name: 'Second partner', email: 'second@partners.test' },
    'post /v1/groups': { name: 'Second group' },
    'post /v1/groups/:id/rewards': { event: 'lead', kind: 'flat', amount: 150, currency: 'USD' },
    'post /v1/discounts': { name: 'Second', kind: 'percent', amount: 500, duration: { kind: 'once' } },
    'post /v1/discount_codes': { partnership_id: f.p.partnershipId, code: 'SWEEPTWO', discount_id: f.discount },
    'post /v1/commissions': { partner_id: f.p.partnerId, amount: 100, currency: 'USD' },
    'patch /v1/referrals/:id': { state: 'churned' },
    'post /v1/payments': { amount: 700, currency: 'USD', referral_id: f.referral, idempotency_key: 'sweep-2' },
    'post /v1/refunds': { payment_id: f.payment, amount_refunded: 100 },
    'post /v1/bounties': { name: 'Second', kind: 'submission', starts_at: 0, ends_at: 4e9, amount: 100, currency: 'USD' },
    'post /v1/tokens': { kind: 'publishable' },
    'post /v1/auth/password': { current_password: password, new_password: `${password} changed` },
    'post /v1/auth/program': { program_id: c.programId },
    'post /v1/members': { email: 'second-member@owners.test' },
    'patch /v1/members/:id': { role: 'admin' },
    'post /v1/webhook_endpoints': { url: 'http://127.0.0.1:9/second', enabled: false },
    'post /v1/embed_tokens': { user_id: 'second-user', name: 'Second', email: 'second-user@company.test' },
    'patch /v1/tax_forms/settings': { tax_form_required: false },
    'post /v1/leads': { partner_id: f.p.partnerId, name: 'Second lead', email: 'second-lead@sweep.test' },
    'patch /v1/leads/:id': { stage: 'qualified' },
    'post /v1/portal/partnerships/:id/leads': { name: 'Portal lead', email: 'portal-lead@sweep.test' },
    'post /v1/message_threads/:id/messages': { body: 'From the team' },
    'post /v1/portal/partnerships/:id/message_thread/messages': { body: 'From the partner' },
    'post /v1/embed/message_thread/messages': { body: 'From the embed' },
    'post /v1/broadcasts': { bodies: { en: 'To everyone' } },
    'post /v1/resources/copy': { title: 'Second copy', body: 'Words' },
    'patch /v1/resources/:id': { title: 'Renamed copy' },
    'post /v1/resources/order': { ids: [f.ids.resources] },
    'post /v1/links': { partnership_id: f.p.partnershipId, destination: new URL('/second', f.site).href },
    'patch /v1/links/:id': { status: 'disabled' },
    'post /v1/portal/partnerships/:id/links': { destination: new URL('/portal', f.site).href },
    'post /v1/portal/partnerships/:id/bounties/:bounty/submissions': { text: 'Done' },
  };
  return bodies[key(r)] ?? {};
}

/** The path with its parameters filled in from the program's records. */
function pathOf(r: Route, ids: Record<string, string | undefined>, bounty: string): string {
  const plural = r.path.slice('/v1/'.length, r.path.indexOf('/:id'));
  const id = ids[plural] ?? '01900000-0000-7000-8000-0000000000ff';
  return r.path.replace(':id', id).replace(':bounty', bounty).replace(':submission', '01900000-0000-7000-8000-0000000000fe');
}

describe('every write route a person or token calls', () => {
  it('writes one entry with its action when it succeeds, and none when it fails', async () => {
    const f = await fixtures();
    const { p, ids, bounty } = f;
    const owner = await ownerSession(c);
    const portal = await partnerPortal(c, c.secret, p.partnerId);
    const minted = await c.call('POST', '/v1/embed_tokens', {
      body: { user_id: 'sweep-user', name: 'Sweep', email: 'sweep-user@company.test' },
    });
    const embed = (await c.call('POST', '/v1/embed/sessions', { token: null, body: { token: minted.body.data.attributes.token } })).body
      .data.attributes.token as string;
    const audited = writes.filter((r) => exemption(r) === undefined);
    // Deletions and signing out last: the rest needs what they end.
    const last = (r: Route) => (r.method === 'delete' || r.path.endsWith('/sign_out') ? 1 : 0);
    audited.sort((a, b) => last(a) - last(b));
    const succeeded: string[] = [];
    let n = 0;
    for (const r of audited) {
      const requestId = `sweep-${++n}`;
      const headers = { 'x-request-id': requestId };
      const path = pathOf(r, ids, bounty);
      const opts = { headers, ...(r.body ? { body: bodyOf(r, f, owner.password) } : {}) };
      let reply: Reply;
      if (r.access === 'partner') {
        reply = await c.call(r.method.toUpperCase(), path, {
          ...opts,
          token: null,
          headers: { ...headers, cookie: portal.cookie, origin: c.url },
        });
      } else if (r.access === 'embed') reply = await c.call(r.method.toUpperCase(), path, { ...opts, token: embed });
      else if (r.access === 'session') reply = await owner.call(r.method.toUpperCase(), path, opts);
      else reply = await c.call(r.method.toUpperCase(), path, opts);
      const written = await c.running.db.all<{ action: string; program_id: string }>(
        'SELECT action, program_id FROM audit_events WHERE request_id = ?',
        [requestId],
      );
      if (reply.status < 300) {
        succeeded.push(key(r));
        expect(written, `${key(r)} answered ${reply.status}`).toEqual([{ action: auditPlan(r, ROUTES).action, program_id: c.programId }]);
      } else {
        expect(written, `${key(r)} answered ${reply.status}`).toEqual([]);
      }
    }
    // Most routes take an empty body or a bare call; those that refuse one were held to "none".
    expect(succeeded.length, succeeded.join('\n')).toBeGreaterThanOrEqual(55);
  });
});
