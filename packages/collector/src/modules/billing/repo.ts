// Billing platforms: each program's signing secrets per platform, the links from the
// platforms' ids to Tally's records, and the log of the events received.

import type { Queryable } from '../../platform/db/db.js';
import { lister } from '../../platform/db/list.js';
import { insertRow } from '../../platform/db/rows.js';

export interface SecretRow {
  id: string;
  program_id: string;
  platform: string;
  /** As the platform gives it (whsec_…, pdl_ntfset_…): verifying a signature needs the secret itself. */
  secret: string;
  label: string;
  created_at: number;
}

export async function insertSecret(db: Queryable, row: SecretRow): Promise<void> {
  await insertRow(db, 'billing_secrets', row);
}

export function secrets(db: Queryable, programId: string, platform: string): Promise<SecretRow[]> {
  return db.all<SecretRow>('SELECT * FROM billing_secrets WHERE program_id = ? AND platform = ? ORDER BY created_at, id', [
    programId,
    platform,
  ]);
}

export async function removeSecret(db: Queryable, programId: string, platform: string, id: string): Promise<boolean> {
  return (await db.run('DELETE FROM billing_secrets WHERE program_id = ? AND platform = ? AND id = ?', [programId, platform, id])) === 1;
}

/** A program's credential for a platform (facts.ts `Credential`), as its fields' JSON. */
export async function credential(db: Queryable, programId: string, platform: string): Promise<Record<string, string> | undefined> {
  const row = await db.get<{ fields: string }>('SELECT fields FROM billing_credentials WHERE program_id = ? AND platform = ?', [
    programId,
    platform,
  ]);
  return row ? (JSON.parse(row.fields) as Record<string, string>) : undefined;
}

export async function setCredential(
  db: Queryable,
  programId: string,
  platform: string,
  fields: Record<string, string>,
  now: number,
): Promise<void> {
  await db.run(
    `INSERT INTO billing_credentials (program_id, platform, fields, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (program_id, platform) DO UPDATE SET fields = excluded.fields, updated_at = excluded.updated_at`,
    [programId, platform, JSON.stringify(fields), now],
  );
}

export async function removeCredential(db: Queryable, programId: string, platform: string): Promise<boolean> {
  return (await db.run('DELETE FROM billing_credentials WHERE program_id = ? AND platform = ?', [programId, platform])) === 1;
}

/** Links a platform's id (Stripe's cus_, in_, pi_ as they are; `paddle:txn_…`) to a referral or a payment; the first link stays. */
export async function link(db: Queryable, programId: string, key: string, targetId: string, now: number): Promise<void> {
  await db.run('INSERT INTO billing_links (program_id, external_id, target_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING', [
    programId,
    key,
    targetId,
    now,
  ]);
}

/** Points a key at `target` whatever it pointed at: a platform's discount at the code it has now. */
export async function relink(db: Queryable, programId: string, key: string, target: string, now: number): Promise<void> {
  await db.run(
    `INSERT INTO billing_links (program_id, external_id, target_id, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (program_id, external_id) DO UPDATE SET target_id = excluded.target_id, created_at = excluded.created_at`,
    [programId, key, target, now],
  );
}

export async function unlink(db: Queryable, programId: string, key: string): Promise<void> {
  await db.run('DELETE FROM billing_links WHERE program_id = ? AND external_id = ?', [programId, key]);
}

/** A customer's address, as the platform told it when it made the customer; the latest wins. */
export async function rememberEmail(
  db: Queryable,
  programId: string,
  key: string,
  email: string,
  emailNorm: string,
  now: number,
): Promise<void> {
  await db.run(
    `INSERT INTO billing_customers (program_id, external_id, email_norm, email, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (program_id, external_id) DO UPDATE SET email_norm = excluded.email_norm, email = excluded.email, created_at = excluded.created_at`,
    [programId, key, emailNorm, email, now],
  );
}

export async function rememberedEmail(db: Queryable, programId: string, key: string): Promise<string | undefined> {
  return (await db.get<{ email: string }>('SELECT email FROM billing_customers WHERE program_id = ? AND external_id = ?', [programId, key]))
    ?.email;
}

