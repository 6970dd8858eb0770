// Outgoing webhooks (docs/webhooks.md): a program's endpoints, their deliveries and
// attempts, and the events of the last 30 days.

import { z } from 'zod';
import { found } from '../../platform/errors.js';
import { EVENT_TYPES, EVENTS_KEPT_SECONDS } from '../../events/types.js';
import {
  ALL_EVENT_TYPES,
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  resend,
  rotateSecret,
  sendTestEvent,
  signingSecretHint,
  updateEndpoint,
} from './service.js';
import { dateTime, oneOf } from '../../platform/http/list-query.js';
import { listEnvelope } from '../../platform/http/render.js';
import { present, type Resource } from '../../platform/resource.js';
import { route } from '../../api/route.js';
import { one, page, relation, resource, unixTime } from '../../platform/http/schemas.js';
import * as events from '../../events/repo.js';
import type { EventRow } from '../../events/repo.js';
import * as webhooks from './repo.js';
import type { AttemptRow, DeliveryRow, EndpointRow } from './repo.js';

const endpointSchema = resource('webhook_endpoint', {
  url: z.string(),
  description: z.string(),
  event_types: z.array(z.string()).meta({ description: 'The event types sent; empty: every type' }),
  enabled: z.boolean(),
  disabled_reason: z
    .string()
    .optional()
    .meta({ description: 'Why Tally stopped sending (410 Gone, 5 days of failures) or that its owner did' }),
  secret: z.string().optional().meta({ description: 'The signing secret, only in the answer that made it' }),
  secret_hint: z.string(),
  previous_secret_until: unixTime.optional().meta({ description: 'Until when the secret before the last rotation still signs too' }),
  failing_since: unixTime.optional().meta({ description: 'When the current run of failed attempts began' }),
  created_at: unixTime,
  updated_at: unixTime,
});

function renderEndpoint(row: EndpointRow, now: number, secretShown = false): Resource {
  const overlap = row.previous_secret_until !== null && Number(row.previous_secret_until) > now ? Number(row.previous_secret_until) : null;
  return {
    id: row.id,
    type: 'webhook_endpoint',
    attributes: present({
      url: row.url,
      description: row.description,
      event_types: JSON.parse(row.event_types) as string[],
      enabled: Number(row.enabled) === 1,
      disabled_reason: Number(row.enabled) === 1 ? null : (row.disabled_reason ?? 'disabled by its owner'),
      secret: secretShown ? row.secret : null,
      secret_hint: signingSecretHint(row.secret),
      previous_secret_until: overlap,
      failing_since: row.failing_since === null ? null : Number(row.failing_since),
      created_at: Number(row.created_at),
      updated_at: Number(row.updated_at),
    }),
  };
}

const attemptSchema = z.object({
  attempted_at: unixTime,
  status: z.number().int().nullable(),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
  response: z.string().meta({ description: 'The first bytes of the answer' }),
});

const deliverySchema = resource(
  'webhook_delivery',
  {
    event_id: z.string(),
    event_type: z.string(),
    state: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.number().int(),
    next_attempt_at: unixTime.optional().meta({ description: 'While pending: when it is tried next' }),
    last_status: z.number().int().optional(),
    last_error: z.string().optional(),
    attempt_log: z.array(attemptSchema).optional().meta({ description: 'Every attempt, oldest first; only when one delivery is read' }),
    created_at: unixTime,
    updated_at: unixTime,
  },
  { webhook_endpoint: relation('webhook_endpoint') },
);

function renderAttempt(a: AttemptRow) {
  return {
    attempted_at: Number(a.attempted_at),
    status: a.status,
    duration_ms: Number(a.duration_ms),
    error: a.error,
    response: a.response,
  };
}

function renderDelivery(row: DeliveryRow, attempts?: AttemptRow[]): Resource {
  return {
    id: row.id,
    type: 'webhook_delivery',
    attributes: present({
      event_id: row.event_id,
      event_type: row.event_type,
      state: row.state,
      attempts: Number(row.attempts),
      next_attempt_at: row.state === 'pending' ? Number(row.next_attempt_at) : null,
      last_status: row.last_status,
      last_error: row.last_error,
      attempt_log: attempts?.map(renderAttempt),
      created_at: Number(row.created_at),
      updated_at: Number(row.updated_at),
    }),
    relationships: { webhook_endpoint: { data: { id: row.endpoint_id, type: 'webhook_endpoint' } } },
  };
}

const eventSchema = resource('event', {
  type: z.string(),
  created_at: unixTime,
  data: z.object({ id: z.string(), type: z.string() }).loose().meta({ description: 'The record as the API shows it' }),
});

function renderEvent(row: EventRow): Resource {
  return {
    id: row.id,
    type: 'event',
    attributes: { type: row.type, created_at: Number(row.created_at), data: JSON.parse(row.data) as unknown },
  };
}

const eventTypes = z.array(z.enum(EVENT_TYPES)).max(EVENT_TYPES.length);
const endpointBody = z.strictObject({
  url: z.string().min(1).max(2048),
  event_types: eventTypes.optional().meta({ description: 'The event types to send; empty or absent: every type' }),
  description: z.string().max(500).optional(),
  enabled: z.boolean().optional(),
});
const endpointChanges = endpointBody.partial();

const endpointId = (params: Record<string, string>): string => params.id ?? '';

