// Receiving a billing platform's events: verified, processed once each, recorded in the
// program's event log with what came of them, in the same transaction as their effects. A
// 2xx answer therefore means the effect is committed; a failure Tally did not expect is
// recorded as `failed` and answered 500, so the platform sends the event again.

import { ServiceError, fail, found } from '../platform/errors.js';
import type { Db, Tx } from '../platform/db/db.js';
import * as programs from '../modules/programs/repo.js';
import type { ProgramRow } from '../modules/programs/model.js';
import * as billing from '../modules/billing/repo.js';
import type { EventRow } from '../modules/billing/repo.js';
import { handle, type Handled } from './billing-fact.js';
import type { Platform, Verified } from '../modules/billing/facts.js';

export interface Received {
  event: EventRow;
  /** True when the event had been processed already: nothing changed now. */
  duplicate: boolean;
}

/** POST /v1/integrations/<platform>/webhook/:endpoint: the raw body and its signature header. */
export async function receiveEvent(
  db: Db,
  platform: Platform,
  endpointId: string,
  payload: string,
  header: (name: string) => string | undefined,
  now: number,
  apiUrl?: string,
): Promise<Received> {
  const program = await programs.getByBillingEndpoint(db, endpointId);
  if (!program) throw fail('not_found', `no ${platform.title} endpoint with that id`);
  const secrets = (await billing.secrets(db, program.id, platform.name)).map((s) => s.secret);
  let event: Verified;
  try {
    event = await platform.verify(payload, header, secrets, now);
  } catch (err) {
    // Kept so that Settings can say a test event arrived but did not verify: nothing else changes.
    if (err instanceof ServiceError) await billing.refused(db, program.id, platform.name, { received_at: now, reason: err.message });
    throw err;
  }
  // A verified event is the newer news, even within the second of a refusal.
  await billing.clearRefusal(db, program.id, platform.name);
  // Asked before the transaction: no lock is held while the platform's API answers.
  const credential = platform.credential ? await billing.credential(db, program.id, platform.name) : undefined;
  const looked = (await platform.lookup?.(event, program, apiUrl, credential)) ?? [];
  if (looked.length > 0) {
    await db.transaction(async (tx) => {
      for (const l of looked) await billing.relink(tx, program.id, l.key, l.target, now);
    });
  }
  // Also before the transaction: the objects a notification names by id only, kept with it.
  if (!platform.expand) return processEvent(db, platform, program, event, payload, now, false);
  const body = await platform.expand(event, program, apiUrl, credential);
  return processEvent(db, platform, program, { ...event, body }, JSON.stringify(body), now, false);
}

/** Processes a stored event again, by hand: whatever its outcome was, as it is now. */
export async function reprocessEvent(
  db: Db,
  platforms: ReadonlyMap<string, Platform>,
  program: ProgramRow,
  id: string,
  now: number,
): Promise<Received> {
  const row = found(await billing.getEvent(db, program.id, id), 'billing event', id);
  if (row.payload === '{}') throw fail('conflict', 'this event named a person since erased: what the platform sent is gone');
  const platform = platforms.get(row.platform);
  if (!platform) throw fail('conflict', `this event came from ${row.platform}, which this version of Tally does not read`);
  return processEvent(db, platform, program, stored(row), row.payload, now, true);
}

/** The verified event a row keeps. */
function stored(row: EventRow): Verified {
  const body = JSON.parse(row.payload) as Record<string, unknown>;
  return { id: row.id, type: row.type, created: Number(row.platform_created), livemode: row.livemode === 1, body };
}

function newRow(platform: Platform, program: ProgramRow, event: Verified, payload: string, now: number): EventRow {
  return {
    program_id: program.id,
    id: event.id,
    platform: platform.name,
    type: event.type,
    livemode: event.livemode ? 1 : 0,
    platform_created: event.created,
    created_at: now,
    processed_at: now,
    attempts: 1,
    outcome: 'failed',
    reason: null,
    touched: '[]',
    waiting_on: null,
    referral_id: null,
    payload,
  };
}

