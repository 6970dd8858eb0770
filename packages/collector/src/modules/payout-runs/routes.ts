// Payout runs over the API (docs/payouts.md, "Payout runs"): make one (an admin), approve it
// (an owner), send it, retry what failed, read it with its items; the program's PayPal
// credentials; PayPal's webhooks. The rules are flows/payout-send.ts's.

import { z } from 'zod';
import { approveRun, ITEMS_SHOWN, makeRun, paypalWebhook, refreshRun, retryRun, runWithItems, sendRun } from '../../flows/payout-send.js';
import { wiseWebhook } from '../../flows/payout-wise.js';
import { route, type RouteInput } from '../../api/route.js';
import { one, resource, unixTime } from '../../platform/http/schemas.js';
import { itemCounts, listRuns, paypalAccount, savePaypalAccount } from './repo.js';
import { renderItem, renderRun } from './present.js';
import type { Db } from '../../platform/db/db.js';
import { documentsOf } from '../invoices/service.js';

const nullableTime = unixTime.nullable();
const itemSchema = resource('payout', {
  run_id: z.string(),
  partner_id: z.string(),
  currency: z.string(),
  amount: z.number().int().meta({ description: "Minor units of the currency: the sum of the payout's commissions" }),
  method: z.string(),
  address: z.string(),
  state: z.enum(['pending', 'processing', 'paid', 'failed', 'returned']),
  provider_batch_id: z.string().nullable(),
  provider_item_id: z.string().nullable(),
  provider_fee: z
    .number()
    .int()
    .nullable()
    .meta({ description: "What the provider charges the program for it, in minor units, apart from the partner's amount (Wise)" }),
  amount_reversed: z
    .number()
    .int()
    .meta({ description: 'Minor units the provider took back after paying it (Stripe reversals); the whole amount once returned by one' }),
  reason: z.string().nullable().meta({ description: 'Why it failed or came back, as the provider said' }),
  state_set_at: unixTime,
  created_at: unixTime,
});
const runSchema = resource('payout_run', {
  provider: z.string(),
  state: z.enum(['draft', 'approved', 'sent']),
  attempt: z.number().int(),
  items: z.record(z.string(), z.number().int()).meta({ description: 'How many items are in each state' }),
  created_by: z.string(),
  approved_by: z.string().nullable(),
  created_at: unixTime,
  approved_at: nullableTime,
  sent_at: nullableTime,
});
const documentSchema = z.object({
  payout_id: z.string(),
  type: z.enum(['invoice', 'credit_note']),
  id: z.string().meta({ description: 'Its id under /v1/invoices or /v1/credit_notes' }),
  label: z.string(),
});
const runWithItemsSchema = z.object({ data: runSchema, included: z.array(itemSchema) });
const skippedSchema = z.object({ partner_id: z.string(), name: z.string(), currency: z.string(), amount: z.string(), reason: z.string() });
const paypalSchema = z.object({
  data: z.object({
    client_id: z.string().nullable(),
    client_secret_hint: z.string().nullable(),
    webhook_id: z.string().nullable(),
    webhook_url: z.string(),
    environment: z
      .enum(['live', 'sandbox', 'other'])
      .meta({ description: "Which PayPal this server calls (PAYPAL_API_URL): the credentials must be a REST app's of the same" }),
    api_url: z.string(),
  }),
});

/** The server's PAYPAL_API_URL as PayPal names its environments; `other` is a test's local server. */
const environmentOf = (url: string) =>
  url === 'https://api-m.paypal.com' ? 'live' : url === 'https://api-m.sandbox.paypal.com' ? 'sandbox' : 'other';

const whoIs = (input: Pick<RouteInput<unknown>, 'session'>) => (input.session ? `user ${input.session.user_id}` : 'a secret token');

async function shown(db: Db, programId: string, id: string, page = 1) {
  const { run, counts, items } = await runWithItems(db, programId, id, page);
  return { status: 200, body: { data: renderRun(run, counts), included: items.map(renderItem) } };
}

const apisOf = (i: RouteInput<unknown>) => ({ paypal: i.paypalApiUrl, stripe: i.stripeApiUrl, wise: i.wiseApiUrl });
const eventSchema = z.object({ data: z.object({ duplicate: z.boolean(), applied: z.boolean() }) });

/** A provider's webhook for one program (its id in the path), answered with whether the event was new and moved a payout. */
const providerWebhook = (
  provider: string,
  summary: string,
  limit: number,
  apply: (input: RouteInput<unknown>, program: string) => Promise<{ duplicate: boolean; applied: boolean }>,
) =>
  route({
    method: 'post',
    path: `/v1/integrations/${provider}/webhook/:program`,
    summary,
    access: 'public',
    webhookBodyLimit: limit,
    status: 200,
    response: eventSchema,
    handle: async (input) => ({ status: 200, body: { data: await apply(input, input.params.program ?? '') } }),
  });

const byId = (verb: string, summary: string, role: 'owner' | 'admin', act: (input: RouteInput<unknown>, id: string) => Promise<unknown>) =>
  route({
    method: 'post',
    path: `/v1/payout_runs/:id/${verb}`,
    summary,
    access: 'secret',
    role,
    status: 200,
    response: runWithItemsSchema,
    async handle(input) {
      const id = input.params.id ?? '';
      await act(input, id);
      return shown(input.db, input.program.id, id);
    },
  });

