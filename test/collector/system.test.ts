// The routes outside /v1: health, readiness and the OpenAPI document.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../packages/collector/src/app.js';
import { createLogger } from '../../packages/collector/src/platform/log.js';
import { openDatabase } from '../../packages/collector/src/platform/db/open.js';
import { expectError, startCollector, type Collector } from './harness.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(async () => {
  await c.close();
});

describe('health', () => {
  it('/healthz and /readyz answer without a token', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const reply = await c.call('GET', path, { token: null });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ status: 'ok' });
    }
  });

  it('/readyz fails when the database does not answer, /healthz does not', async () => {
    await c.running.db.close();
    const ready = await c.call('GET', '/readyz', { token: null });
    expectError(ready, 503, 'unavailable');
    expect(ready.headers.get('retry-after')).toBe('1');
    expect((await c.call('GET', '/healthz', { token: null })).status).toBe(200);
  });

  it('/readyz logs the cause of a failure once, not on every probe', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) });
    const db = openDatabase(c.databaseUrl);
    const app = createApp({ db, log: createLogger('warn', sink) }).callback();
    const server = createServer(app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      await db.close();
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`;
      for (let i = 0; i < 3; i++) expect((await fetch(url)).status).toBe(503);
      const notReady = lines.map((l) => JSON.parse(l)).filter((l) => /not ready/.test(l.msg));
      expect(notReady).toHaveLength(1);
      expect(notReady[0].cause).toMatch(/\w/);
      expect(notReady[0].cause).not.toBe('no cause given');
    } finally {
      server.close();
    }
  });
});

describe('/openapi.json', () => {
  // Written out by hand, not read from the route table the document is made from: a route
  // that is added, dropped or renamed must show here as a change to this list.
  const OPERATIONS = [
    // Issue 48, part 3: the audit log.
    'get /v1/audit_events',
    'get /v1/audit_events.csv',
    'get /v1/audit_events/{id}',
    // Issue 45: messages (threads for the team, the portal and the embed; broadcasts).
    'get /v1/broadcasts',
    'get /v1/broadcasts/{id}',
    'get /v1/embed/message_thread',
    'get /v1/embed/message_thread/messages',
    'get /v1/message_threads',
    'get /v1/message_threads/{id}',
    'get /v1/message_threads/{id}/messages',
    'get /v1/messages/unread',
    'get /v1/portal/partnerships/{id}/message_thread',
    'get /v1/portal/partnerships/{id}/message_thread/messages',
    'post /v1/broadcasts',
    'post /v1/embed/message_thread/messages',
    'post /v1/embed/message_thread/read',
    'post /v1/message_threads/{id}/messages',
    'post /v1/message_threads/{id}/read',
    'post /v1/portal/partnerships/{id}/message_thread/messages',
    'post /v1/portal/partnerships/{id}/message_thread/read',
    // Issue 45, parts 3 and 7: brand resources and program branding.
    'get /v1/resources',
    'post /v1/resources/files',
    'post /v1/resources/copy',
    'post /v1/resources/order',
    'get /v1/resources/{id}',
    'patch /v1/resources/{id}',
    'delete /v1/resources/{id}',
    'get /v1/resources/{id}/file',
    'get /v1/portal/partnerships/{id}/resources',
    'get /v1/portal/partnerships/{id}/resources/{resource}/file',
    'get /v1/embed/resources',
    'get /v1/embed/resources/{resource}/file',
    'get /v1/program/branding',
    'patch /v1/program/branding',
    'get /v1/public/brands/{program}/logo',
    // Issue 45: bounties.
    'get /v1/bounties',
    'post /v1/bounties',
    'get /v1/bounties/{id}',
    'patch /v1/bounties/{id}',
    'get /v1/bounties/{id}/submissions',
    'patch /v1/bounties/{id}/submissions/{submission}',
    'get /v1/portal/partnerships/{id}/bounties',
    'post /v1/portal/partnerships/{id}/bounties/{bounty}/submissions',
    // Issue 45: submitted leads.
    'get /v1/leads',
    'get /v1/leads/{id}',
    'patch /v1/leads/{id}',
    'post /v1/leads',
    'get /v1/portal/partnerships/{id}/leads',
    'post /v1/portal/partnerships/{id}/leads',
    // Issue 45, two-tier referrals.
    'get /v1/program/two_tier',
    'patch /v1/program/two_tier',
    'get /v1/partnerships/{id}/recruitment',
    'get /v1/portal/partnerships/{id}/recruitment',
    // Issue 45: partners' links and their QR codes.
    'get /v1/links',
    'post /v1/links',
    'get /v1/links/{id}',
    'patch /v1/links/{id}',
    'get /v1/links/{id}/stats',
    'get /v1/links/{id}/qr.svg',
    'get /v1/links/{id}/qr.png',
    'get /v1/link_settings',
    'patch /v1/link_settings',
    'get /v1/portal/partnerships/{id}/links',
    'post /v1/portal/partnerships/{id}/links',
    'get /v1/portal/partnerships/{id}/link_settings',
    'get /v1/portal/partnerships/{id}/links/{link_id}/stats',
    'get /v1/portal/partnerships/{id}/links/{link_id}/qr.svg',
    'get /v1/portal/partnerships/{id}/links/{link_id}/qr.png',
    'get /v1/go/{program_id}/{key}',
    // Issue 44: payout methods, tax forms, payout runs through PayPal, invoices.
    'get /v1/integrations/paypal',
    'get /v1/partners/{id}/payout_method',
    'get /v1/partners/{id}/tax_form',
    'get /v1/payout_runs',
    'get /v1/payout_runs/{id}',
    'get /v1/portal/partnerships/{id}/payout_method',
    'get /v1/portal/partnerships/{id}/payout_method/wise_requirements',
    'get /v1/portal/partnerships/{id}/tax_form',
    'get /v1/program/payout_settings',
    'get /v1/tax_forms',
    'get /v1/tax_forms/1099_nec',
    'get /v1/tax_forms/settings',
    'patch /v1/integrations/paypal',
    'patch /v1/program/payout_settings',
    'patch /v1/tax_forms/settings',
    'post /v1/integrations/paypal/webhook/{program}',
    'post /v1/integrations/wise/webhook/{program}',
    'post /v1/payout_runs',
    'post /v1/payout_runs/{id}/approve',
    'post /v1/payout_runs/{id}/refresh',
    'post /v1/payout_runs/{id}/retry',
    'post /v1/payout_runs/{id}/send',
    'post /v1/portal/partnerships/{id}/payout_method',
    'post /v1/portal/partnerships/{id}/payout_method/onboarding',
    'post /v1/portal/partnerships/{id}/payout_method/refresh',
    'post /v1/portal/partnerships/{id}/tax_form',
    'post /v1/portal/payout_method/confirm',
    'get /v1/commissions',
    'get /v1/commissions/export',
    'post /v1/commissions',
    'get /v1/commissions/{id}',
    'patch /v1/commissions/{id}',
    'get /v1/partners',
    'post /v1/partners',
    'get /v1/partners/{id}',
    'patch /v1/partners/{id}',
    'delete /v1/partners/{id}',
    'get /v1/partnerships',
    'post /v1/partnerships',
    'get /v1/partnerships/{id}',
    'patch /v1/partnerships/{id}',
    'get /v1/referrals',
    'get /v1/referrals/{id}',
    'patch /v1/referrals/{id}',
    'delete /v1/referrals/{id}',
    'get /v1/payments',
    'post /v1/payments',
    'get /v1/payments/{id}',
    'post /v1/refunds',
    'get /v1/clicks',
    'get /v1/clicks/{id}',
    'get /v1/program',
    'patch /v1/program',
    'get /v1/tokens',
    'post /v1/tokens',
    'delete /v1/tokens/{id}',
    'get /v1/payouts/owed',
    'post /v1/payout_batches',
    'get /v1/payout_batches',
    'get /v1/payout_batches/{id}',
    'get /v1/payout_batches/{id}/file',
    'post /v1/payout_batches/{id}/paid',
    'post /v1/payout_batches/{id}/cancel',
    'post /v1/tracking/conversion',
    'post /v1/tracking/click',
    'post /v1/auth/sign_in',
    'post /v1/auth/redeem',
    'get /v1/auth/session',
    'post /v1/auth/sign_out',
    'post /v1/auth/password',
    'patch /v1/auth/account',
    'post /v1/auth/program',
    'post /v1/auth/reset',
    'post /v1/auth/sign_in/second_factor',
    'post /v1/auth/sign_in/enrol',
    'post /v1/auth/sign_in/enrol/confirm',
    'post /v1/auth/sign_in/passkey/options',
    'post /v1/auth/sign_in/passkey',
    'post /v1/auth/factors/passkey/options',
    'post /v1/auth/factors/passkey',
    'post /v1/auth/passkey/options',
    'get /v1/auth/factors',
    'post /v1/auth/factors/totp',
    'post /v1/auth/factors/{id}/confirm',
    'post /v1/auth/factors/{id}/disable',
    'post /v1/auth/recovery_codes',
    'post /v1/auth/reauthenticate',
    'get /v1/team/settings',
    'patch /v1/team/settings',
    'get /v1/members',
    'post /v1/members',
    'get /v1/members/{id}',
    'patch /v1/members/{id}',
    'delete /v1/members/{id}',
    'get /v1/stats',
    'get /v1/stats/partners',
    'post /v1/integrations/stripe/webhook/{endpoint}',
    'get /v1/integrations/stripe',
    'post /v1/integrations/stripe/secrets',
    'delete /v1/integrations/stripe/secrets/{id}',
    'get /v1/integrations/stripe/events',
    'get /v1/integrations/stripe/events/{id}',
    'get /v1/invoices',
    'get /v1/invoices/{id}',
    'get /v1/invoices/{id}/pdf',
    'get /v1/credit_notes',
    'get /v1/credit_notes/{id}',
    'get /v1/credit_notes/{id}/pdf',
    'post /v1/integrations/stripe/events/{id}/process',
    'post /v1/integrations/paddle/webhook/{endpoint}',
    'get /v1/integrations/paddle',
    'post /v1/integrations/paddle/secrets',
    'delete /v1/integrations/paddle/secrets/{id}',
    'get /v1/integrations/paddle/events',
    'get /v1/integrations/paddle/events/{id}',
    'post /v1/integrations/paddle/events/{id}/process',
    'post /v1/integrations/lemonsqueezy/webhook/{endpoint}',
    'get /v1/integrations/lemonsqueezy',
    'post /v1/integrations/lemonsqueezy/secrets',
    'delete /v1/integrations/lemonsqueezy/secrets/{id}',
    'get /v1/integrations/lemonsqueezy/events',
    'get /v1/integrations/lemonsqueezy/events/{id}',
    'post /v1/integrations/lemonsqueezy/events/{id}/process',
    'post /v1/integrations/chargebee/webhook/{endpoint}',
    'get /v1/integrations/chargebee',
    'post /v1/integrations/chargebee/secrets',
    'delete /v1/integrations/chargebee/secrets/{id}',
    'get /v1/integrations/chargebee/events',
    'get /v1/integrations/chargebee/events/{id}',
    'post /v1/integrations/chargebee/events/{id}/process',
    'post /v1/integrations/chargebee/credential',
    'delete /v1/integrations/chargebee/credential',
    'post /v1/integrations/recurly/webhook/{endpoint}',
    'get /v1/integrations/recurly',
    'post /v1/integrations/recurly/secrets',
    'delete /v1/integrations/recurly/secrets/{id}',
    'post /v1/integrations/recurly/credential',
    'delete /v1/integrations/recurly/credential',
    'get /v1/integrations/recurly/events',
    'get /v1/integrations/recurly/events/{id}',
    'post /v1/integrations/recurly/events/{id}/process',
    'post /v1/integrations/shopify/webhook/{endpoint}',
    'get /v1/integrations/shopify',
    'post /v1/integrations/shopify/secrets',
    'delete /v1/integrations/shopify/secrets/{id}',
    'get /v1/integrations/shopify/events',
    'get /v1/integrations/shopify/events/{id}',
    'post /v1/integrations/shopify/events/{id}/process',
    'post /v1/integrations/shopify/credential',
    'delete /v1/integrations/shopify/credential',
    'get /v1/referrals/{id}/evidence',
    'post /v1/review_decisions',
    'get /v1/review_decisions',
    'get /v1/review_decisions/{id}',
    'get /v1/billing_events',
    'get /v1/billing_events/{id}',
    'post /v1/billing_events/{id}/process',
    'get /v1/public/programs/{slug}',
    'post /v1/public/programs/{slug}/applications',
    'post /v1/partners/{id}/invitation',
    'post /v1/portal/auth/sign_in',
    'post /v1/portal/auth/sign_in/second_factor',
    'post /v1/portal/auth/sign_in/passkey/options',
    'post /v1/portal/auth/sign_in/passkey',
    'post /v1/portal/auth/factors/passkey/options',
    'post /v1/portal/auth/factors/passkey',
    'post /v1/portal/auth/passkey/options',
    'get /v1/portal/auth/factors',
    'post /v1/portal/auth/factors/totp',
    'post /v1/portal/auth/factors/{id}/confirm',
    'post /v1/portal/auth/factors/{id}/disable',
    'post /v1/portal/auth/recovery_codes',
    'post /v1/portal/auth/reauthenticate',
    'post /v1/portal/auth/reset',
    'post /v1/portal/auth/redeem',
    'post /v1/portal/auth/sign_out',
    'post /v1/portal/auth/password',
    'get /v1/portal/account',
    'patch /v1/portal/account',
    'get /v1/portal/partnerships',
    'get /v1/portal/partnerships/{id}',
    'get /v1/portal/partnerships/{id}/stats',
    'get /v1/portal/partnerships/{id}/referrals',
    'get /v1/portal/partnerships/{id}/commissions',
    'get /v1/portal/partnerships/{id}/payouts',
    'get /v1/portal/partnerships/{id}/codes',
    'get /v1/portal/partnerships/{id}/invoices',
    'get /v1/portal/partnerships/{id}/invoices/{invoice}/pdf',
    'get /v1/portal/partnerships/{id}/credit_notes',
    'get /v1/portal/partnerships/{id}/credit_notes/{note}/pdf',
    'post /v1/portal/partnerships/{id}/codes',
    'get /v1/webhook_endpoints',
    'post /v1/webhook_endpoints',
    'get /v1/webhook_endpoints/{id}',
    'patch /v1/webhook_endpoints/{id}',
    'delete /v1/webhook_endpoints/{id}',
    'post /v1/webhook_endpoints/{id}/rotate_secret',
    'post /v1/webhook_endpoints/{id}/test',
    'get /v1/webhook_endpoints/{id}/deliveries',
    'get /v1/webhook_deliveries/{id}',
    'post /v1/webhook_deliveries/{id}/resend',
    'get /v1/events',
    'get /v1/events/{id}',
    'get /v1/groups',
    'post /v1/groups',
    'get /v1/groups/{id}',
    'patch /v1/groups/{id}',
    'delete /v1/groups/{id}',
    'post /v1/groups/{id}/rewards',
    'post /v1/groups/{id}/preview',
    'get /v1/rewards',
    'get /v1/rewards/{id}',
    'patch /v1/rewards/{id}',
    'delete /v1/rewards/{id}',
    'get /v1/group_moves',
    'get /v1/group_moves/{id}',
    'get /v1/discounts',
    'post /v1/discounts',
    'get /v1/discounts/{id}',
    'get /v1/discount_codes',
    'post /v1/discount_codes',
    'get /v1/discount_codes/{id}',
    'patch /v1/discount_codes/{id}',
    'get /v1/notifications/preferences',
    'patch /v1/notifications/preferences',
    'get /v1/notifications/unsubscribe',
    'post /v1/notifications/unsubscribe',
    'get /v1/portal/notifications',
    'patch /v1/portal/notifications',
    'post /v1/embed_tokens',
    'post /v1/embed/sessions',
    'get /v1/embed/partnership',
    'get /v1/embed/stats',
    'get /v1/embed/codes',
    'get /v1/embed/account',
    'patch /v1/embed/account',
    'get /v1/embed/payout_method',
    'post /v1/embed/payout_method',
    'post /v1/embed/payout_method/onboarding',
    'post /v1/embed/payout_method/refresh',
    'get /v1/embed/payout_method/wise_requirements',
    'get /v1/embed/tax_form',
    'post /v1/embed/tax_form',
  ];

  it('is an OpenAPI 3.1 document of every /v1 operation, needing no token', async () => {
    const reply = await c.call('GET', '/openapi.json', { token: null });
    expect(reply.status).toBe(200);
    const doc = reply.body;
    expect(doc.openapi).toBe('3.1.0');
    const documented = Object.entries(doc.paths as Record<string, object>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method} ${path}`),
    );
    expect(documented.sort()).toEqual([...OPERATIONS].sort());
  });

  it('documents only operations the server answers', async () => {
    const doc = (await c.call('GET', '/openapi.json', { token: null })).body;
    for (const [path, ops] of Object.entries(doc.paths as Record<string, object>)) {
      for (const method of Object.keys(ops)) {
        const reply = await c.call(method.toUpperCase(), path.replace('{id}', '01900000-0000-7000-8000-000000000000'), { token: null });
        // No token: every documented operation exists, so it is 401, never 404 or 405;
        // signing in needs no token, and a request without a JSON body is told so.
        const open = (ops as Record<string, { security: unknown[] }>)[method]?.security.length === 0;
        // A public page that does not exist is the page's own 404, not the router's.
        if (path === '/v1/notifications/unsubscribe')
          expect(reply.status, `${method} ${path}`).toBe(400); // its token is the query's
        else if (path === '/v1/go/{program_id}/{key}') expect(reply.body.errors[0].detail, path).toMatch(/^no active link/);
        else if (open && method === 'get') expect(reply.body.errors[0].detail, path).toMatch(/^no program page|^no logo for program/);
        // "Am I signed in?" is answered, not refused: data is null.
        else if (['/v1/auth/session', '/v1/portal/account'].includes(path) && method === 'get')
          expect(reply.body, path).toEqual({ data: null });
        else expect(reply.status, `${method} ${path}`).toBe(open ? 415 : 401);
      }
    }
  });

  it('describes every success answer: a JSON schema, or the file type, or no body (204, a redirect)', async () => {
    const doc = (await c.call('GET', '/openapi.json', { token: null })).body;
    const undescribed: string[] = [];
    let schemas = 0;
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(ops)) {
        const [status, success] = Object.entries(op.responses as Record<string, any>).find(([s]) => /^[23]/.test(s)) ?? [];
        const content = success?.content ?? {};
        if (content['application/json']?.schema?.type === 'object') schemas++;
        else if (
          !['text/csv', 'text/html', 'application/pdf', 'application/octet-stream', 'image/svg+xml', 'image/png'].some((t) => content[t]) &&
          !['204', '302'].includes(status ?? '')
        )
          undescribed.push(`${method} ${path}`);
      }
    }
    expect(undescribed).toEqual([]);
    expect(schemas).toBeGreaterThanOrEqual(39);
  });

  it('describes bodies from the validating schemas and lists from their filters', async () => {
    const doc = (await c.call('GET', '/openapi.json', { token: null })).body;
    const conversion = doc.paths['/v1/tracking/conversion'].post;
    const schema = conversion.requestBody.content['application/json'].schema;
    expect(schema.required.sort()).toEqual(['email', 'gr_id']);
    expect(schema.properties.gr_id).toMatchObject({ type: 'string', minLength: 1, maxLength: 128 });
    expect(schema.properties.uid.anyOf ?? [schema.properties.uid]).toContainEqual(expect.objectContaining({ maxLength: 255 }));
    expect(conversion.security).toContainEqual({ publishableToken: [] });
    const listNames = doc.paths['/v1/commissions'].get.parameters.map((p: { name: string }) => p.name);
    expect(listNames).toEqual([
      'state_eq',
      'review_eq',
      'partner_id_eq',
      'created_at_lt',
      'created_at_gt',
      'state_set_at_lt',
      'state_set_at_gt',
      'page',
      'starting_after',
      'ending_before',
      'per_page',
    ]);
    const perPage = doc.paths['/v1/partners'].get.parameters.find((p: { name: string }) => p.name === 'per_page');
    expect(perPage.schema).toMatchObject({ maximum: 50, default: 25 });
  });
});
