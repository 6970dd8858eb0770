// Stripe (docs/stripe.md): the webhook Stripe posts to, the connection's settings, and
// the log of the events received.

import { z } from 'zod';
import { addSecret, connection, EVENTS_TO_SEND, removeSecret, secretHint, webhookPath } from './connect.js';
import { receiveEvent, reprocessEvent } from './events.js';
import { dateTime, oneOf, text } from '../../platform/http/list-query.js';
import type { Resource } from '../../platform/resource.js';
import { route } from '../../api/route.js';
import { one, resource, unixTime } from '../../platform/http/schemas.js';
import * as stripe from './repo.js';
import type { EventRow, SecretRow } from './repo.js';
import { readRoutes } from '../../api/crud.js';

/** Stripe's events are small, but an invoice with many lines is not 16 KiB. */
export const STRIPE_BODY_LIMIT = 512 * 1024;

const OUTCOMES = ['credited', 'linked', 'refunded', 'held', 'released', 'churned', 'ignored', 'failed'] as const;

const eventSchema = resource('stripe_event', {
  type: z.string(),
  livemode: z.boolean(),
  outcome: z.enum(OUTCOMES),
  reason: z.string().nullable(),
  touched: z.array(z.object({ type: z.string(), id: z.string() })),
  waiting_on: z.string().nullable(),
  attempts: z.number().int(),
  stripe_created_at: unixTime,
  received_at: unixTime,
  processed_at: unixTime,
});

function renderEvent(row: EventRow): Resource {
  return {
    id: row.id,
    type: 'stripe_event',
    attributes: {
      type: row.type,
      livemode: row.livemode === 1,
      outcome: row.outcome,
      reason: row.reason,
      touched: JSON.parse(row.touched) as unknown,
      waiting_on: row.waiting_on,
      attempts: Number(row.attempts),
      stripe_created_at: Number(row.stripe_created),
      received_at: Number(row.created_at),
      processed_at: Number(row.processed_at),
    },
  };
}

const secretSchema = resource('stripe_secret', { label: z.string(), hint: z.string(), created_at: unixTime });

function renderSecret(row: SecretRow): Resource {
  return { id: row.id, type: 'stripe_secret', attributes: { label: row.label, hint: secretHint(row.secret), created_at: row.created_at } };
}

const connectionSchema = resource('stripe_connection', {
  endpoint_url: z.string(),
  events: z.array(z.string()),
  secrets: z.array(secretSchema),
});

const received = z.object({ data: eventSchema, meta: z.object({ duplicate: z.boolean() }) });

export const stripeRoutes = [
  route({
    method: 'post',
    path: '/v1/integrations/stripe/webhook/:endpoint',
    summary: "Stripe's events for one program, verified by its signing secrets; each is processed once",
    access: 'public',
    webhookBodyLimit: STRIPE_BODY_LIMIT,
    status: 200,
    response: received,
    async handle({ db, params, raw, header, now }) {
      const { event, duplicate } = await receiveEvent(db, params.endpoint ?? '', raw, header('stripe-signature'), now);
      return { status: 200, body: { data: renderEvent(event), meta: { duplicate } } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/integrations/stripe',
    summary: "The program's Stripe connection: the webhook URL to enter in Stripe, the events to send, the signing secrets set",
    access: 'secret',
    status: 200,
    response: one(connectionSchema),
    async handle({ db, program, publicUrl }) {
      const { endpointId, secrets } = await connection(db, program.id);
      return {
        status: 200,
        body: {
          data: {
            id: program.id,
            type: 'stripe_connection',
            attributes: {
              endpoint_url: publicUrl + webhookPath(endpointId),
              events: EVENTS_TO_SEND,
              secrets: secrets.map(renderSecret),
            },
          },
        },
      };
    },
  }),
  route({
    method: 'post',
    path: '/v1/integrations/stripe/secrets',
    summary: "Add a Stripe endpoint's signing secret (whsec_…): events signed with it are accepted from now on",
    access: 'secret',
    body: z.strictObject({ secret: z.string().min(1).max(300), label: z.string().max(100).optional() }),
    status: 201,
    response: z.object({ data: secretSchema, meta: z.object({ endpoint_url: z.string() }) }),
    async handle({ db, program, body, publicUrl, now }) {
      const { endpointId, secret } = await addSecret(db, program.id, body.secret, body.label ?? '', now);
      return { status: 201, body: { data: renderSecret(secret), meta: { endpoint_url: publicUrl + webhookPath(endpointId) } } };
    },
  }),
  route({
    method: 'delete',
    path: '/v1/integrations/stripe/secrets/:id',
    summary: 'Remove a signing secret: events signed with it are refused from now on',
    access: 'secret',
    status: 204,
    async handle({ db, program, params }) {
      await removeSecret(db, program.id, params.id ?? '');
      return { status: 204 };
    },
  }),
  ...readRoutes({
    plural: 'integrations/stripe/events',
    type: 'stripe_event',
    get: stripe.getEvent,
    list: stripe.listEvents,
    render: renderEvent,
    schema: eventSchema,
    filters: { outcome_eq: oneOf([...OUTCOMES]), type_eq: text, created_at_lt: dateTime, created_at_gt: dateTime },
  }),
  route({
    method: 'post',
    path: '/v1/integrations/stripe/events/:id/process',
    summary: 'Process a received event again, as things are now (after linking a customer by hand, say)',
    access: 'secret',
    status: 200,
    response: received,
    async handle({ db, program, params, now }) {
      const { event, duplicate } = await reprocessEvent(db, program, params.id ?? '', now);
      return { status: 200, body: { data: renderEvent(event), meta: { duplicate } } };
    },
  }),
];