export const webhookRoutes = [
  route({
    method: 'get',
    path: '/v1/webhook_endpoints',
    summary: "List the program's webhook endpoints, newest first",
    access: 'secret',
    list: {},
    status: 200,
    response: page(endpointSchema),
    async handle({ db, program, list, now }) {
      const listed = await webhooks.listEndpoints(db, program.id, list.filters, list.page);
      return { status: 200, body: listEnvelope(listed, list.page, (row) => renderEndpoint(row, now)) };
    },
  }),
  route({
    method: 'post',
    path: '/v1/webhook_endpoints',
    summary: 'Add a webhook endpoint; the answer shows its signing secret, once',
    access: 'secret',
    body: endpointBody,
    status: 201,
    response: one(endpointSchema),
    async handle({ db, program, body, outbound, now }) {
      const row = await createEndpoint(db, program.id, body, outbound, now);
      return { status: 201, body: { data: renderEndpoint(row, now, true) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/webhook_endpoints/:id',
    summary: 'Fetch one webhook endpoint',
    access: 'secret',
    status: 200,
    response: one(endpointSchema),
    async handle({ db, program, params, now }) {
      return { status: 200, body: { data: renderEndpoint(await getEndpoint(db, program.id, endpointId(params)), now) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/webhook_endpoints/:id',
    summary: 'Change an endpoint: its URL, event types, description, or enable it again',
    access: 'secret',
    body: endpointChanges,
    status: 200,
    response: one(endpointSchema),
    async handle({ db, program, params, body, outbound, now }) {
      const row = await updateEndpoint(db, program.id, endpointId(params), body, outbound, now);
      return { status: 200, body: { data: renderEndpoint(row, now) } };
    },
  }),
  route({
    method: 'delete',
    path: '/v1/webhook_endpoints/:id',
    summary: 'Remove an endpoint, with its deliveries',
    access: 'secret',
    status: 204,
    async handle({ db, program, params }) {
      await deleteEndpoint(db, program.id, endpointId(params));
      return { status: 204 };
    },
  }),
  route({
    method: 'post',
    path: '/v1/webhook_endpoints/:id/rotate_secret',
    summary: 'A new signing secret, shown once; the old one still signs beside it for 24 hours',
    access: 'secret',
    status: 200,
    response: one(endpointSchema),
    async handle({ db, program, params, now }) {
      const row = await rotateSecret(db, program.id, endpointId(params), now);
      return { status: 200, body: { data: renderEndpoint(row, now, true) } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/webhook_endpoints/:id/test',
    summary: 'Send a test event (webhook.test) to this endpoint only',
    access: 'secret',
    status: 201,
    response: one(deliverySchema),
    async handle({ db, program, params, now }) {
      return { status: 201, body: { data: renderDelivery(await sendTestEvent(db, program.id, endpointId(params), now)) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/webhook_endpoints/:id/deliveries',
    summary: "List an endpoint's deliveries, newest first",
    access: 'secret',
    list: { state_eq: oneOf(['pending', 'succeeded', 'failed']), created_at_lt: dateTime, created_at_gt: dateTime },
    status: 200,
    response: page(deliverySchema),
    async handle({ db, program, params, list }) {
      const endpoint = await getEndpoint(db, program.id, endpointId(params));
      const filters = [{ field: 'endpoint_id', op: 'eq' as const, value: endpoint.id }, ...list.filters];
      const listed = await webhooks.listDeliveries(db, program.id, filters, list.page);
      return { status: 200, body: listEnvelope(listed, list.page, (row) => renderDelivery(row)) };
    },
  }),
  route({
    method: 'get',
    path: '/v1/webhook_deliveries/:id',
    summary: 'Fetch one delivery with every attempt: time, status, duration, the first bytes of the answer',
    access: 'secret',
    status: 200,
    response: one(deliverySchema),
    async handle({ db, program, params }) {
      const id = params.id ?? '';
      const row = found(await webhooks.getDelivery(db, program.id, id), 'webhook delivery', id);
      return { status: 200, body: { data: renderDelivery(row, await webhooks.attemptsOf(db, row.id)) } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/webhook_deliveries/:id/resend',
    summary: "Send a delivery's event again to its endpoint, as a new delivery",
    access: 'secret',
    status: 201,
    response: one(deliverySchema),
    async handle({ db, program, params, now }) {
      return { status: 201, body: { data: renderDelivery(await resend(db, program.id, params.id ?? '', now)) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/events',
    summary: 'List the events of the last 30 days, newest first',
    access: 'secret',
    list: { type_eq: oneOf(ALL_EVENT_TYPES), created_at_lt: dateTime, created_at_gt: dateTime },
    status: 200,
    response: page(eventSchema),
    async handle({ db, program, list, now }) {
      const filters = [...list.filters, events.keptSince(now - EVENTS_KEPT_SECONDS)];
      const listed = await events.list(db, program.id, filters, list.page);
      return { status: 200, body: listEnvelope(listed, list.page, renderEvent) };
    },
  }),
  route({
    method: 'get',
    path: '/v1/events/:id',
    summary: 'Fetch one event of the last 30 days',
    access: 'secret',
    status: 200,
    response: one(eventSchema),
    async handle({ db, program, params, now }) {
      const id = params.id ?? '';
      const row = await events.get(db, program.id, id);
      const kept = row && Number(row.created_at) >= now - EVENTS_KEPT_SECONDS ? row : undefined;
      return { status: 200, body: { data: renderEvent(found(kept, 'event', id)) } };
    },
  }),
];
