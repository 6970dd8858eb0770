import { z } from 'zod';
import { recordPayment, refundPayment } from '../../flows/payment.js';
import { dateTime, text } from '../../platform/http/list-query.js';
import { route } from '../../api/route.js';
import { one, relation, resource, unixTime } from '../../platform/http/schemas.js';
import * as payments from './repo.js';
import { commissionSchema } from '../commissions/schemas.js';
import { readRoutes } from '../../api/crud.js';
import { amount, countryCode, currency, discountCode, email, metadata } from '../../api/fields.js';
import { renderCommission } from '../commissions/present.js';
import { renderPayment } from './present.js';

export const paymentSchema = resource(
  'payment',
  {
    amount: z.number().int(),
    currency: z.string(),
    idempotency_key: z.string(),
    refunded: z.number().int().meta({ description: 'How much of the amount was refunded (or lost in a dispute), in minor units' }),
    paid_at: unixTime.meta({ description: 'When the customer paid: Stripe says when; else when it was recorded' }),
    created_at: unixTime,
    updated_at: unixTime,
  },
  { commission: relation('commission'), referral: relation('referral') },
);

const paymentBody = z.strictObject({
  amount: amount.min(1),
  currency,
  idempotency_key: z.string().min(1).max(255),
  referral_id: z.string().min(1).max(64).optional(),
  referral_email: email.optional(),
  referral_uid: z.string().min(1).max(255).optional(),
  product_id: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .meta({ description: "The product bought, for rewards with conditions on it (Stripe's prod_…, or your own id)" }),
  price_id: z.string().min(1).max(255).optional().meta({ description: 'The price bought, for rewards with conditions on it' }),
  customer_country: countryCode
    .optional()
    .meta({ description: "The customer's country, ISO 3166 alpha-2, for rewards with conditions on it" }),
  discount_code: discountCode.optional(),
  metadata: metadata.optional().meta({ description: 'Key-value pairs, for rewards with conditions on them; not stored' }),
});

export const paymentRoutes = [
  ...readRoutes({
    plural: 'payments',
    type: 'payment',
    get: payments.get,
    list: payments.list,
    render: renderPayment,
    schema: paymentSchema,
    filters: { referral_id_eq: text, created_at_lt: dateTime, created_at_gt: dateTime },
  }),
  route({
    method: 'post',
    path: '/v1/payments',
    summary: "Record a referred customer's payment; it earns the partner a pending commission",
    access: 'secret',
    body: paymentBody,
    status: 201,
    response: one(paymentSchema).extend({ included: z.array(commissionSchema) }),
    async handle({ db, program, body, now }) {
      const { payment, commission, created } = await recordPayment(db, program, body, now);
      return {
        status: created ? 201 : 200,
        headers: { Location: `/v1/payments/${payment.id}` },
        body: { data: renderPayment(payment), included: [renderCommission(commission)] },
      };
    },
  }),
  route({
    method: 'post',
    path: '/v1/refunds',
    summary: 'Refund a payment, whole or in part: its pending commission is reduced or rejected, a paid one clawed back',
    access: 'secret',
    body: z.strictObject({
      payment_id: z.string().min(1).max(255),
      amount_refunded: amount
        .optional()
        .meta({ description: 'How much of the payment is refunded in all, so far (a running total); the whole payment when absent' }),
    }),
    status: 200,
    response: one(commissionSchema).extend({ included: z.array(commissionSchema) }),
    async handle({ db, program, body, now }) {
      const { commission, clawbacks } = await refundPayment(db, program.id, body.payment_id, body.amount_refunded, now);
      return { status: 200, body: { data: renderCommission(commission), included: clawbacks.map(renderCommission) } };
    },
  }),
];
