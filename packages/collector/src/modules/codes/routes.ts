// Discounts and the partners' promotion codes (docs/codes.md).

import { z } from 'zod';
import { readRoutes } from '../../api/crud.js';
import { currency } from '../../api/fields.js';
import { route } from '../../api/route.js';
import { dateTime, oneOf, text, transformed } from '../../platform/http/list-query.js';
import { one } from '../../platform/http/schemas.js';
import { renderCode, renderDiscount } from './present.js';
import { codeSchema, discountSchema } from './schemas.js';
import * as codes from './repo.js';
import { codeNorm, createDiscount, linkStripePromotion, makeCode, switchCode } from './service.js';
import { found } from '../../platform/errors.js';
import { ownerCodeInShopify } from '../../flows/shopify-codes.js';

/** A Stripe promotion code's id. */
const promoId = z
  .string()
  .regex(/^promo_[A-Za-z0-9]{1,64}$/)
  .meta({ description: 'A Stripe promotion code id (promo_…)' });

const discountBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  group_id: z
    .string()
    .min(1)
    .max(64)
    .nullish()
    .meta({ description: "The partner group whose codes it is for; absent or null: the program's" }),
  kind: z.enum(['percent', 'amount']),
  amount: z
    .number()
    .int()
    .min(1)
    .max(1e12)
    .meta({ description: 'percent: basis points off (2000 is 20 %); amount: minor units of currency off' }),
  currency: currency.nullish().meta({ description: 'For an amount off' }),
  duration: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('once') }),
    z.strictObject({ kind: z.literal('months'), months: z.number().int().min(1).max(120) }),
    z.strictObject({ kind: z.literal('forever') }),
  ]),
});

export const codeRoutes = [
  ...readRoutes({
    plural: 'discounts',
    type: 'discount',
    get: codes.getDiscount,
    list: codes.discounts,
    render: renderDiscount,
    schema: discountSchema,
    filters: { group_id_eq: text, created_at_lt: dateTime, created_at_gt: dateTime },
  }),
  route({
    method: 'post',
    path: '/v1/discounts',
    summary: "Create a discount for a group's codes, or the program's",
    access: 'secret',
    body: discountBody,
    status: 201,
    response: one(discountSchema),
    async handle({ db, program, body, now }) {
      const row = await db.transaction((tx) => createDiscount(tx, program.id, body, now));
      return { status: 201, headers: { Location: `/v1/discounts/${row.id}` }, body: { data: renderDiscount(row) } };
    },
  }),
  ...readRoutes({
    plural: 'discount_codes',
    type: 'discount_code',
    get: codes.getCode,
    list: codes.codes,
    render: renderCode,
    schema: codeSchema,
    filters: {
      partnership_id_eq: text,
      partner_id_eq: text,
      discount_id_eq: text,
      code_eq: transformed('a code, compared whatever its case', codeNorm),
      enabled_eq: oneOf(['0', '1']),
      created_at_lt: dateTime,
      created_at_gt: dateTime,
    },
  }),
  route({
    method: 'post',
    path: '/v1/discount_codes',
    summary: 'Give a partnership a promotion code, unique in the program whatever its case',
    access: 'secret',
    body: z.strictObject({
      partnership_id: z.string().min(1).max(64),
      code: z.string().min(1).max(64).meta({ description: '3 to 32 ASCII letters, digits, - or _' }),
      discount_id: z.string().min(1).max(64).nullish(),
      stripe_promotion_code_id: promoId.nullish(),
    }),
    status: 201,
    response: one(codeSchema),
    async handle({ db, program, body, now, stripeApiUrl, platformApiUrls }) {
      await ownerCodeInShopify(db, program.id, body, now, platformApiUrls.shopify);
      const row = await makeCode(db, program, body, now, stripeApiUrl);
      return { status: 201, headers: { Location: `/v1/discount_codes/${row.id}` }, body: { data: renderCode(row) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/discount_codes/:id',
    summary: 'Disable a code (it credits nothing more) or enable it again; link it to its Stripe promotion code',
    access: 'secret',
    body: z.strictObject({ enabled: z.boolean().optional(), stripe_promotion_code_id: promoId.nullish() }),
    status: 200,
    response: one(codeSchema),
    async handle({ db, program, params, body, now, stripeApiUrl }) {
      const id = params.id ?? '';
      const promo = body.stripe_promotion_code_id;
      if (promo !== undefined) await db.transaction((tx) => linkStripePromotion(tx, program.id, id, promo, now));
      const row =
        body.enabled === undefined
          ? found(await codes.getCode(db, program.id, id), 'discount_code', id)
          : await switchCode(db, program, id, body.enabled, now, stripeApiUrl);
      return { status: 200, body: { data: renderCode(row) } };
    },
  }),
];
