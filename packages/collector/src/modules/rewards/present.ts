// Groups, rewards and moves as the API shows them: pure functions of their rows.

import { present, type Resource } from '../../platform/resource.js';
import { describeReward } from './describe.js';
import type { GroupRow, MoveRow } from './groups-repo.js';
import { rulesOf } from './model.js';
import type { RewardRow } from './repo.js';
import { toReward } from './repo.js';

export function renderGroup(row: GroupRow): Resource {
  return {
    id: row.id,
    type: 'group',
    attributes: {
      name: row.name,
      slug: row.slug,
      default: row.is_default === 1,
      hold_days: row.hold_days,
      minimum_payout: row.minimum_payout === null ? null : (JSON.parse(row.minimum_payout) as Record<string, number>),
      auto_accept: row.auto_accept === null ? null : row.auto_accept === 1,
      takes_applications: row.takes_applications === 1,
      move_rules: rulesOf(row),
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
  };
}

export function renderReward(row: RewardRow): Resource {
  const r = toReward(row);
  return {
    id: row.id,
    type: 'reward',
    attributes: {
      group_id: row.group_id,
      event: r.event,
      kind: r.kind,
      amount: r.amount,
      currency: r.currency,
      duration: r.duration,
      conditions: r.conditions,
      daily_cap: r.daily_cap,
      position: r.position,
      base: row.base === 1,
      description: describeReward(r),
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
  };
}

export function renderMove(row: MoveRow): Resource {
  return {
    id: row.id,
    type: 'group_move',
    attributes: present({
      partnership_id: row.partnership_id,
      partner_id: row.partner_id,
      from_group_id: row.from_group_id,
      to_group_id: row.to_group_id,
      moved_by: row.moved_by,
      reason: row.reason,
      created_at: row.created_at,
    }),
  };
}
