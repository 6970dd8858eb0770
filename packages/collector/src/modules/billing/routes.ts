// Billing platforms (docs/billing.md): for each, the webhook it posts to, the connection's
// settings and its events; and the one log of every platform's events.

import { z } from 'zod';
import {
  addSecret,
  connection,
  credentialHints,
  isLocalUrl,
  lastEvent,
  removeCredential,
  removeSecret,
  setCredential,
  webhookPath,
} from '../../flows/billing-connect.js';
import { receiveEvent, reprocessEvent } from '../../flows/billing-event.js';
import { dateTime, oneOf, text } from '../../platform/http/list-query.js';
import type { Resource } from '../../platform/resource.js';
import { route } from '../../api/route.js';
import { one, resource, unixTime } from '../../platform/http/schemas.js';
import * as billing from './repo.js';
import type { EventRow, SecretRow } from './repo.js';
import { readRoutes } from '../../api/crud.js';
import type { Platform } from './facts.js';
import { PLATFORMS, PLATFORM_BY_NAME } from '../../platforms.js';

/** The platforms' events are small, but an invoice with many lines is not 16 KiB. */
export const BILLING_BODY_LIMIT = 512 * 1024;

const OUTCOMES = ['credited', 'linked', 'refunded', 'held', 'released', 'churned', 'ignored', 'failed'] as const;
const NAMES = PLATFORMS.map((p) => p.name) as [string, ...string[]];

const eventSchema = resource('billing_event', {
  platform: z.enum(NAMES),
  type: z.string(),
  livemode: z.boolean(),
  outcome: z.enum(OUTCOMES),
  reason: z.string().nullable(),
  touched: z.array(z.object({ type: z.string(), id: z.string() })),
  waiting_on: z.string().nullable(),
  attempts: z.number().int(),
  platform_created_at: unixTime,
  received_at: unixTime,
  processed_at: unixTime,
});

function renderEvent(row: EventRow): Resource {
  return {
    id: row.id,
    type: 'billing_event',
    attributes: {
      platform: row.platform,
      type: row.type,
      livemode: row.livemode === 1,
      outcome: row.outcome,
      reason: row.reason,
      touched: JSON.parse(row.touched) as unknown,
      waiting_on: row.waiting_on,
      attempts: Number(row.attempts),
      platform_created_at: Number(row.platform_created),
      received_at: Number(row.created_at),
      processed_at: Number(row.processed_at),
    },
  };
}

const secretSchema = resource('billing_secret', { label: z.string(), hint: z.string(), created_at: unixTime });

function renderSecret(platform: Platform, row: SecretRow): Resource {
  return {
    id: row.id,
    type: 'billing_secret',
    attributes: { label: row.label, hint: platform.secret.hint(row.secret), created_at: row.created_at },
  };
}

const connectionSchema = resource('billing_connection', {
  platform: z.enum(NAMES),
  title: z.string(),
  endpoint_url: z.string(),
  setup: z.string(),
  events: z.array(z.string()),
  secrets: z.array(secretSchema),
  endpoint_local: z.boolean(),
  local_test: z.string().nullable(),
  test_event: z.string(),
  last_event: z
    .object({ received_at: unixTime, verified: z.boolean(), type: z.string().nullable(), reason: z.string().nullable() })
    .nullable(),
  credential_fields: z
    .array(z.object({ name: z.string(), label: z.string(), secret: z.boolean() }))
    .meta({ description: "What the platform's API needs from the program, when Tally calls it; empty: nothing" }),
  credential: z
    .record(z.string(), z.string())
    .nullable()
    .meta({ description: 'The credential set, secrets as their last four characters; null: none' }),
});

const credentialSchema = resource('billing_credential', { platform: z.enum(NAMES), fields: z.record(z.string(), z.string()) });

const received = z.object({ data: eventSchema, meta: z.object({ duplicate: z.boolean() }) });

const eventFilters = { outcome_eq: oneOf([...OUTCOMES]), type_eq: text, created_at_lt: dateTime, created_at_gt: dateTime };

function processRoute(path: string) {
  return route({
    method: 'post',
    path,
    summary: 'Process a received event again, as things are now (after linking a customer by hand, say)',
    access: 'secret',
    status: 200,
    response: received,
    async handle({ db, program, params, now }) {
      const { event, duplicate } = await reprocessEvent(db, PLATFORM_BY_NAME, program, params.id ?? '', now);
      return { status: 200, body: { data: renderEvent(event), meta: { duplicate } } };
    },
  });
}

