// Webhooks as a subscriber of the domain's events (events/emit.ts): each event gets a
// delivery for each enabled endpoint of its program that wants its type, written in the
// transaction of the change, a transactional outbox the delivery loop (deliver.ts) empties.

import type { Queryable } from '../../platform/db/db.js';
import type { Insert } from '../../platform/db/rows.js';
import type { EventRow } from '../../events/repo.js';
import type { DomainEvent } from '../../events/types.js';
import * as webhooks from './repo.js';
import { uuidv7 } from '../../core/ids.js';
import { remembered } from '../../platform/db/remembered.js';

/** Whether an endpoint subscribed to `types` (JSON; empty: all) wants `type`. */
export function wants(types: string, type: string): boolean {
  const list = JSON.parse(types) as string[];
  return list.length === 0 || list.includes(type);
}

/** The subscriber: a delivery of the event to each enabled endpoint of its program that wants it. */
export async function deliveriesOf(db: Queryable, event: DomainEvent): Promise<Insert[]> {
  // Read by every event, changed rarely: kept in memory until an endpoint changes.
  const endpoints = await remembered(db, `endpoints:${event.programId}`, () => webhooks.enabledEndpoints(db, event.programId));
  return endpoints
    .filter((e) => wants(e.event_types, event.type))
    .map((e) => webhooks.deliveryInsert(newDelivery({ id: event.id, program_id: event.programId, type: event.type }, e.id, event.at)));
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
