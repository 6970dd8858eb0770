import { z } from 'zod';
import { createPartner, updatePartner } from './service.js';
import { erasePartner } from '../../flows/erasure.js';
import { text } from '../../platform/http/list-query.js';
import { present, type Resource } from '../../platform/resource.js';
import { route } from '../../api/route.js';
import { one, resource, unixTime } from '../../platform/http/schemas.js';
import * as partners from './repo.js';
import type { PartnerRow } from './repo.js';
import { readRoutes } from '../../api/crud.js';
import { billingIn, billingOut, email, emailFilter, partnerName } from '../../api/fields.js';
import { renderBilling } from '../../core/billing.js';
import { LOCALES } from '../../core/locale.js';

/**
 * Reditus's fields (docs/api.md §8.1) plus `email`, the account address the company gave: it was taken and
 * filterable but never shown, which left the owner unable to read it back. Clients ignore
 * attributes they do not know.
 */
export function renderPartner(row: PartnerRow): Resource {
  return {
    id: row.id,
    type: 'partner',
    attributes: present({
      name: row.name,
      email: row.email,
      paypal_email: row.paypal_email,
      locale: row.locale,
      ...renderBilling(row),
      created_at: row.created_at,
      updated_at: row.updated_at,
    }),
  };
}

export const partnerSchema = resource('partner', {
  name: z.string(),
  email: z.string(),
  paypal_email: z.string().optional(),
  locale: z
    .enum(LOCALES)
    .optional()
    .meta({ description: "The language the partner chose in the portal; absent: their browser's, else the program's `locale`" }),
  ...billingOut,
  created_at: unixTime,
  updated_at: unixTime,
});

const createBody = z.strictObject({ name: partnerName, email, paypal_email: email.nullish(), ...billingIn });
const updateBody = createBody.partial();

export const partnerRoutes = [
  ...readRoutes({
    plural: 'partners',
    type: 'partner',
    get: partners.get,
    list: partners.list,
    render: renderPartner,
    schema: partnerSchema,
    filters: { name_eq: text, email_eq: emailFilter, paypal_email_eq: emailFilter },
  }),
  route({
    method: 'post',
    path: '/v1/partners',
    summary: 'Create a partner',
    access: 'secret',
    body: createBody,
    status: 201,
    response: one(partnerSchema),
    async handle({ db, program, body, now }) {
      const row = await createPartner(db, program.id, body, now);
      return { status: 201, headers: { Location: `/v1/partners/${row.id}` }, body: { data: renderPartner(row) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/partners/:id',
    summary: 'Change a partner',
    access: 'secret',
    body: updateBody,
    status: 200,
    response: one(partnerSchema),
    async handle({ db, program, params, body, now }) {
      const row = await updatePartner(db, program.id, params.id ?? '', body, now);
      return { status: 200, body: { data: renderPartner(row) } };
    },
  }),
  route({
    method: 'delete',
    path: '/v1/partners/:id',
    summary: 'Delete a partner with no referrals or commissions, and its partnership',
    access: 'secret',
    status: 204,
    async handle({ db, program, params, now }) {
      // An erasure: the audit log keeps its entries about the partner without their data.
      await erasePartner(db, program.id, params.id ?? '', now);
      return { status: 204 };
    },
  }),
];
