// Paying partners, as API calls the dashboard and scripts share with `tally payouts`:
// what is owed, an export (one batch per currency, holding its commissions), the batch's
// PayPal file, and the batch marked paid or cancelled. The rules are modules/payouts/service.ts's.

import { z } from 'zod';
import {
  cancelPayoutBatch,
  exportPayouts,
  getBatchSummary,
  listBatches,
  openBatch,
  owedNow,
  payBatch,
  payoutCsv,
  type Owed,
} from '../../flows/payout-run.js';
import { route } from '../../api/route.js';
import { one, resource, unixTime } from '../../platform/http/schemas.js';
import { currency } from '../../api/fields.js';
import { renderBatch } from './present.js';

const owedSchema = z.object({
  partner_id: z.string(),
  name: z.string(),
  paypal_email: z.string().nullable(),
  currency: z.string(),
  amount: z.number().int(),
  commissions: z.number().int(),
  minimum: z.number().int(),
  due: z.boolean(),
});

const renderOwed = (o: Owed) => ({
  partner_id: o.partnerId,
  name: o.name,
  paypal_email: o.paypalEmail,
  currency: o.currency,
  amount: o.amount,
  commissions: o.commissions,
  minimum: o.minimum,
  due: o.due,
});

const batchSchema = resource('payout_batch', {
  currency: z.string(),
  state: z.enum(['open', 'paid', 'cancelled']),
  amount: z.number().int(),
  commissions: z.number().int(),
  partners: z.number().int(),
  created_at: unixTime,
  paid_at: unixTime.optional(),
  cancelled_at: unixTime.optional(),
});

const skippedSchema = z.object({ partner_id: z.string(), name: z.string(), currency: z.string(), reason: z.string() });

export const payoutRoutes = [
  route({
    method: 'get',
    path: '/v1/payouts/owed',
    summary:
      'What each partner can be paid now, per currency, net of clawbacks: payable commissions of accepted partnerships that no open batch holds',
    access: 'secret',
    status: 200,
    response: z.object({ data: z.array(owedSchema) }),
    async handle({ db, program, now }) {
      return { status: 200, body: { data: (await owedNow(db, program.id, now)).map(renderOwed) } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/payout_batches',
    summary: 'Export what is owed: one batch per currency (or the one asked for), each holding its commissions until paid or cancelled',
    access: 'secret',
    body: z.strictObject({ currency: currency.optional() }),
    status: 201,
    response: z.object({ data: z.array(batchSchema), meta: z.object({ skipped: z.array(skippedSchema) }) }),
    async handle({ db, program, body, now }) {
      const result = await exportPayouts(db, program.id, body.currency ?? null, now);
      const batches = await Promise.all(result.batches.map((b) => getBatchSummary(db, program.id, b.id)));
      return {
        status: batches.length > 0 ? 201 : 200,
        body: {
          data: batches.map(renderBatch),
          meta: { skipped: result.skipped.map((s) => ({ partner_id: s.partnerId, name: s.name, currency: s.currency, reason: s.reason })) },
        },
      };
    },
  }),
  route({
    method: 'get',
    path: '/v1/payout_batches',
    summary: "The program's payout batches, newest first (the latest 200)",
    access: 'secret',
    status: 200,
    response: z.object({ data: z.array(batchSchema) }),
    async handle({ db, program }) {
      return { status: 200, body: { data: (await listBatches(db, program.id)).map(renderBatch) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/payout_batches/:id',
    summary: 'One payout batch with its totals',
    access: 'secret',
    status: 200,
    response: one(batchSchema),
    async handle({ db, program, params }) {
      return { status: 200, body: { data: renderBatch(await getBatchSummary(db, program.id, params.id ?? '')) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/payout_batches/:id/file',
    summary: "An open batch's file for PayPal's Payouts bulk upload, byte for byte as first exported",
    access: 'secret',
    status: 200,
    produces: 'text/csv',
    async handle({ db, program, params }) {
      const batch = await openBatch(db, params.id ?? '', program.id);
      return {
        status: 200,
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="tally-payouts-${batch.currency}-${batch.id}.csv"`,
        },
        body: payoutCsv(batch),
      };
    },
  }),
  route({
    method: 'post',
    path: '/v1/payout_batches/:id/paid',
    summary: 'Mark an open batch paid: exactly its commissions become paid, or nothing moves if any changed',
    access: 'secret',
    status: 200,
    response: one(batchSchema),
    async handle({ db, program, params, now }) {
      const id = params.id ?? '';
      await payBatch(db, program.id, id, now);
      return { status: 200, body: { data: renderBatch(await getBatchSummary(db, program.id, id)) } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/payout_batches/:id/cancel',
    summary: 'Cancel an open batch: its commissions are free for the next export',
    access: 'secret',
    status: 200,
    response: one(batchSchema),
    async handle({ db, program, params, now }) {
      const id = params.id ?? '';
      await cancelPayoutBatch(db, id, now, program.id);
      return { status: 200, body: { data: renderBatch(await getBatchSummary(db, program.id, id)) } };
    },
  }),
];