/** The record the first of `keys` that is linked leads to. */
export async function linked(db: Queryable, programId: string, keys: readonly string[]): Promise<string | undefined> {
  for (const id of keys) {
    const row = await db.get<{ target_id: string }>('SELECT target_id FROM billing_links WHERE program_id = ? AND external_id = ?', [
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
  /** The platform's event id: Stripe's evt_ as it is, the others' behind their name (`paddle:evt_…`). */
  id: string;
  platform: string;
  type: string;
  livemode: number;
  /** When the platform made the event (unix seconds). */
  platform_created: number;
  /** When Tally received it first. */
  created_at: number;
  processed_at: number;
  attempts: number;
  outcome: Outcome;
  reason: string | null;
  /** JSON array of { type, id }: the records it made or changed. */
  touched: string;
  /** The link key whose link would let it apply (a customer, a payment intent), while ignored for want of it. */
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
  const retake = again ? '' : "WHERE billing_events.outcome = 'failed'";
  const rows = await db.all(
    `INSERT INTO billing_events (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row)
      .map(() => '?')
      .join(', ')})
     ON CONFLICT (program_id, id) DO UPDATE SET attempts = billing_events.attempts + 1, processed_at = excluded.processed_at ${retake}
     RETURNING id`,
    Object.values(row),
  );
  return rows.length === 1;
}

export type EventResult = Pick<EventRow, 'outcome' | 'reason' | 'touched' | 'waiting_on' | 'referral_id' | 'processed_at'>;

export async function finish(db: Queryable, programId: string, id: string, result: EventResult): Promise<void> {
  await db.run(
    `UPDATE billing_events SET outcome = ?, reason = ?, touched = ?, waiting_on = ?, referral_id = ?, processed_at = ?
      WHERE program_id = ? AND id = ?`,
    [result.outcome, result.reason, result.touched, result.waiting_on, result.referral_id, result.processed_at, programId, id],
  );
}

export function getEvent(db: Queryable, programId: string, id: string): Promise<EventRow | undefined> {
  return db.get<EventRow>('SELECT * FROM billing_events WHERE program_id = ? AND id = ?', [programId, id]);
}

/** Events ignored for want of a link to one of `keys`, oldest first. */
export function waitingOn(db: Queryable, programId: string, keys: readonly string[]): Promise<EventRow[]> {
  if (keys.length === 0) return Promise.resolve([]);
  return db.all<EventRow>(
    `SELECT * FROM billing_events WHERE program_id = ? AND waiting_on IN (${keys.map(() => '?').join(', ')})
      ORDER BY platform_created, id LIMIT 100`,
    [programId, ...keys],
  );
}

/** Newest first, like every list; by platform, outcome and type. */
export const listEvents = lister<EventRow>('billing_events', {
  platform: 'platform',
  outcome: 'outcome',
  type: 'type',
  created_at: 'created_at',
});

/** The newest event of a platform the program received and verified. */
export function lastEvent(db: Queryable, programId: string, platform: string): Promise<Pick<EventRow, 'type' | 'created_at'> | undefined> {
  return db.get(
    'SELECT type, created_at FROM billing_events WHERE program_id = ? AND platform = ? ORDER BY created_at DESC, id DESC LIMIT 1',
    [programId, platform],
  );
}

export interface RefusalRow {
  received_at: number;
  reason: string;
}

/** Keeps a refused delivery's time and reason: only the latest per platform. */
export async function refused(db: Queryable, programId: string, platform: string, row: RefusalRow): Promise<void> {
  await db.run(
    `INSERT INTO billing_refusals (program_id, platform, received_at, reason) VALUES (?, ?, ?, ?)
     ON CONFLICT (program_id, platform) DO UPDATE SET received_at = excluded.received_at, reason = excluded.reason`,
    [programId, platform, row.received_at, row.reason],
  );
}

export async function clearRefusal(db: Queryable, programId: string, platform: string): Promise<void> {
  await db.run('DELETE FROM billing_refusals WHERE program_id = ? AND platform = ?', [programId, platform]);
}

export function lastRefusal(db: Queryable, programId: string, platform: string): Promise<RefusalRow | undefined> {
  return db.get<RefusalRow>('SELECT received_at, reason FROM billing_refusals WHERE program_id = ? AND platform = ?', [
    programId,
    platform,
  ]);
}
