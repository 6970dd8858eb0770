// Two-tier referrals (docs/two-tier.md): a recruit applies through a recruiter's link and the
// recruiter earns a share of each of the recruit's commissions, made and taken back through the
// one commission path (modules/commissions/ledger.ts) as a reaction to the recruit's commission
// events. Only two tiers: a share pays no share. Never for recruiting oneself (decision 0388).

import { fail } from '../platform/errors.js';
import type { Queryable, Tx } from '../platform/db/db.js';
import { emit, type Reaction } from '../events/emit.js';
import type { DomainEvent } from '../events/types.js';
import * as commissions from '../modules/commissions/repo.js';
import type { CommissionRow } from '../modules/commissions/model.js';
import { newCommission, recordCommission, takeBackTo } from '../modules/commissions/ledger.js';
import { keptShare } from '../core/money.js';
import { mailbox, sameMailboxAsAny } from '../core/email.js';
import { creditedBySlug, findPartnership, partnershipOfPartner } from '../modules/partnerships/service.js';
import type { PartnershipRow } from '../modules/partnerships/model.js';
import { getPartner } from '../modules/partners/service.js';
import { payoutMethodOf } from '../modules/payout-methods/service.js';
import {
  grantedFor,
  recordRecruitment,
  recordSecondTier,
  recruitmentOf,
  secondTierOf,
  settingsOf,
  shareFor,
  storedSettings,
} from '../modules/two-tier/service.js';

const SELF = 'a partner cannot recruit themself: this recruitment link is your own (the same e-mail or payout address)';

/**
 * An application through the recruitment link `via` (a recruiter's key): recorded as the new
 * partnership's recruiter while the program runs two-tier referrals and the recruiter is
 * accepted; a link of nobody's, or of a program not running it, is ignored as a stale link.
 */
export async function recruitThrough(
  tx: Tx,
  recruit: PartnershipRow,
  applicant: { email: string; paypal_email?: string | null | undefined },
  via: string,
  now: number,
): Promise<void> {
  if (!(await settingsOf(tx, recruit.program_id)).enabled) return;
  const recruiter = await creditedBySlug(tx, recruit.program_id, via.toLowerCase());
  if (recruiter?.state !== 'accepted' || recruiter.key !== via.toLowerCase()) return;
  // By mailbox, as the self-referral rule compares: "Me+x@Gmail.com" is me@gmail.com's.
  const theirs = [recruiter.partner_email_norm, recruiter.partner_paypal_email_norm];
  const mine = [applicant.email, applicant.paypal_email].filter((e): e is string => !!e);
  if (mine.some((e) => sameMailboxAsAny(e, theirs))) throw fail('self_recruitment', SELF, { field: 'via' });
  await recordRecruitment(tx, { partnership_id: recruit.id, program_id: recruit.program_id, recruiter_id: recruiter.id, created_at: now });
  const attributes = {
    recruiter_partnership_id: recruiter.id,
    recruiter_partner_id: recruiter.partner_id,
    recruit_partner_id: recruit.partner_id,
  };
  await emit(tx, recruit.program_id, 'partnership.recruited', { id: recruit.id, type: 'recruitment', attributes }, now);
}

/** Every address a partner is known or paid by (mailboxes compared as the self-referral rule does): two partners sharing one are one person (decision 0388). */
async function addressesOf(db: Queryable, programId: string, partnerId: string): Promise<string[]> {
  const partner = await getPartner(db, programId, partnerId);
  const method = await payoutMethodOf(db, programId, partnerId);
  return [
    `mailbox:${mailbox(partner.email)}`,
    ...(partner.account_id ? [`account:${partner.account_id}`] : []),
    ...[partner.paypal_email, method.paypalEmail].filter((e): e is string => !!e).map((e) => `mailbox:${mailbox(e)}`),
    ...(method.stripeAccountId ? [`stripe:${method.stripeAccountId}`] : []),
    ...(method.wiseRecipientId ? [`wise:${method.wiseRecipientId}`] : []),
  ];
}

async function samePerson(db: Queryable, programId: string, a: string, b: string): Promise<boolean> {
  const theirs = await addressesOf(db, programId, b);
  return (await addressesOf(db, programId, a)).some((x) => theirs.includes(x));
}

/** What is credited of the source now: nothing once rejected, else its amount net of its clawbacks. */
async function creditedOf(tx: Tx, source: CommissionRow): Promise<number> {
  if (source.state === 'rejected') return 0;
  return source.amount + (await commissions.clawbacksOf(tx, source.id)).reduce((n, c) => n + c.amount, 0);
}

/**
 * Brings the recruiter's share of the recruit's commission `sourceId` in line with it: made
 * once (the second_tiers row's key), when the source is credited and not held for review; then
 * taken back in the fraction the source lost, never grown. Under the recruit's lock, so two
 * processes neither make it twice nor pass the cap together.
 */
export async function followSource(tx: Tx, programId: string, sourceId: string, now: number): Promise<void> {
  const first = await commissions.get(tx, programId, sourceId);
  if (!first || first.tier_of || first.clawback_of) return;
  const recruit = await partnershipOfPartner(tx, programId, first.partner_id);
  const recruitment = recruit && (await recruitmentOf(tx, programId, recruit.id));
  if (!recruit || !recruitment) return;
  await tx.lock(`two-tier:${recruit.id}`);
  const source = (await commissions.get(tx, programId, sourceId)) ?? first;
  const credited = await creditedOf(tx, source);
  const link = await secondTierOf(tx, source.id);
  if (link) {
    const share = await commissions.get(tx, programId, link.commission_id);
    const due = keptShare(link.amount, link.source_amount - credited, link.source_amount);
    const reason = source.state === 'rejected' ? (source.reject_reason ?? 'rejected') : 'refunded';
    if (share) await takeBackTo(tx, share, due, reason, now);
    return;
  }
  if (credited <= 0 || source.review === 'held') return;
  const settings = await settingsOf(tx, programId);
  const recruiter = await findPartnership(tx, programId, recruitment.recruiter_id);
  if (!settings.enabled || recruiter?.state !== 'accepted') return;
  const granted = await grantedFor(tx, recruit.id, source.currency);
  const amount = shareFor(
    settings,
    { amount: credited, currency: source.currency, at: source.created_at },
    recruitment.created_at,
    granted,
  );
  if (amount <= 0 || (await samePerson(tx, programId, recruit.partner_id, recruiter.partner_id))) return;
  const row = newCommission(programId, recruiter.partner_id, null, amount, source.currency, now, {
    tier_of: source.id,
    payable_at: source.payable_at,
    reward_description: `Second tier: ${settings.shareBps / 100} % of a recruit's commission`,
  });
  await recordCommission(tx, row, now);
  await recordSecondTier(tx, {
    source_id: source.id,
    commission_id: row.id,
    program_id: programId,
    recruit_id: recruit.id,
    currency: source.currency,
    source_amount: credited,
    amount,
    created_at: now,
  });
}

/** The tier-1 commission an event may move: its own (made, changed) or the one a clawback takes from. */
function sourceOf(e: DomainEvent): string | null {
  if (e.type !== 'commission.created' && e.type !== 'commission.updated') return null;
  const a = e.data.attributes;
  if (a.tier_of) return null;
  return a.clawback_of ?? e.data.id;
}

export const secondTiers: Reaction = {
  // In memory: a program that never set two-tier referrals costs no statement.
  wants: async (db, e) => sourceOf(e) !== null && (await storedSettings(db, e.programId)) !== null,
  async run(tx, e) {
    await followSource(tx, e.programId, sourceOf(e)!, e.at);
  },
};
