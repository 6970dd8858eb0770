// Partner groups (docs/rewards.md): each program has a default one, which every partnership
// is in until moved; a group has its rewards, holding period, minimum payout, whether its
// applications are accepted at once, and rules that move a partnership on when its totals
// cross a threshold. Every move is recorded, and a rule moves a partnership once.

import { uuidv7 } from '../core/ids.js';
import { normalizeSlug, slugFromName } from '../core/slugs.js';
import type { Queryable, Tx } from '../platform/db/db.js';
import { fail, found } from '../platform/errors.js';
import { minimumPayout } from '../core/payout-terms.js';
import { renderPartnership } from '../modules/partnerships/present.js';
import * as partnerships from '../modules/partnerships/repo.js';
import type { PartnershipRow } from '../modules/partnerships/model.js';
import * as programs from '../modules/programs/repo.js';
import type { ProgramRow } from '../modules/programs/model.js';
import { emit } from '../events/emit.js';
import * as groups from '../modules/rewards/groups-repo.js';
import type { GroupRow, MoveRow } from '../modules/rewards/groups-repo.js';
import { type GroupInput, MAX_REWARDS, type MoveRule, type RewardInput, rulesOf } from '../modules/rewards/model.js';
import * as rewards from '../modules/rewards/repo.js';
import type { RewardRow } from '../modules/rewards/repo.js';
import { groupOf, partnerTotal, programRewards } from '../modules/rewards/service.js';

/** Moves one change may chain (a partner crossing two tiers at once); a cycle of rules stops here. */
const MAX_CHAIN = 5;

/** A rule's identity in the record of moves: the same rule never moves a partnership twice. */
const ruleKey = (from: string, r: MoveRule): string =>
  `${from}>${r.to_group_id}:${r.metric}:${r.currency ?? ''}:${r.threshold}:${r.window_days ?? 'all'}`;

/** The default group and its base sale reward (the program's rate) of a new program. */
export async function insertDefaultGroup(tx: Queryable, program: ProgramRow, now: number): Promise<GroupRow> {
  const group = newGroup(program.id, 'Default', 'default', now, 1);
  await groups.insert(tx, group);
  await rewards.insert(tx, {
    id: uuidv7(),
    program_id: program.id,
    group_id: group.id,
    ...rewards.columnsOf({
      event: 'sale',
      kind: 'percentage',
      amount: program.commission_rate_bps,
      currency: null,
      duration: rewards.durationOfMonths(program.recurring_months),
      conditions: null,
      daily_cap: null,
      position: 0,
    }),
    base: 1,
    created_at: now,
    updated_at: now,
  });
  return group;
}

function newGroup(programId: string, name: string, slug: string, now: number, isDefault = 0): GroupRow {
  return {
    id: uuidv7(),
    program_id: programId,
    name,
    slug,
    is_default: isDefault,
    hold_days: null,
    minimum_payout: null,
    auto_accept: null,
    takes_applications: 1,
    move_rules: '[]',
    created_at: now,
    updated_at: now,
  };
}

/** The stored form of what a request changes; the move rules' groups are checked to be the program's. */
async function apply(db: Queryable, row: GroupRow, input: GroupInput): Promise<GroupRow> {
  const next = { ...row };
  if (input.name !== undefined) {
    next.name = input.name.trim();
    if (!next.name) throw fail('missing_field', 'a group needs a name', { field: 'name' });
  }
  if (input.slug !== undefined) next.slug = normalizeSlug(input.slug);
  if (input.hold_days !== undefined) next.hold_days = input.hold_days;
  if (input.minimum_payout !== undefined) next.minimum_payout = minimumPayout(input.minimum_payout);
  if (input.auto_accept !== undefined) next.auto_accept = input.auto_accept === null ? null : input.auto_accept ? 1 : 0;
  if (input.takes_applications !== undefined) next.takes_applications = input.takes_applications ? 1 : 0;
  if (input.move_rules !== undefined) {
    for (const [i, r] of input.move_rules.entries()) {
      const field = `move_rules.${i}.to_group_id`;
      if (r.to_group_id === row.id) throw fail('invalid_field', 'a rule moves to another group', { field });
      if (!(await groups.get(db, row.program_id, r.to_group_id))) throw fail('invalid_field', `no group ${r.to_group_id}`, { field });
    }
    next.move_rules = JSON.stringify(input.move_rules);
  }
  return next;
}

