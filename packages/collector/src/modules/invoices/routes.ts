// Invoices and credit notes through the API (the dashboard's downloads) and the portal (the
// partner's own): another program's or another partner's answers 404, as an unknown id does.

import { z } from 'zod';
import { route, type RouteInput } from '../../api/route.js';
import { readRoutes } from '../../api/crud.js';
import { reachedPartnership } from '../../flows/portal.js';
import type { AccountRow } from '../portal/repo.js';
import { text } from '../../platform/http/list-query.js';
import { listEnvelope } from '../../platform/http/render.js';
import { page, resource, unixTime } from '../../platform/http/schemas.js';
import * as invoices from './repo.js';
import type { CreditNoteRow, InvoiceRow } from './model.js';
import { renderCreditNote, renderInvoice } from './present.js';
import {
  creditPdfOf,
  fileName,
  getCreditNote,
  getInvoice,
  listCreditNotes,
  listInvoices,
  partnerCreditNote,
  partnerInvoice,
  pdfOf,
} from './service.js';
import type { Queryable } from '../../platform/db/db.js';
import type { FieldFilter, Page, PageRequest } from '../../platform/db/list.js';
import type { ListSpec } from '../../platform/http/list-query.js';
import type { Resource } from '../../platform/resource.js';

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

const creditNoteSchema = resource('credit_note', {
  number: z.number().int().meta({ description: "The program's credit note number: 1, 2, … without gaps, apart from invoices'" }),
  label: z.string().meta({ description: 'The number as printed: CN-<year issued>-<number>' }),
  partner_id: z.string(),
  payout_id: z.string(),
  invoice_id: z.string().meta({ description: 'The invoice it corrects, which itself never changes' }),
  invoice_label: z.string(),
  cause: z.string().meta({ description: "What it credits, once: 'returned' (what was left of the invoice) or the provider's reversal id" }),
  reason: z.string(),
  currency: z.string(),
  amount: z.number().int().meta({ description: "What it takes back, negative, in the currency's minor units" }),
  issued_at: unixTime,
  customer: partySchema,
  supplier: partySchema,
  lines: z.array(z.object({ date: unixTime, description: z.string(), amount: z.number().int() })),
  created_at: unixTime,
});

function pdfReply(row: { label: string }, bytes: Buffer) {
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

interface Kind<T extends { label: string; partner_id: string }> {
  plural: string;
  type: string;
  /** The path's name of one in the portal's routes. */
  param: string;
  title: string;
  get(db: Queryable, programId: string, id: string): Promise<T | undefined>;
  find(db: Queryable, programId: string, id: string): Promise<T>;
  mine(db: Queryable, programId: string, partnerId: string, id: string): Promise<T>;
  list(db: Queryable, programId: string, filters: readonly FieldFilter[], page: PageRequest): Promise<Page<T>>;
  render(row: T): Resource;
  pdf(row: T): Promise<Buffer>;
  schema: z.ZodType;
  filters: ListSpec;
}

/** A kind of document's routes: the owner's reads and PDF, the partner's list and PDF (another's is a 404). */
function documentRoutes<T extends { label: string; partner_id: string }>(k: Kind<T>) {
  return [
    ...readRoutes({ plural: k.plural, type: k.type, get: k.get, list: k.list, render: k.render, schema: k.schema, filters: k.filters }),
    route({
      method: 'get',
      path: `/v1/${k.plural}/:id/pdf`,
      summary: `The ${k.title} as a PDF, the same bytes at every download`,
      access: 'secret',
      status: 200,
      produces: 'application/pdf',
      async handle({ db, program, params }) {
        const row = await k.find(db, program.id, params.id ?? '');
        return pdfReply(row, await k.pdf(row));
      },
    }),
    route({
      method: 'get',
      path: `/v1/portal/partnerships/:id/${k.plural}`,
      summary: `The partnership's ${k.title}s, newest first`,
      access: 'partner',
      list: {},
      status: 200,
      response: page(k.schema),
      async handle(input) {
        const p = await reached(input);
        const filters = [{ field: 'partner_id', op: 'eq' as const, value: p.partner_id }];
        return {
          status: 200,
          body: listEnvelope(await k.list(input.db, p.program_id, filters, input.list.page), input.list.page, k.render),
        };
      },
    }),
    route({
      method: 'get',
      path: `/v1/portal/partnerships/:id/${k.plural}/:${k.param}/pdf`,
      summary: `One of the partnership’s ${k.title}s as a PDF`,
      access: 'partner',
      status: 200,
      produces: 'application/pdf',
      async handle(input) {
        const p = await reached(input);
        const row = await k.mine(input.db, p.program_id, p.partner_id, input.params[k.param] ?? '');
        return pdfReply(row, await k.pdf(row));
      },
    }),
  ];
}

export const invoiceRoutes = [
  ...documentRoutes<InvoiceRow>({
    plural: 'invoices',
    type: 'invoice',
    param: 'invoice',
    title: 'self-billing invoice',
    get: invoices.get,
    find: getInvoice,
    mine: partnerInvoice,
    list: listInvoices,
    render: renderInvoice,
    pdf: pdfOf,
    schema: invoiceSchema,
    filters: { partner_id_eq: text, payout_id_eq: text },
  }),
  ...documentRoutes<CreditNoteRow>({
    plural: 'credit_notes',
    type: 'credit_note',
    param: 'note',
    title: 'self-billing credit note',
    get: invoices.getCreditNote,
    find: getCreditNote,
    mine: partnerCreditNote,
    list: listCreditNotes,
    render: renderCreditNote,
    pdf: creditPdfOf,
    schema: creditNoteSchema,
    filters: { partner_id_eq: text, payout_id_eq: text, invoice_id_eq: text },
  }),
];
