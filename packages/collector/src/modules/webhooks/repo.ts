// Outgoing webhooks: a program's endpoints, the deliveries of its events to them, and
// every attempt of each delivery. A delivery is due when pending and its next_attempt_at
// has come; claiming one moves next_attempt_at past a lease, so one process at a time
// sends it, and a process that dies mid-send leaves it due again when the lease ends.

import type { Param, Queryable } from '../../platform/db/db.js';
import { lister } from '../../platform/db/list.js';
import { insertRow, updateRow, type Insert } from '../../platform/db/rows.js';

export interface EndpointRow {
  id: string;
  program_id: string;
  url: string;
  description: string;
  /** JSON array of event types; empty: every type. */
  event_types: string;
  enabled: number;
  disabled_reason: string | null;
  /** whsec_…: signing needs the secret itself, as Stripe's does. */
  secret: string;
  /** The secret before the last rotation, which still signs until previous_secret_until. */
  previous_secret: string | null;
  previous_secret_until: number | null;
  /** When the current run of failures began; null while the endpoint answers. */
  failing_since: number | null;
  created_at: number;
  updated_at: number;
}

export type DeliveryState = 'pending' | 'succeeded' | 'failed';

export interface DeliveryRow {
  id: string;
  program_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  state: DeliveryState;
  /** Attempts recorded. */
  attempts: number;
  /** Times a process took it to send: more than its attempts by the sends that died unrecorded. */
  claims: number;
  next_attempt_at: number;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

export interface AttemptRow {
  id: string;
  delivery_id: string;
  attempted_at: number;
  duration_ms: number;
  /** The HTTP status; null when none came (a timeout, a refused address). */
  status: number | null;
  error: string | null;
  /** The first bytes of the answer's body. */
  response: string;
}

/** A claimed delivery with what sending it needs. */
export interface Outgoing extends DeliveryRow {
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
  type: string;
  data: string;
  event_created_at: number;
}

export async function insertEndpoint(db: Queryable, row: EndpointRow): Promise<void> {
  await insertRow(db, 'webhook_endpoints', row);
}

export function getEndpoint(db: Queryable, programId: string, id: string): Promise<EndpointRow | undefined> {
  return db.get<EndpointRow>('SELECT * FROM webhook_endpoints WHERE program_id = ? AND id = ?', [programId, id]);
}

export const listEndpoints = lister<EndpointRow>('webhook_endpoints', { enabled: 'enabled' });

export async function updateEndpoint(db: Queryable, programId: string, id: string, fields: Record<string, Param>): Promise<boolean> {
  return (await updateRow(db, 'webhook_endpoints', programId, id, fields)) === 1;
}

export async function deleteEndpoint(db: Queryable, programId: string, id: string): Promise<boolean> {
  return (await db.run('DELETE FROM webhook_endpoints WHERE program_id = ? AND id = ?', [programId, id])) === 1;
}

/** The enabled endpoints of a program, with the types each wants: read by every event. */
export function enabledEndpoints(db: Queryable, programId: string): Promise<Array<Pick<EndpointRow, 'id' | 'event_types'>>> {
  return db.all('SELECT id, event_types FROM webhook_endpoints WHERE program_id = ? AND enabled = 1', [programId]);
}

export async function insertDelivery(db: Queryable, row: DeliveryRow): Promise<void> {
  await insertRow(db, 'webhook_deliveries', row);
}

/** The delivery as a row to write beside a change (rows.ts, insertFirstWith). */
export const deliveryInsert = (row: DeliveryRow): Insert => ({ table: 'webhook_deliveries', row });

export function getDelivery(db: Queryable, programId: string, id: string): Promise<DeliveryRow | undefined> {
  return db.get<DeliveryRow>('SELECT * FROM webhook_deliveries WHERE program_id = ? AND id = ?', [programId, id]);
}

/** An endpoint's deliveries, newest first; the route fixes endpoint_id. */
export const listDeliveries = lister<DeliveryRow>('webhook_deliveries', {
  endpoint_id: 'endpoint_id',
  state: 'state',
  created_at: 'created_at',
});

export function attemptsOf(db: Queryable, deliveryId: string): Promise<AttemptRow[]> {
  return db.all<AttemptRow>('SELECT * FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempted_at, id', [deliveryId]);
}

/** Whether any delivery is due: a read, so an idle poll writes nothing. */
export async function anyDue(db: Queryable, now: number): Promise<boolean> {
  const row = await db.get("SELECT 1 AS due FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= ? LIMIT 1", [now]);
  return row !== undefined;
}

/**
 * Claims up to `limit` due deliveries until `leaseUntil`, in the caller's transaction.
 * PostgreSQL's SKIP LOCKED lets processes claiming together take different rows instead
 * of queueing on the same ones; SQLite has one writer, which is the same guarantee.
 */
export async function claimDue(db: Queryable, now: number, leaseUntil: number, limit: number): Promise<Outgoing[]> {
  // Taken UNRECORDED_CLAIMS times more than it was recorded: its sends die before their
  // attempt can be written (a process killed each time, say). It stops here, failed, not
  // sent for ever.
  await db.run(
    `UPDATE webhook_deliveries SET state = 'failed', last_error = ?, updated_at = ?
      WHERE state = 'pending' AND next_attempt_at <= ? AND claims >= attempts + ?`,
    ['its attempts could not be recorded; resend it', now, now, UNRECORDED_CLAIMS],
  );
  const skipLocked = db.engine === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : '';
  const claimed = await db.all<{ id: string }>(
    `UPDATE webhook_deliveries SET next_attempt_at = ?, claims = claims + 1
      WHERE id IN (SELECT id FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= ?
                    ORDER BY next_attempt_at LIMIT ? ${skipLocked})
      RETURNING id`,
    [leaseUntil, now, limit],
  );
  if (claimed.length === 0) return [];
  return db.all<Outgoing>(
    `SELECT d.*, w.url, w.secret, w.previous_secret, w.previous_secret_until, e.type, e.data, e.created_at AS event_created_at
       FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN events e ON e.id = d.event_id
      WHERE d.id IN (${claimed.map(() => '?').join(', ')})`,
    claimed.map((c) => c.id),
  );
}

/** A delivery claimed this many times more than it was recorded is failed instead of sent again. */
export const UNRECORDED_CLAIMS = 3;

/**
 * The endpoint, locked until the transaction ends (PostgreSQL; SQLite has one writer):
 * a finishing attempt takes it before its delivery, as disabling it does, so the two
 * never wait on each other in opposite orders. Undefined when it was removed.
 */
export function lockEndpoint(db: Queryable, id: string): Promise<Pick<EndpointRow, 'enabled' | 'failing_since'> | undefined> {
  return db.get(`SELECT enabled, failing_since FROM webhook_endpoints WHERE id = ? ${db.engine === 'postgres' ? 'FOR UPDATE' : ''}`, [id]);
}

/**
 * Records an attempt and where it leaves the delivery, only while this claim still holds
 * it (its lease is the next_attempt_at it set): a claim that outlived its lease, and was
 * claimed again by another process, changes nothing. Whatever the state meanwhile (its
 * endpoint disabled), an attempt that holds its claim is recorded. Resolves to whether it applied.
 */
export async function finishAttempt(
  db: Queryable,
  claimed: Pick<DeliveryRow, 'id' | 'next_attempt_at'>,
  attempt: AttemptRow,
  next: Pick<DeliveryRow, 'state' | 'next_attempt_at' | 'last_status' | 'last_error' | 'updated_at'>,
): Promise<boolean> {
  const changed = await db.run(
    `UPDATE webhook_deliveries SET state = ?, next_attempt_at = ?, last_status = ?, last_error = ?, updated_at = ?, attempts = attempts + 1
      WHERE id = ? AND next_attempt_at = ?`,
    [next.state, next.next_attempt_at, next.last_status, next.last_error, next.updated_at, claimed.id, claimed.next_attempt_at],
  );
  if (changed === 1) await insertRow(db, 'webhook_attempts', attempt);
  return changed === 1;
}

/** Ends the pending deliveries of an endpoint that was disabled; a resend makes them anew. */
export function failPending(db: Queryable, endpointId: string, reason: string, now: number): Promise<number> {
  return db.run(
    "UPDATE webhook_deliveries SET state = 'failed', last_error = ?, updated_at = ? WHERE endpoint_id = ? AND state = 'pending'",
    [reason, now, endpointId],
  );
}

/** The endpoint answered: its run of failures, if any, is over. */
export async function markAnswering(db: Queryable, endpointId: string): Promise<void> {
  await db.run('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL', [endpointId]);
}

/** The endpoint failed at `at`: resolves to when its run of failures began. */
export async function markFailing(db: Queryable, endpointId: string, at: number): Promise<number> {
  const row = await db.get<{ failing_since: number }>(
    'UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ?) WHERE id = ? RETURNING failing_since',
    [at, endpointId],
  );
  return Number(row?.failing_since ?? at);
}

/** Stops sending to the endpoint, saying why, and ends its pending deliveries. */
export async function disable(db: Queryable, endpointId: string, reason: string, now: number): Promise<void> {
  await db.run('UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?, updated_at = ? WHERE id = ? AND enabled = 1', [
    reason,
    now,
    endpointId,
  ]);
  await failPending(db, endpointId, `the endpoint was disabled: ${reason}`, now);
}
