// Receiving Stripe's events: verified, processed once each, recorded in the program's
// event log with what came of them, in the same transaction as their effects. A 2xx
// answer therefore means the effect is committed; a failure Tally did not expect is
// recorded as `failed` and answered 500, so Stripe sends the event again.

import { ServiceError, fail, found } from '../../platform/errors.js';
import type { Db, Tx } from '../../platform/db/db.js';
import * as programs from '../programs/repo.js';
import type { ProgramRow } from '../programs/repo.js';
import * as stripe from './repo.js';
import type { EventRow } from './repo.js';
import { handle, type Handled } from './handlers.js';
import { verifyEvent, type StripeEvent } from './verify.js';

export interface Received {
  event: EventRow;
  /** True when the event had been processed already: nothing changed now. */
  duplicate: boolean;
}

/** POST /v1/integrations/stripe/webhook/:endpoint: the raw body and its Stripe-Signature header. */
export async function receiveEvent(
  db: Db,
  endpointId: string,
  payload: string,
  signature: string | undefined,
  now: number,
): Promise<Received> {
  const program = await programs.getByStripeEndpoint(db, endpointId);
  if (!program) throw fail('not_found', 'no Stripe endpoint with that id');
  const secrets = (await stripe.secrets(db, program.id)).map((s) => s.secret);
  const event = verifyEvent(payload, signature, secrets, now);
  // `typeof null` and an array's are 'object' too: the handlers read an object's fields.
  const object: unknown = event.data?.object;
  if (
    typeof event.id !== 'string' ||
    typeof event.type !== 'string' ||
    object === null ||
    typeof object !== 'object' ||
    Array.isArray(object)
  ) {
    throw fail('invalid_field', 'the event has no id, type or data.object');
  }
  return processEvent(db, program, event, payload, now, false);
}

/** Processes a stored event again, by hand: whatever its outcome was, as it is now. */
export async function reprocessEvent(db: Db, program: ProgramRow, id: string, now: number): Promise<Received> {
  const row = found(await stripe.getEvent(db, program.id, id), 'Stripe event', id);
  if (row.payload === '{}') throw fail('conflict', 'this event named a person since erased: what Stripe sent is gone');
  return processEvent(db, program, JSON.parse(row.payload) as StripeEvent, row.payload, now, true);
}

function newRow(program: ProgramRow, event: StripeEvent, payload: string, now: number): EventRow {
  return {
    program_id: program.id,
    id: event.id,
    type: event.type,
    livemode: event.livemode ? 1 : 0,
    stripe_created: Number.isSafeInteger(event.created) ? event.created : now,
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

function resultOf(h: Handled, now: number): stripe.EventResult {
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
  program: ProgramRow,
  event: StripeEvent,
  payload: string,
  now: number,
  again: boolean,
): Promise<Received> {
  const row = newRow(program, event, payload, now);
  try {
    return await db.transaction(async (tx) => {
      if (!(await stripe.claim(tx, row, again))) return { event: (await stripe.getEvent(tx, program.id, event.id))!, duplicate: true };
      const handled = await handle(tx, program, event, now);
      await stripe.finish(tx, program.id, event.id, resultOf(handled, now));
      await applyWaiting(tx, program, handled.linked, now);
      return { event: (await stripe.getEvent(tx, program.id, event.id))!, duplicate: false };
    });
  } catch (err) {
    // A rule refused it (a rejected referral, a declined partnership, an unknown currency):
    // the event changed nothing, and says why. Anything else is a failure, for Stripe to retry.
    const refused = err instanceof ServiceError && err.kind !== 'internal' && err.kind !== 'later';
    if (!refused) {
      // Answered 500 whether or not the `failed` row is written: the row only shows it in
      // the log, and Stripe's next delivery takes the event up again either way.
      await record(db, row, { outcome: 'failed', reason: 'an internal error; Stripe will send it again' }, now).catch(() => undefined);
      throw err;
    }
    // The refusal is the event's outcome: answered 200 only once its row is committed.
    const outcome = { outcome: 'ignored' as const, reason: err.message };
    await recordRefusal(db, row, outcome, now);
    return { event: (await stripe.getEvent(db, program.id, event.id)) ?? { ...row, ...outcome }, duplicate: false };
  }
}

async function record(db: Db, row: EventRow, outcome: Pick<EventRow, 'outcome' | 'reason'>, now: number): Promise<void> {
  await db.transaction(async (tx) => {
    await stripe.claim(tx, row, true);
    await stripe.finish(tx, row.program_id, row.id, { ...outcome, touched: '[]', waiting_on: null, referral_id: null, processed_at: now });
  });
}

/**
 * Records a refused event as ignored. When that fails, the answer must not be a 2xx, or
 * Stripe would never send the event again and the log would lack it: a database that is
 * not there now stays its 503; anything else (a constraint, which alone would be a 409)
 * becomes a 500.
 */
async function recordRefusal(db: Db, row: EventRow, outcome: Pick<EventRow, 'outcome' | 'reason'>, now: number): Promise<void> {
  try {
    await record(db, row, outcome, now);
  } catch (err) {
    if (err instanceof ServiceError && (err.kind === 'later' || err.kind === 'internal')) throw err;
    throw new Error(`the refused Stripe event ${row.id} could not be recorded`, { cause: err });
  }
}

/** At most this many rounds of "linked, so apply what waited, which links more". */
const ROUNDS = 4;

/**
 * Applies the events that were waiting for any of the ids just linked (an invoice paid
 * before its Checkout linked the customer, a refund before its payment), in Stripe's
 * order, within the same transaction; their own links may free more.
 */
async function applyWaiting(tx: Tx, program: ProgramRow, linked: readonly string[], now: number): Promise<void> {
  let keys = [...linked];
  for (let round = 0; round < ROUNDS && keys.length > 0; round++) {
    const next: string[] = [];
    for (const row of await stripe.waitingOn(tx, program.id, keys)) {
      let handled: Handled;
      try {
        handled = await handle(tx, program, JSON.parse(row.payload) as StripeEvent, now);
      } catch (err) {
        // Refused by a rule before it wrote anything: it stays as it was, still waiting.
        if (err instanceof ServiceError && err.kind !== 'internal') continue;
        throw err;
      }
      if (handled.waitingOn === row.waiting_on) continue;
      await stripe.finish(tx, program.id, row.id, resultOf(handled, now));
      next.push(...handled.linked);
    }
    keys = next;
  }
}