async function assertSlugFree(db: Queryable, row: GroupRow): Promise<void> {
  const taken = (await groups.ofProgram(db, row.program_id)).some((g) => g.slug === row.slug && g.id !== row.id);
  if (taken) throw fail('conflict', 'another group of this program has this slug', { field: 'slug' });
}

export async function createGroup(tx: Tx, programId: string, input: GroupInput & { name: string }, now: number): Promise<GroupRow> {
  const slug = input.slug === undefined ? slugFromName(input.name) : normalizeSlug(input.slug);
  const row = await apply(tx, newGroup(programId, input.name, slug, now), input);
  await assertSlugFree(tx, row);
  await groups.insert(tx, row);
  return row;
}

export async function updateGroup(tx: Tx, programId: string, id: string, input: GroupInput, now: number): Promise<GroupRow> {
  const row = await apply(tx, found(await groups.get(tx, programId, id), 'group', id), input);
  await assertSlugFree(tx, row);
  await groups.update(tx, { ...row, updated_at: now });
  return { ...row, updated_at: now };
}

export async function deleteGroup(tx: Tx, programId: string, id: string): Promise<void> {
  const row = found(await groups.get(tx, programId, id), 'group', id);
  if (row.is_default === 1) throw fail('conflict', 'the default group stays: every partnership not moved is in it');
  const referring = (await groups.ofProgram(tx, programId)).filter((g) => rulesOf(g).some((r) => r.to_group_id === id));
  if (referring.length > 0) throw fail('conflict', `the move rules of ${referring.map((g) => g.name).join(', ')} move partners here`);
  if ((await groups.remove(tx, programId, id)) === 0) {
    throw fail('conflict', `${await groups.members(tx, programId, id)} partnerships are in this group: move them first`);
  }
}

/** The group a new partnership joins: the one named (an application through a group's page, or the API), else the default. */
export async function joinedGroup(db: Queryable, programId: string, groupId: string | undefined): Promise<GroupRow> {
  const pr = await programRewards(db, programId);
  if (groupId === undefined) return groupOf(pr, null);
  const group = pr.groups.find((g) => g.id === groupId);
  if (!group) throw fail('invalid_field', `no group ${groupId}`, { field: 'group_id' });
  return group;
}

/** Puts the partnership in another group, records why, and tells webhooks; false when a rule already moved it once. */
export async function moveTo(
  tx: Tx,
  partnership: PartnershipRow,
  to: GroupRow,
  by: { by: 'owner'; reason: string } | { by: 'rule'; rule: string; reason: string },
  now: number,
): Promise<boolean> {
  if (partnership.group_id === to.id) return false;
  const move: MoveRow = {
    id: uuidv7(),
    program_id: partnership.program_id,
    partnership_id: partnership.id,
    partner_id: partnership.partner_id,
    from_group_id: partnership.group_id,
    to_group_id: to.id,
    moved_by: by.by,
    rule: by.by === 'rule' ? by.rule : null,
    reason: by.reason,
    created_at: now,
  };
  if (!(await groups.insertMove(tx, move))) return false;
  await groups.setGroup(tx, partnership.program_id, partnership.id, to.id, now);
  const program = await programs.get(tx, partnership.program_id);
  if (program) {
    const moved = { ...partnership, group_id: to.id, updated_at: now };
    await emit(tx, partnership.program_id, 'partnership.group_changed', renderPartnership(moved, program), now);
  }
  return true;
}

/** The partner's total of a rule's metric over its window. */
const totalOf = (db: Queryable, p: PartnershipRow, rule: MoveRule, now: number): Promise<number> =>
  partnerTotal(db, p.program_id, p.partner_id, rule.metric, rule.currency, rule.window_days, now);

