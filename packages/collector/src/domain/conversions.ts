// A conversion: a referred person signed up. The first referral of a person wins, and
// a retry of the same conversion is answered with the same record.

import { fail } from '../errors.js';
import type { Db, Queryable } from '../store/db.js';
import * as referrals from '../store/referrals.js';
import type { ReferralRow } from '../store/referrals.js';
import { addDelta } from '../store/stats.js';
import type { CreditedPartnership } from '../store/partnerships.js';
import { attribute } from './attribution.js';
import { mailbox, normalizeEmail } from './email.js';
import { uuidv7 } from './ids.js';
import { renderReferral } from '../views/records.js';
import { emit } from './events.js';

export interface ConversionInput {
  email: string;
  gr_id: string;
  pk?: string | undefined;
  uid?: string | undefined;
}

export interface ConversionResult {
  referral: ReferralRow;
  /** False when an earlier request already recorded this very conversion. */
  created: boolean;
}

function repeat(existing: ReferralRow, grId: string): ConversionResult {
  if (existing.gr_id === grId) return { referral: existing, created: false };
  throw fail('referral_exists', 'this person was already referred', {
    field: 'email',
    meta: { referral_id: existing.id },
  });
}

export async function recordConversion(
  db: Db,
  programId: string,
  input: ConversionInput,
  now: number,
): Promise<ConversionResult> {
  const emailNorm = normalizeEmail(input.email);
  // Compared by mailbox, not by the stored form: ALICE@ and alice+x@ reach the partner too.
  // Worked out before the transaction, which every write of the batch waits for.
  const self = mailbox(input.email);
  // One transaction: the check, the attribution and the insert see one state, and the
  // commit is shared with whatever else arrived at the same time (group commit).
  return db.transaction((tx) => convert(tx, programId, input, emailNorm, self, now));
}

/** A conversion inside the caller's transaction (a Stripe Checkout that names a click). */
export function convertIn(tx: Queryable, programId: string, input: ConversionInput, now: number): Promise<ConversionResult> {
  return convert(tx, programId, input, normalizeEmail(input.email), mailbox(input.email), now);
}

async function convert(
  tx: Queryable,
  programId: string,
  input: ConversionInput,
  emailNorm: string,
  self: string,
  now: number,
): Promise<ConversionResult> {
  // Most conversions are new people: the insert itself finds out when one is not, and the
  // earlier record is read only then (one statement fewer, a round trip on PostgreSQL).
  const credited = await creditFor(tx, programId, input, self).catch(async (err: unknown) => {
    // A retry is answered with its record even when it would be refused today (its
    // partnership declined since, say): it was accepted once.
    const existing = await referrals.findByEmail(tx, programId, emailNorm);
    if (existing) return repeat(existing, input.gr_id);
    throw err;
  });
  if ('referral' in credited) return credited;
  const referral: ReferralRow = {
    id: uuidv7(),
    program_id: programId,
    partnership_id: credited.id,
    partner_id: credited.partner_id,
    email: input.email,
    email_norm: emailNorm,
    gr_id: input.gr_id,
    uid: input.uid ?? null,
    state: 'converted',
    state_set_at: now,
    created_at: now,
    updated_at: now,
  };
  if (await referrals.insertIfAbsent(tx, referral)) {
    await addDelta(tx, { program_id: programId, partner_id: referral.partner_id, at: now, referrals: 1 });
    await emit(tx, programId, 'referral.created', renderReferral(referral), now);
    return { referral, created: true };
  }
  // The person was referred before, by this very conversion or another, maybe by another
  // process between our read and our insert.
  const earlier = await referrals.findByEmail(tx, programId, emailNorm);
  if (!earlier) throw new Error('referral vanished after a unique conflict');
  return repeat(earlier, input.gr_id);
}

/** The partnership a conversion credits; refused when there is none, it is declined, or the person is its partner. */
async function creditFor(tx: Queryable, programId: string, input: ConversionInput, self: string): Promise<CreditedPartnership> {
  const credited = await attribute(tx, programId, input.pk, input.gr_id);
  if ([credited.partner_email_norm, credited.partner_paypal_email_norm].some((own) => own !== null && mailbox(own) === self)) {
    throw fail('self_referral', 'a partner cannot refer themself', { field: 'email' });
  }
  return credited;
}
