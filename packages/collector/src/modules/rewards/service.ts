// What a partnership earns, from its group's rewards (docs/rewards.md). A program's groups
// and rewards are settings: kept in memory until one changes, so a conversion or a payment
// in a program without lead rewards or conditions on totals reads nothing more than before.
// A partnership's own rate still wins over its group's sale rewards, and its own recurring
// limit over their durations.

import type { Queryable } from '../../platform/db/db.js';
import { remembered } from '../../platform/db/remembered.js';
import type { PartnershipRow } from '../partnerships/model.js';
import type { ProgramRow } from '../programs/model.js';
import { partnerTotals } from '../stats/service.js';
import { heldBack } from '../review/service.js';
import { findProgram } from '../programs/service.js';
import { addMonths, firstSet } from '../../core/payout-terms.js';
import {
  clickEarnings,
  clickReward,
  covers,
  evaluateLead,
  evaluateSale,
  matches,
  type TotalsWindow,
  totalsFrom,
  windowsOf,
} from './evaluate.js';
import { describeEarned, describeReward } from './describe.js';
import * as groups from './groups-repo.js';
import type { GroupRow } from './groups-repo.js';
import type { Earned, LeadFacts, Reward, SaleFacts } from './model.js';
import * as rewards from './repo.js';
import type { RewardRow } from './repo.js';

const DAY = 86_400;

export interface ProgramRewards {
  groups: GroupRow[];
  rewards: RewardRow[];
  /** The program's own holding period and minimum payout, for groups that keep them. */
  program: Pick<ProgramRow, 'hold_days' | 'minimum_payout'>;
}

/** The program's groups and rewards, from memory while no setting changed. */
export function programRewards(db: Queryable, programId: string): Promise<ProgramRewards> {
  return remembered(db, `rewards:${programId}`, async () => ({
    groups: await groups.ofProgram(db, programId),
    rewards: await rewards.ofProgram(db, programId),
    program: (await findProgram(db, programId)) ?? { hold_days: 0, minimum_payout: '{}' },
  }));
}

/** The partnership's group: its own, or the program's default one (a partnership made before groups, or whose group is gone). */
export function groupOf(pr: ProgramRewards, groupId: string | null): GroupRow {
  const own = groupId === null ? undefined : pr.groups.find((g) => g.id === groupId);
  const found = own ?? pr.groups.find((g) => g.is_default === 1);
  if (!found) throw new Error('a program without its default group');
  return found;
}

const rewardsIn = (pr: ProgramRewards, group: GroupRow, event: Reward['event']): Reward[] =>
  pr.rewards.filter((r) => r.group_id === group.id && r.event === event).map(rewards.toReward);

/** The partner's totals the rewards' conditions ask for, in [now - window, now]. */
async function totalsFor(db: Queryable, programId: string, partnerId: string, wanted: readonly TotalsWindow[], now: number) {
  const fetched = await Promise.all(
    wanted.map(async (window) => {
      const currency = window.metric === 'revenue' ? window.currency : null;
      return { window, value: await partnerTotal(db, programId, partnerId, window.metric, currency, window.windowDays, now) };
    }),
  );
  return totalsFrom(fetched);
}

/**
 * A partner's total of a measure over the last `windowDays` (null: all time): paying
 * customers (counted beside each payment's currency, so summed over all), or the money of
 * one currency. What rewards' conditions and groups' move rules compare. What review holds
 * or rejected counts for nothing until approved (docs/review.md): made-up sign-ups must not
 * lift a partner into a better-paid group.
 */
export async function partnerTotal(
  db: Queryable,
  programId: string,
  partnerId: string,
  metric: 'customers' | 'revenue' | 'commissions',
  currency: string | null,
  windowDays: number | null,
  now: number,
): Promise<number> {
  const from = windowDays === null ? 0 : now - windowDays * DAY;
  const sum = (rows: ReadonlyArray<Record<typeof metric | 'currency', string | number>>) =>
    rows.filter((r) => metric === 'customers' || r.currency === currency).reduce((n, r) => n + Number(r[metric]), 0);
  return sum(await partnerTotals(db, programId, from, now + 1, [partnerId])) - sum(await heldBack(db, programId, partnerId, from, now + 1));
}

/** What the sale facts carry besides the partner's totals, which are looked up here. */
export type Sale = Omit<SaleFacts, 'partner'>;

export type SaleOutcome = { earned: Earned; rewardId: string | null } | { earned: undefined; reason: string };

