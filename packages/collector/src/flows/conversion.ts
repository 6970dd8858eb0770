// A conversion: a referred person signed up. The first referral of a person wins, and
// a retry of the same conversion is answered with the same record.

import { fail } from '../platform/errors.js';
import type { Db, Queryable, Tx } from '../platform/db/db.js';
import * as referrals from '../modules/referrals/repo.js';
import type { ReferralRow } from '../modules/referrals/repo.js';
import { deltaInsert } from '../events/deltas.js';
import { commissionInserts, newCommission } from '../modules/commissions/ledger.js';
import { earnLead, holdDaysOf } from '../modules/rewards/service.js';
import type { CreditedPartnership } from '../modules/partnerships/model.js';
import { attribute } from './attribution.js';
import { mailbox, normalizeEmail, sameMailboxAsAny } from '../core/email.js';
import { uuidv7 } from '../core/ids.js';
import { renderReferral } from '../modules/referrals/present.js';
import { eventInserts, reactTo } from '../events/emit.js';
import type { DomainEvent } from '../events/types.js';
import { heldWith, reviewConversion } from './review-hold.js';

export interface ConversionInput {
  email: string;
  gr_id: string;
  pk?: string | undefined;
  uid?: string | undefined;
  /** A promotion code the person used: it credits its partner where neither the link nor a click does. */
  discount_code?: string | undefined;
  /** The customer's country (ISO 3166 alpha-2, upper case) and metadata, where the source tells them: a lead reward's conditions read them. */
  customer_country?: string | undefined;
  metadata?: Readonly<Record<string, string>> | undefined;
  /** Who sent a conversion through the public tracker: its address and browser (review's evidence). */
  seen?: { client: string; user_agent: string | undefined; click_flood?: boolean } | undefined;
}

export interface ConversionResult {
  referral: ReferralRow;
  /** False when an earlier request already recorded this very conversion. */
  created: boolean;
  /** The events a conversion just made wrote, for their reactions once committed. */
  events?: DomainEvent[];
}

function repeat(existing: ReferralRow, grId: string): ConversionResult {
  if (existing.gr_id === grId) return { referral: existing, created: false };
  throw fail(
    'referral_exists',
    'this person was already referred, and the first referral stands (meta.referral_id): record their payments with POST /v1/payments',
    {
      field: 'email',
      meta: { referral_id: existing.id },
    },
  );
}

export async function recordConversion(db: Db, programId: string, input: ConversionInput, now: number): Promise<ConversionResult> {
  // Reads, then one statement writes the referral with its followers: no transaction needed on PostgreSQL.
  const result = await db.readThenWrite((q) => convert(q, programId, input, now));
  // A lead reward's commission may cross a move rule's threshold: weighed in a transaction of its own, only where one reacts.
  await reactTo(db, result.events ?? [], (run) => db.transaction(run));
  return { referral: result.referral, created: result.created };
}

/** A conversion inside the caller's transaction (a Stripe Checkout that names a click). */
export async function convertIn(tx: Tx, programId: string, input: ConversionInput, now: number): Promise<ConversionResult> {
  const result = await convert(tx, programId, input, now);
  await reactTo(tx, result.events ?? [], (run) => run(tx));
  return { referral: result.referral, created: result.created };
}

/**
 * The reads come first, then every write in one go: the referral, its count in the
 * totals and its event, or nothing if the person was referred already (a retry, or
 * another process between our read and our write). On PostgreSQL outside a transaction
 * that is two round trips in all.
 */
async function convert(db: Queryable, programId: string, input: ConversionInput, now: number): Promise<ConversionResult> {
  const emailNorm = normalizeEmail(input.email);
  // Compared by mailbox, not by the stored form: ALICE@ and alice+x@ reach the partner too.
  const self = mailbox(input.email);
  const credited = await creditFor(db, programId, input, self).catch(async (err: unknown) => {
    // A retry is answered with its record even when it would be refused today (its
    // partnership declined since, say): it was accepted once.
    const existing = await referrals.findByEmail(db, programId, emailNorm);
    if (existing) return repeat(existing, input.gr_id);
    throw err;
  });
  if ('referral' in credited) return credited;
  const { columns: review, partnershipReferred } = await reviewConversion(db, programId, input, credited, emailNorm, now);
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
    ...review,
  };
  const written = [
    // A partnership referred before has had its first: its partner's first-referral notice is no row at all.
    await eventInserts(db, programId, 'referral.created', renderReferral(referral), now, { firstOfPartnership: !partnershipReferred }),
    // Held: the owner hears of it at once, with the reasons.
    ...(referral.review === 'held' ? [await eventInserts(db, programId, 'review.held', renderReferral(referral), now)] : []),
    ...(await leadCommission(db, programId, credited, referral, input, now)),
  ];
  const counted = deltaInsert({ program_id: programId, partner_id: referral.partner_id, at: now, referrals: 1 });
  if (await referrals.insertFirstOfPerson(db, referral, [counted, ...written.flatMap((w) => w.rows)])) {
    return { referral, created: true, events: written.map((w) => w.event) };
  }
  const earlier = await referrals.findByEmail(db, programId, emailNorm);
  if (!earlier) throw new Error('referral vanished after a unique conflict');
  return repeat(earlier, input.gr_id);
}

/**
 * A lead reward's commission for the sign-up, written with the referral (so once per
 * person, and not at all for a retry), with its totals and event; none in a group without
 * lead rewards, which costs no statement (the rewards are settings, kept in memory).
 */
async function leadCommission(
  db: Queryable,
  programId: string,
  credited: CreditedPartnership,
  referral: ReferralRow,
  input: ConversionInput,
  now: number,
) {
  // Only an accepted partnership earns, as its payments and clicks do.
  if (credited.state !== 'accepted') return [];
  const lead = await earnLead(db, programId, credited, { country: input.customer_country ?? null, metadata: { ...input.metadata } }, now);
  if (!lead) return [];
  const holdDays = await holdDaysOf(db, programId, credited);
  const { amount, currency, description } = lead.earned;
  const row = newCommission(programId, referral.partner_id, referral.id, amount, currency, now, {
    payable_at: now + holdDays * 86_400,
    reward_id: lead.rewardId,
    reward_description: description,
    ...heldWith(referral),
  });
  return [await commissionInserts(db, row, now)];
}

/** The partnership a conversion credits; refused when there is none, it is declined, or the person is its partner. */
async function creditFor(db: Queryable, programId: string, input: ConversionInput, self: string): Promise<CreditedPartnership> {
  const credited = await attribute(db, programId, input.pk, input.gr_id, input.discount_code);
  if (sameMailboxAsAny(self, [credited.partner_email_norm, credited.partner_paypal_email_norm])) {
    throw fail('self_referral', 'a partner cannot refer themself', { field: 'email' });
  }
  return credited;
}