function resultOf(h: Handled, now: number): billing.EventResult {
  return {
    outcome: h.outcome,
    reason: h.reason ?? null,
    touched: JSON.stringify(h.touched),
    waiting_on: h.waitingOn ?? null,
    referral_id: h.referralId ?? null,
    processed_at: now,
  };
}

async function processEvent(
  db: Db,
  platform: Platform,
  program: ProgramRow,
  event: Verified,
  payload: string,
  now: number,
  again: boolean,
): Promise<Received> {
  const row = newRow(platform, program, event, payload, now);
  try {
    return await db.transaction(async (tx) => {
      if (!(await billing.claim(tx, row, again))) return { event: (await billing.getEvent(tx, program.id, event.id))!, duplicate: true };
      const handled = await handle(tx, program, platform.name, platform.fact(event), now);
      await billing.finish(tx, program.id, event.id, resultOf(handled, now));
      await applyWaiting(tx, platform, program, handled.linked, now);
      return { event: (await billing.getEvent(tx, program.id, event.id))!, duplicate: false };
    });
  } catch (err) {
    // A rule refused it (a rejected referral, a declined partnership, an unknown currency):
    // the event changed nothing, and says why. Anything else is a failure, for the platform to retry.
    const refused = err instanceof ServiceError && err.kind !== 'internal' && err.kind !== 'later';
    if (!refused) {
      // Answered 500 whether or not the `failed` row is written: the row only shows it in
      // the log, and the platform's next delivery takes the event up again either way.
      const reason = `an internal error; ${platform.title} will send it again`;
      await record(db, row, { outcome: 'failed', reason }, now).catch(() => undefined);
      throw err;
    }
    // The refusal is the event's outcome: answered 200 only once its row is committed.
    const outcome = { outcome: 'ignored' as const, reason: err.message };
    await recordRefusal(db, row, outcome, now);
    return { event: (await billing.getEvent(db, program.id, event.id)) ?? { ...row, ...outcome }, duplicate: false };
  }
}

async function record(db: Db, row: EventRow, outcome: Pick<EventRow, 'outcome' | 'reason'>, now: number): Promise<void> {
  await db.transaction(async (tx) => {
    await billing.claim(tx, row, true);
    await billing.finish(tx, row.program_id, row.id, { ...outcome, touched: '[]', waiting_on: null, referral_id: null, processed_at: now });
  });
}

/**
 * Records a refused event as ignored. When that fails, the answer must not be a 2xx, or
 * the platform would never send the event again and the log would lack it: a database that is
 * not there now stays its 503; anything else (a constraint, which alone would be a 409)
 * becomes a 500.
 */
async function recordRefusal(db: Db, row: EventRow, outcome: Pick<EventRow, 'outcome' | 'reason'>, now: number): Promise<void> {
  try {
    await record(db, row, outcome, now);
  } catch (err) {
    if (err instanceof ServiceError && (err.kind === 'later' || err.kind === 'internal')) throw err;
    throw new Error(`the refused ${row.platform} event ${row.id} could not be recorded`, { cause: err });
  }
}

/** At most this many rounds of "linked, so apply what waited, which links more". */
const ROUNDS = 4;

/**
 * Applies the events that were waiting for any of the keys just linked (an invoice paid
 * before its Checkout linked the customer, a refund before its payment), in the
 * platform's order, within the same transaction; their own links may free more. Link keys
 * are the platform's own, so only its events wait on them.
 */
async function applyWaiting(tx: Tx, platform: Platform, program: ProgramRow, linked: readonly string[], now: number): Promise<void> {
  let keys = [...linked];
  for (let round = 0; round < ROUNDS && keys.length > 0; round++) {
    const next: string[] = [];
    for (const row of await billing.waitingOn(tx, program.id, keys)) {
      if (row.platform !== platform.name) continue;
      let handled: Handled;
      try {
        handled = await handle(tx, program, platform.name, platform.fact(stored(row)), now);
      } catch (err) {
        // Refused by a rule before it wrote anything: it stays as it was, still waiting.
        if (err instanceof ServiceError && err.kind !== 'internal') continue;
        throw err;
      }
      if (handled.waitingOn === row.waiting_on) continue;
      await billing.finish(tx, program.id, row.id, resultOf(handled, now));
      next.push(...handled.linked);
    }
    keys = next;
  }
}