export const payoutRunRoutes = [
  route({
    method: 'post',
    path: '/v1/payout_runs',
    summary: 'Make a draft payout run of what is payable now: one payout per partner and currency, holding its commissions',
    access: 'secret',
    role: 'admin',
    status: 201,
    response: runWithItemsSchema.extend({ meta: z.object({ skipped: z.array(skippedSchema) }) }),
    async handle(input) {
      const made = await makeRun(input.db, input.program.id, whoIs(input), input.now);
      const skipped = made.skipped.map((s) => ({
        partner_id: s.partnerId,
        name: s.name,
        currency: s.currency,
        amount: s.amount,
        reason: s.reason,
      }));
      const { body } = await shown(input.db, input.program.id, made.run.id);
      return { status: 201, body: { ...body, meta: { skipped } } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/payout_runs',
    summary: "The program's payout runs, newest first (the latest 200)",
    access: 'secret',
    status: 200,
    response: z.object({ data: z.array(runSchema) }),
    async handle({ db, program }) {
      const list = await listRuns(db, program.id);
      const data = await Promise.all(list.map(async (r) => renderRun(r, await itemCounts(db, r.id))));
      return { status: 200, body: { data } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/payout_runs/:id',
    summary: `One payout run with its payouts (included, ${ITEMS_SHOWN} a page), and each shown paid payout's invoice and credit notes (meta.documents)`,
    access: 'secret',
    query: z.strictObject({
      page: z.coerce
        .number()
        .int()
        .min(1)
        .max(1_000_000)
        .default(1)
        .meta({ description: `Which ${ITEMS_SHOWN} of its payouts to include, from 1; data.attributes.items counts them all` }),
    }),
    status: 200,
    response: runWithItemsSchema.extend({ meta: z.object({ documents: z.array(documentSchema) }) }),
    async handle({ db, program, params, query }) {
      const answer = await shown(db, program.id, params.id ?? '', query.page);
      const documents = await documentsOf(
        db,
        program.id,
        answer.body.included.map((i) => i.id),
      );
      return { ...answer, body: { ...answer.body, meta: { documents } } };
    },
  }),
  byId('approve', 'Approve a draft payout run (owners only); it can then be sent', 'owner', (i, id) =>
    approveRun(i.db, i.program.id, id, whoIs(i), i.now),
  ),
  byId('send', 'Send an approved run to PayPal, one batch per currency; on a sent run, resume what was never answered', 'admin', (i, id) =>
    sendRun(i.db, i.program.id, id, apisOf(i), i.now),
  ),
  byId('retry', "Send a run's failed payouts again, as a new batch; nothing else is sent", 'admin', (i, id) =>
    retryRun(i.db, i.program.id, id, apisOf(i), i.now),
  ),
  byId('refresh', "Read the run's PayPal batches and Wise transfers again and apply what changed (a missed webhook)", 'admin', (i, id) =>
    refreshRun(i.db, i.program.id, id, apisOf(i), i.now),
  ),
  route({
    method: 'get',
    path: '/v1/integrations/paypal',
    summary: "The program's PayPal REST credentials for payout runs (the secret shown by its end only) and its webhook URL",
    access: 'secret',
    status: 200,
    response: paypalSchema,
    async handle({ db, program, publicUrl, paypalApiUrl }) {
      const a = await paypalAccount(db, program.id);
      return {
        status: 200,
        body: {
          data: {
            client_id: a?.client_id ?? null,
            client_secret_hint: a ? `…${a.client_secret.slice(-4)}` : null,
            webhook_id: a?.webhook_id ?? null,
            webhook_url: `${publicUrl}/v1/integrations/paypal/webhook/${program.id}`,
            environment: environmentOf(paypalApiUrl),
            api_url: paypalApiUrl,
          },
        },
      };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/integrations/paypal',
    summary: "Set the program's PayPal REST app credentials and the id of the webhook made for the URL GET shows (owners only)",
    access: 'secret',
    role: 'owner',
    body: z.strictObject({
      client_id: z.string().min(1).max(200),
      client_secret: z.string().min(1).max(200),
      webhook_id: z.string().min(1).max(100).nullable(),
    }),
    status: 200,
    response: one(z.object({ client_id: z.string(), webhook_id: z.string().nullable() })),
    async handle({ db, program, body, now }) {
      await savePaypalAccount(db, {
        program_id: program.id,
        client_id: body.client_id,
        client_secret: body.client_secret,
        webhook_id: body.webhook_id,
        updated_at: now,
      });
      return { status: 200, body: { data: { client_id: body.client_id, webhook_id: body.webhook_id } } };
    },
  }),
  providerWebhook(
    'paypal',
    "PayPal's payout item events for one program, verified by PayPal's certificate signature; each is applied once",
    512 * 1024,
    (i, program) => paypalWebhook(i.db, program, i.raw, i.header, i.paypalApiUrl, i.now),
  ),
  providerWebhook(
    'wise',
    "Wise's transfers#state-change events for one program, verified by Wise's X-Signature-SHA256; each state applied once",
    64 * 1024,
    (i, program) => wiseWebhook(i.db, program, i.raw, i.header, i.wiseWebhookPublicKey, i.now),
  ),
];