/** One platform's routes, under /v1/integrations/<name>. */
function platformRoutes(platform: Platform) {
  const base = `/v1/integrations/${platform.name}`;
  const mine = { field: 'platform', op: 'eq' as const, value: platform.name };
  return [
    route({
      method: 'post',
      path: `${base}/webhook/:endpoint`,
      summary: `${platform.title}'s events for one program, verified by its signing secrets; each is processed once`,
      access: 'public',
      webhookBodyLimit: BILLING_BODY_LIMIT,
      status: 200,
      response: received,
      async handle({ db, params, raw, header, now, platformApiUrls }) {
        const apiUrl = platformApiUrls[platform.name];
        const { event, duplicate } = await receiveEvent(db, platform, params.endpoint ?? '', raw, header, now, apiUrl);
        return { status: 200, body: { data: renderEvent(event), meta: { duplicate } } };
      },
    }),
    route({
      method: 'get',
      path: base,
      summary: `The program's ${platform.title} connection: the webhook URL to enter there, the events to send, the signing secrets set`,
      access: 'secret',
      status: 200,
      response: one(connectionSchema),
      async handle({ db, program, publicUrl }) {
        const { endpointId, secrets } = await connection(db, platform, program.id);
        const endpointUrl = publicUrl + webhookPath(platform, endpointId);
        const local = isLocalUrl(endpointUrl);
        const attributes = {
          platform: platform.name,
          title: platform.title,
          endpoint_url: endpointUrl,
          setup: platform.setup,
          events: platform.events,
          secrets: secrets.map((s) => renderSecret(platform, s)),
          endpoint_local: local,
          local_test: local ? platform.localTest(endpointUrl, platform.events) : null,
          test_event: platform.testEvent,
          last_event: await lastEvent(db, platform, program.id),
          credential_fields: (platform.credential?.fields ?? []).map((f) => ({ name: f.name, label: f.label, secret: f.secret })),
          credential: credentialHints(platform, await billing.credential(db, program.id, platform.name)),
        };
        return { status: 200, body: { data: { id: program.id, type: 'billing_connection', attributes } } };
      },
    }),
    route({
      method: 'post',
      path: `${base}/secrets`,
      summary: `Add a ${platform.title} endpoint's signing secret: events signed with it are accepted from now on`,
      access: 'secret',
      body: z.strictObject({ secret: z.string().min(1).max(300), label: z.string().max(100).optional() }),
      status: 201,
      response: z.object({ data: secretSchema, meta: z.object({ endpoint_url: z.string() }) }),
      async handle({ db, program, body, publicUrl, now }) {
        const { endpointId, secret } = await addSecret(db, platform, program.id, body.secret, body.label ?? '', now);
        const meta = { endpoint_url: publicUrl + webhookPath(platform, endpointId) };
        return { status: 201, body: { data: renderSecret(platform, secret), meta } };
      },
    }),
    route({
      method: 'delete',
      path: `${base}/secrets/:id`,
      summary: 'Remove a signing secret: events signed with it are refused from now on',
      access: 'secret',
      status: 204,
      async handle({ db, program, params }) {
        await removeSecret(db, platform, program.id, params.id ?? '');
        return { status: 204 };
      },
    }),
    ...(platform.credential ? credentialRoutes(platform, base) : []),
    ...readRoutes({
      plural: `integrations/${platform.name}/events`,
      type: 'billing_event',
      get: async (db, programId, id) => {
        const row = await billing.getEvent(db, programId, id);
        return row?.platform === platform.name ? row : undefined;
      },
      list: (db, programId, filters, page) => billing.listEvents(db, programId, [...filters, mine], page),
      render: renderEvent,
      schema: eventSchema,
      filters: eventFilters,
    }),
    processRoute(`${base}/events/:id/process`),
  ];
}

/** A platform's credential, for those whose API Tally calls (facts.ts `credential`). */
function credentialRoutes(platform: Platform, base: string) {
  const render = (fields: Record<string, string>) => ({
    id: platform.name,
    type: 'billing_credential',
    attributes: { platform: platform.name, fields: credentialHints(platform, fields) ?? {} },
  });
  return [
    route({
      method: 'post',
      path: `${base}/credential`,
      summary: `Set what ${platform.title}'s API needs from the program (${platform.credential?.explain ?? ''}); it replaces the one set`,
      access: 'secret',
      body: z.record(z.string(), z.string().max(500)),
      status: 200,
      response: one(credentialSchema),
      async handle({ db, program, body, now }) {
        return { status: 200, body: { data: render(await setCredential(db, platform, program.id, body, now)) } };
      },
    }),
    route({
      method: 'delete',
      path: `${base}/credential`,
      summary: `Remove the program's ${platform.title} credential: Tally stops calling its API`,
      access: 'secret',
      status: 204,
      async handle({ db, program }) {
        await removeCredential(db, platform, program.id);
        return { status: 204 };
      },
    }),
  ];
}

export const billingRoutes = [
  ...PLATFORMS.flatMap(platformRoutes),
  ...readRoutes({
    plural: 'billing_events',
    type: 'billing_event',
    get: billing.getEvent,
    list: billing.listEvents,
    render: renderEvent,
    schema: eventSchema,
    filters: { ...eventFilters, platform_eq: oneOf([...NAMES]) },
  }),
  processRoute('/v1/billing_events/:id/process'),
];