/**
 * After a change that may raise the partner's totals (a payment, a commission): the first
 * rule of the partnership's group whose threshold is reached moves it, and the next
 * group's rules are weighed in turn. A group without rules costs nothing.
 */
export async function applyMoveRules(tx: Tx, programId: string, partnershipId: string, now: number): Promise<void> {
  // Two payments at once would each see only its own customer: the second waits here, then reads the first's totals.
  await tx.lock(`group-moves:${partnershipId}`);
  for (let step = 0; step < MAX_CHAIN; step++) {
    const pr = await programRewards(tx, programId);
    const partnership = await partnerships.get(tx, programId, partnershipId);
    if (!partnership) return;
    const group = groupOf(pr, partnership.group_id);
    let moved = false;
    for (const rule of rulesOf(group)) {
      const to = pr.groups.find((g) => g.id === rule.to_group_id);
      if (!to || (await totalOf(tx, partnership, rule, now)) < rule.threshold) continue;
      const reason = `${rule.metric} ${rule.metric === 'customers' ? '' : `${rule.currency} `}reached ${rule.threshold}${rule.window_days === null ? '' : ` in ${rule.window_days} days`}`;
      moved = await moveTo(tx, partnership, to, { by: 'rule', rule: ruleKey(group.id, rule), reason }, now);
      if (moved) break;
    }
    if (!moved) return;
  }
}

/** Whether any group of the program has move rules (in memory): only then is an event weighed. */
export async function programHasMoveRules(db: Queryable, programId: string): Promise<boolean> {
  return (await programRewards(db, programId)).groups.some((g) => rulesOf(g).length > 0);
}

/** Whether the partnership's group has move rules: only then is a change weighed against them. */
export async function hasMoveRules(db: Queryable, programId: string, groupId: string | null): Promise<boolean> {
  return rulesOf(groupOf(await programRewards(db, programId), groupId)).length > 0;
}

/** A new reward of the group's. */
export async function createReward(tx: Tx, programId: string, groupId: string, input: RewardInput, now: number): Promise<RewardRow> {
  found(await groups.get(tx, programId, groupId), 'group', groupId);
  const count = (await rewards.ofProgram(tx, programId)).filter((r) => r.group_id === groupId).length;
  if (count >= MAX_REWARDS) throw fail('invalid_field', `a group has at most ${MAX_REWARDS} rewards`, { field: 'event' });
  const row: RewardRow = {
    id: uuidv7(),
    program_id: programId,
    group_id: groupId,
    ...rewards.columnsOf(input),
    base: 0,
    created_at: now,
    updated_at: now,
  };
  await assertOneCurrency(tx, row);
  await rewards.insert(tx, row);
  return row;
}

/** Replaces a reward's terms; the base reward is the program's rate, changed through the program. */
export async function updateReward(tx: Tx, programId: string, id: string, input: RewardInput, now: number): Promise<RewardRow> {
  const row = found(await rewards.get(tx, programId, id), 'reward', id);
  if (row.base === 1) throw baseReward();
  const next: RewardRow = { ...row, ...rewards.columnsOf(input), updated_at: now };
  await assertOneCurrency(tx, next);
  await rewards.update(tx, next);
  return next;
}

export async function deleteReward(tx: Tx, programId: string, id: string): Promise<void> {
  const row = found(await rewards.get(tx, programId, id), 'reward', id);
  if (row.base === 1) throw baseReward();
  await rewards.remove(tx, programId, id);
}

const baseReward = () =>
  fail('conflict', "this is the program's own rate: change commission_rate_bps and recurring_months with PATCH /v1/program");

/** A group's lead rewards share one currency, as do its click rewards: their amounts are compared. */
async function assertOneCurrency(db: Queryable, row: RewardRow): Promise<void> {
  if (row.event === 'sale') return;
  const others = (await rewards.ofProgram(db, row.program_id)).filter(
    (r) => r.group_id === row.group_id && r.event === row.event && r.id !== row.id,
  );
  const other = others.find((r) => r.currency !== row.currency);
  if (other) throw fail('invalid_field', `must be ${other.currency}, as the group's other ${row.event} rewards`, { field: 'currency' });
}