/** What a payment earns the partnership: the winning reward, or why none pays. */
export async function earnSale(
  db: Queryable,
  program: ProgramRow,
  partnership: PartnershipRow,
  sale: Sale,
  now: number,
): Promise<SaleOutcome> {
  const pr = await programRewards(db, program.id);
  const own = partnership.recurring_months === null ? undefined : rewards.durationOfMonths(partnership.recurring_months);
  const candidates: Reward[] =
    partnership.commission_rate_bps !== null
      ? [ownRate(partnership.commission_rate_bps, own ?? rewards.durationOfMonths(program.recurring_months))]
      : rewardsIn(pr, groupOf(pr, partnership.group_id), 'sale').map((r) => (own ? { ...r, duration: own } : r));
  const facts: SaleFacts = { ...sale, partner: await totalsFor(db, program.id, partnership.partner_id, windowsOf(candidates), now) };
  const earned = evaluateSale(candidates, facts);
  if (earned) return { earned, rewardId: earned.reward.id === OWN_RATE ? null : earned.reward.id };
  // A reward that applies but pays 0 (a rate of 0, or a share that rounds to nothing) makes a
  // pending commission at 0, as the program's rate always did: its payment stays refundable.
  const nothing = candidates.find(
    (r) => covers(r, facts) && (r.kind === 'percentage' || r.currency === facts.currency.toUpperCase()) && matches(r.conditions, facts),
  );
  if (nothing) {
    const zero = { reward: nothing, amount: 0, currency: facts.currency, description: describeEarned(nothing, facts) };
    return { earned: zero, rewardId: nothing.id === OWN_RATE ? null : nothing.id };
  }
  // Why not: a reward that would pay but for its duration says so, in the words the recurring limit always used.
  const timeless = evaluateSale(
    candidates.map((r) => ({ ...r, duration: { kind: 'lifetime' } as const })),
    facts,
  );
  const lapsed = timeless ? candidates.find((r) => r.id === timeless.reward.id)?.duration : undefined;
  if (lapsed?.kind === 'months')
    return { earned: undefined, reason: `beyond the recurring limit of ${lapsed.months} months from the first payment` };
  if (lapsed?.kind === 'once') return { earned: undefined, reason: 'only the first payment earns this reward' };
  return { earned: undefined, reason: `no reward of the group "${groupOf(pr, partnership.group_id).name}" applies to this payment` };
}

/** The partnership's own rate, weighed as the only sale reward. */
const OWN_RATE = 'own-rate';
const ownRate = (bps: number, duration: Reward['duration']): Reward => ({
  id: OWN_RATE,
  event: 'sale',
  kind: 'percentage',
  amount: bps,
  currency: null,
  duration,
  conditions: null,
  daily_cap: null,
  position: 0,
});

/** What a conversion earns the partnership from its group's lead rewards; none in most programs, at no cost. */
export async function earnLead(
  db: Queryable,
  programId: string,
  partnership: Pick<PartnershipRow, 'partner_id' | 'group_id'>,
  lead: Omit<LeadFacts, 'partner'>,
  now: number,
): Promise<{ earned: Earned; rewardId: string } | undefined> {
  const pr = await programRewards(db, programId);
  const candidates = rewardsIn(pr, groupOf(pr, partnership.group_id), 'lead');
  if (candidates.length === 0) return undefined;
  const facts: LeadFacts = { ...lead, partner: await totalsFor(db, programId, partnership.partner_id, windowsOf(candidates), now) };
  const earned = evaluateLead(candidates, facts);
  return earned && { earned, rewardId: earned.reward.id };
}

/** What a day's unique visitors earn the partnership from its group's click rewards, up to the daily cap. */
export async function earnClicks(
  db: Queryable,
  programId: string,
  partnership: Pick<PartnershipRow, 'partner_id' | 'group_id'>,
  visitors: number,
  now: number,
): Promise<{ reward: Reward; amount: number } | undefined> {
  const pr = await programRewards(db, programId);
  const candidates = rewardsIn(pr, groupOf(pr, partnership.group_id), 'click');
  if (candidates.length === 0) return undefined;
  const facts: LeadFacts = {
    country: null,
    metadata: {},
    partner: await totalsFor(db, programId, partnership.partner_id, windowsOf(candidates), now),
  };
  const reward = clickReward(candidates, facts);
  const amount = reward ? clickEarnings(reward, visitors) : 0;
  return reward && amount > 0 ? { reward, amount } : undefined;
}

