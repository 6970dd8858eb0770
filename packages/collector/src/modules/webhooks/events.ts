// Events (docs/webhooks.md): what changed, written in the transaction of the change
// itself, with a delivery for each enabled endpoint that wants its type. A committed
// change therefore always has its event and deliveries, and a rolled-back one has none:
// a transactional outbox, which the delivery loop (webhooks/deliver.ts) empties.

import type { Resource } from '../../platform/resource.js';
import type { Queryable } from '../../platform/db/db.js';
import type { Insert } from '../../platform/db/rows.js';
import * as events from './events-repo.js';
import type { EventRow } from './events-repo.js';
import * as webhooks from './repo.js';
import { uuidv7 } from '../../core/ids.js';
import { remembered } from '../../platform/db/remembered.js';
import { insertOne } from '../../platform/db/rows.js';
import { type Known, noticesFor } from '../notifications/derive.js';

export const EVENT_TYPES = [
  'referral.created',
  'referral.converted',
  'referral.updated',
  'partnership.created',
  'partnership.updated',
  'partnership.group_changed',
  'commission.created',
  'commission.updated',
  'payment.created',
  'payout.created',
  'payout.paid',
  'discount_code.created',
  'discount_code.used',
  'discount_code.disabled',
  'discount_code.enabled',
  'review.held',
  'review.decided',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What GET /v1/events lists, and for how long an event is kept. */
export const EVENTS_KEPT_SECONDS = 30 * 86_400;

/** Whether an endpoint subscribed to `types` (JSON; empty: all) wants `type`. */
export function wants(types: string, type: string): boolean {
  const list = JSON.parse(types) as string[];
  return list.length === 0 || list.includes(type);
}

/** Records that `data` changed as `type` says, with its deliveries, in the caller's transaction; `known` as for eventInserts. */
export async function emit(
  tx: Queryable,
  programId: string,
  type: EventType,
  data: Resource,
  now: number,
  known: Known = {},
): Promise<EventRow> {
  const { event, deliveries } = await newEvent(tx, programId, type, data, now);
  await events.insert(tx, event);
  for (const delivery of deliveries) await webhooks.insertDelivery(tx, delivery);
  // The e-mails the change makes, in the same transaction (modules/notifications).
  for (const n of await noticesFor(tx, programId, type, data, now, known)) await insertOne(tx, n);
  return event;
}

/** The same rows, for a caller that writes them in one statement with its change (conversions.ts), which may know more (`known`). */
export async function eventInserts(
  db: Queryable,
  programId: string,
  type: EventType,
  data: Resource,
  now: number,
  known: Known = {},
): Promise<Insert[]> {
  const { event, deliveries } = await newEvent(db, programId, type, data, now);
  return [
    events.eventInsert(event),
    ...deliveries.map(webhooks.deliveryInsert),
    ...(await noticesFor(db, programId, type, data, now, known)),
  ];
}

/** The event, and a delivery of it to each enabled endpoint of its program that wants it. */
async function newEvent(db: Queryable, programId: string, type: EventType, data: Resource, now: number) {
  const event: EventRow = { id: uuidv7(), program_id: programId, type, data: JSON.stringify(data), created_at: now };
  // Read by every event, changed rarely: kept in memory until an endpoint changes.
  const endpoints = await remembered(db, `endpoints:${programId}`, () => webhooks.enabledEndpoints(db, programId));
  const deliveries = endpoints.filter((e) => wants(e.event_types, type)).map((e) => newDelivery(event, e.id, now));
  return { event, deliveries };
}

export function newDelivery(event: Pick<EventRow, 'id' | 'program_id' | 'type'>, endpointId: string, now: number): webhooks.DeliveryRow {
  return {
    id: uuidv7(),
    program_id: event.program_id,
    endpoint_id: endpointId,
    event_id: event.id,
    event_type: event.type,
    state: 'pending',
    attempts: 0,
    claims: 0,
    next_attempt_at: now,
    last_status: null,
    last_error: null,
    created_at: now,
    updated_at: now,
  };
}
