// Invoices through the API (the dashboard's downloads) and the portal (the partner's own):
// another program's or another partner's invoice answers 404, as an unknown id does.

import { z } from 'zod';
import { route, type RouteInput } from '../../api/route.js';
import { readRoutes } from '../../api/crud.js';
import { reachedPartnership } from '../../flows/portal.js';
import type { AccountRow } from '../portal/repo.js';
import { text } from '../../platform/http/list-query.js';
import { listEnvelope } from '../../platform/http/render.js';
import { page, resource, unixTime } from '../../platform/http/schemas.js';
import * as invoices from './repo.js';
import type { InvoiceRow } from './model.js';
import { renderInvoice } from './present.js';
import { fileName, getInvoice, listInvoices, partnerInvoice, pdfOf } from './service.js';

const partySchema = z.object({ name: z.string(), address: z.string().nullable(), vat_id: z.string().nullable() });

export const invoiceSchema = resource('invoice', {
  number: z.number().int().meta({ description: "The program's invoice number: 1, 2, … without gaps" }),
  label: z.string().meta({ description: 'The number as printed: INV-<year paid>-<number>' }),
  partner_id: z.string(),
  payout_id: z.string().meta({ description: 'The payout (today: the payout batch) whose share of the partner it invoices' }),
  currency: z.string(),
  amount: z.number().int().meta({ description: "The total, in the currency's minor units" }),
  paid_at: unixTime,
  customer: partySchema.meta({ description: "The program's owner, who issues the invoice on the partner's behalf" }),
  supplier: partySchema.meta({ description: 'The partner' }),
  lines: z.array(z.object({ commission_id: z.string(), date: unixTime, description: z.string(), amount: z.number().int() })),
  created_at: unixTime,
});

function pdfReply(row: InvoiceRow, bytes: Buffer) {
  return {
    status: 200,
    headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${fileName(row)}"` },
    body: bytes,
  };
}

/** The partner's program and id, from one of their partnerships (the path's :id). */
async function reached(input: RouteInput<unknown>) {
  return reachedPartnership(input.db, (input.account as AccountRow).id, input.params.id ?? '');
}

export const invoiceRoutes = [
  ...readRoutes({
    plural: 'invoices',
    type: 'invoice',
    get: invoices.get,
    list: listInvoices,
    render: renderInvoice,
    schema: invoiceSchema,
    filters: { partner_id_eq: text, payout_id_eq: text },
  }),
  route({
    method: 'get',
    path: '/v1/invoices/:id/pdf',
    summary: 'The self-billing invoice as a PDF, the same bytes at every download',
    access: 'secret',
    status: 200,
    produces: 'application/pdf',
    async handle({ db, program, params }) {
      const row = await getInvoice(db, program.id, params.id ?? '');
      return pdfReply(row, await pdfOf(row));
    },
  }),
  route({
    method: 'get',
    path: '/v1/portal/partnerships/:id/invoices',
    summary: "The partnership's self-billing invoices, one per paid payout, newest first",
    access: 'partner',
    list: {},
    status: 200,
    response: page(invoiceSchema),
    async handle(input) {
      const p = await reached(input);
      const filters = [{ field: 'partner_id', op: 'eq' as const, value: p.partner_id }];
      return {
        status: 200,
        body: listEnvelope(await listInvoices(input.db, p.program_id, filters, input.list.page), input.list.page, renderInvoice),
      };
    },
  }),
  route({
    method: 'get',
    path: '/v1/portal/partnerships/:id/invoices/:invoice/pdf',
    summary: 'One of the partnership’s invoices as a PDF',
    access: 'partner',
    status: 200,
    produces: 'application/pdf',
    async handle(input) {
      const p = await reached(input);
      const row = await partnerInvoice(input.db, p.program_id, p.partner_id, input.params.invoice ?? '');
      return pdfReply(row, await pdfOf(row));
    },
  }),
];