/** A payment to preview: what a partner of the group would earn for it in a given month of the customer's. */
export interface PreviewInput {
  amount: number;
  currency: string;
  /** 1 for the first payment, 3 for a renewal in the customer's third month. */
  month: number;
  product_id?: string | undefined;
  price_id?: string | undefined;
  customer_country?: string | undefined;
}

/**
 * "What does a partner in this group earn for a $49 monthly plan in month 3?": the group's
 * sale rewards weighed for such a payment, for a partner with no totals yet.
 */
export async function previewSale(db: Queryable, programId: string, groupId: string, input: PreviewInput, now: number) {
  const pr = await programRewards(db, programId);
  const group = pr.groups.find((g) => g.id === groupId);
  if (!group) return undefined;
  const paidAt = addMonths(now, input.month - 1);
  const facts: SaleFacts = {
    amount: input.amount,
    currency: input.currency,
    productIds: input.product_id ? [input.product_id] : [],
    priceIds: input.price_id ? [input.price_id] : [],
    paidAt,
    firstPaymentAt: input.month === 1 ? undefined : now,
    country: input.customer_country ?? null,
    metadata: {},
    partner: { customers: () => 0, revenue: () => 0 },
  };
  return evaluateSale(rewardsIn(pr, group, 'sale'), facts) ?? null;
}

/** What a reward pays, and when, without its identity: the portal says it in the partner's language (docs/languages.md). */
export type RewardTerms = Pick<Reward, 'event' | 'kind' | 'amount' | 'currency' | 'duration' | 'conditions' | 'daily_cap'>;

export const termsOf = ({ event, kind, amount, currency, duration, conditions, daily_cap }: Reward): RewardTerms => ({
  event,
  kind,
  amount,
  currency,
  duration,
  conditions,
  daily_cap,
});

/** A group as partners read it: its name and each of its rewards in words (English) and as terms. */
export interface GroupInWords {
  id: string;
  slug: string;
  name: string;
  rewards: string[];
  terms: RewardTerms[];
  /** Applications to it are accepted at once. */
  autoAccept: boolean;
  /** The program's default group: where an application that names none goes. */
  isDefault: boolean;
}

export function groupInWords(pr: ProgramRewards, group: GroupRow, programAutoAccept: boolean): GroupInWords {
  const mine = pr.rewards.filter((r) => r.group_id === group.id).map(rewards.toReward);
  return {
    id: group.id,
    slug: group.slug,
    name: group.name,
    rewards: mine.map(describeReward),
    terms: mine.map(termsOf),
    autoAccept: group.auto_accept === null ? programAutoAccept : group.auto_accept === 1,
    isDefault: group.is_default === 1,
  };
}

/** The groups of a program that take applications, in words: what its public page lists. */
export async function groupsTakingApplications(db: Queryable, program: ProgramRow): Promise<GroupInWords[]> {
  const pr = await programRewards(db, program.id);
  return pr.groups.filter((g) => g.takes_applications === 1).map((g) => groupInWords(pr, g, program.auto_accept === 1));
}

/** The partnership's group, in words: what its partner reads in the portal. */
export async function partnershipGroup(
  db: Queryable,
  programId: string,
  groupId: string | null,
  programAutoAccept: boolean,
): Promise<GroupInWords> {
  const pr = await programRewards(db, programId);
  return groupInWords(pr, groupOf(pr, groupId), programAutoAccept);
}

/** The holding period and minimum payout of a group: its own, else the program's (a partnership's own still win over them). */
export async function groupRules(
  db: Queryable,
  programId: string,
  groupId: string | null,
): Promise<{ holdDays: number; minimumPayout: string }> {
  const pr = await programRewards(db, programId);
  const group = groupOf(pr, groupId);
  return {
    holdDays: firstSet(undefined, group.hold_days, pr.program.hold_days),
    minimumPayout: firstSet(undefined, group.minimum_payout, pr.program.minimum_payout),
  };
}

/** A partnership's holding period in days: its own, else its group's, else the program's. */
export async function holdDaysOf(
  db: Queryable,
  programId: string,
  p: { hold_days: number | null; group_id: string | null },
): Promise<number> {
  const pr = await programRewards(db, programId);
  return firstSet(p.hold_days, groupOf(pr, p.group_id).hold_days, pr.program.hold_days);
}

/** The program's group, or undefined. */
export function findGroup(db: Queryable, programId: string, id: string): Promise<GroupRow | undefined> {
  return groups.get(db, programId, id);
}
