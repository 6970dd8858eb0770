// Stripe: each program's signing secrets, the links from Stripe's ids to Tally's records,
// and the log of the events received.

import type { Queryable } from '../../platform/db/db.js';
import { lister } from '../../platform/db/list.js';
import { insertRow } from '../../platform/db/rows.js';

export interface SecretRow {
  id: string;
  program_id: string;
  /** As Stripe gives it (whsec_…): verifying a signature needs the secret itself. */
  secret: string;
  label: string;
  created_at: number;
}

export async function insertSecret(db: Queryable, row: SecretRow): Promise<void> {
  await insertRow(db, 'stripe_secrets', row);
}

export function secrets(db: Queryable, programId: string): Promise<SecretRow[]> {
  return db.all<SecretRow>('SELECT * FROM stripe_secrets WHERE program_id = ? ORDER BY created_at, id', [programId]);
}

export async function removeSecret(db: Queryable, programId: string, id: string): Promise<boolean> {
  return (await db.run('DELETE FROM stripe_secrets WHERE program_id = ? AND id = ?', [programId, id])) === 1;
}

/** Links a Stripe id (cus_, in_, pi_, ch_, cs_) to a referral or a payment; the first link stays. */
export async function link(db: Queryable, programId: string, stripeId: string, targetId: string, now: number): Promise<void> {
  await db.run('INSERT INTO stripe_links (program_id, stripe_id, target_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING', [
    programId,
    stripeId,
    targetId,
    now,
  ]);
}

/** The record the first of `stripeIds` that is linked leads to. */
export async function linked(db: Queryable, programId: string, stripeIds: readonly string[]): Promise<string | undefined> {
  for (const id of stripeIds) {
    const row = await db.get<{ target_id: string }>('SELECT target_id FROM stripe_links WHERE program_id = ? AND stripe_id = ?', [
      programId,
      id,
    ]);
    if (row) return row.target_id;
  }
  return undefined;
}

export type Outcome = 'credited' | 'linked' | 'refunded' | 'held' | 'released' | 'churned' | 'ignored' | 'failed';

export interface EventRow {
  program_id: string;
  /** Stripe's evt_ id. */
  id: string;
  type: string;
  livemode: number;
  /** When Stripe made the event (unix seconds). */
  stripe_created: number;
  /** When Tally received it first. */
  created_at: number;
  processed_at: number;
  attempts: number;
  outcome: Outcome;
  reason: string | null;
  /** JSON array of { type, id }: the records it made or changed. */
  touched: string;
  /** The Stripe id whose link would let it apply (a customer, a payment intent), while ignored for want of it. */
  waiting_on: string | null;
  referral_id: string | null;
  /** The event's JSON as received, to process it again. */
  payload: string;
}

/**
 * Takes the event for processing: inserts it, or takes back a failed one. Resolves to
 * false when it was processed already. On PostgreSQL a second process taking the same
 * new event waits here for the first to commit, then finds it done.
 */
export async function claim(db: Queryable, row: EventRow, again: boolean): Promise<boolean> {
  const retake = again ? '' : "WHERE stripe_events.outcome = 'failed'";
  const rows = await db.all(
    `INSERT INTO stripe_events (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row)
      .map(() => '?')
      .join(', ')})
     ON CONFLICT (program_id, id) DO UPDATE SET attempts = stripe_events.attempts + 1, processed_at = excluded.processed_at ${retake}
     RETURNING id`,
    Object.values(row),
  );
  return rows.length === 1;
}

export type EventResult = Pick<EventRow, 'outcome' | 'reason' | 'touched' | 'waiting_on' | 'referral_id' | 'processed_at'>;

export async function finish(db: Queryable, programId: string, id: string, result: EventResult): Promise<void> {
  await db.run(
    `UPDATE stripe_events SET outcome = ?, reason = ?, touched = ?, waiting_on = ?, referral_id = ?, processed_at = ?
      WHERE program_id = ? AND id = ?`,
    [result.outcome, result.reason, result.touched, result.waiting_on, result.referral_id, result.processed_at, programId, id],
  );
}

export function getEvent(db: Queryable, programId: string, id: string): Promise<EventRow | undefined> {
  return db.get<EventRow>('SELECT * FROM stripe_events WHERE program_id = ? AND id = ?', [programId, id]);
}

/** Events ignored for want of a link to one of `stripeIds`, oldest first. */
export function waitingOn(db: Queryable, programId: string, stripeIds: readonly string[]): Promise<EventRow[]> {
  if (stripeIds.length === 0) return Promise.resolve([]);
  return db.all<EventRow>(
    `SELECT * FROM stripe_events WHERE program_id = ? AND waiting_on IN (${stripeIds.map(() => '?').join(', ')})
      ORDER BY stripe_created, id LIMIT 100`,
    [programId, ...stripeIds],
  );
}

/** Newest first, like every list; by outcome and type. */
export const listEvents = lister<EventRow>('stripe_events', { outcome: 'outcome', type: 'type', created_at: 'created_at' });
