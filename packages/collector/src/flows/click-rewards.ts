// Click rewards are paid by the day, never per click (docs/rewards.md): once a UTC day is
// over, each partnership in a group with a click reward earns its unique visitors times
// the amount, up to the daily cap, as one commission. A day is settled once, in the
// transaction that makes its commission, so two runs (two processes) pay it once.

import type { Db } from '../platform/db/db.js';
import { newCommission, recordCommission } from '../modules/commissions/ledger.js';
import * as clicks from '../modules/rewards/clicks-repo.js';
import { describeClickDay } from '../modules/rewards/describe.js';
import { earnClicks, holdDaysOf } from '../modules/rewards/service.js';

const DAY = 86_400;
/** Days back a run looks for unsettled ones: a server down for a week still pays them. */
export const CLICK_DAYS_BACK = 7;

/** Pays every day that ended and is not settled yet; returns the commissions made. */
export async function payClickRewards(db: Db, now: number): Promise<number> {
  const today = Math.floor(now / DAY) * DAY;
  let made = 0;
  for (const programId of await clicks.programsPayingClicks(db)) {
    for (const d of await clicks.unsettledDays(db, programId, today - CLICK_DAYS_BACK * DAY, today)) {
      const visitors = Number(d.visitors);
      const earned = await earnClicks(db, programId, d, visitors, now);
      const paid = await db.transaction(async (tx) => {
        const row =
          earned &&
          newCommission(programId, d.partner_id, null, earned.amount, earned.reward.currency ?? '', now, {
            payable_at: d.day + DAY + (await holdDaysOf(tx, programId, d)) * DAY,
            reward_id: earned.reward.id,
            reward_description: describeClickDay(earned.reward, visitors, earned.amount),
          });
        const settled = { program_id: programId, partnership_id: d.partnership_id, day: d.day, visitors, commission_id: row?.id ?? null };
        if (!(await clicks.settle(tx, settled)) || !row) return false;
        await recordCommission(tx, row, now);
        return true;
      });
      if (paid) made++;
    }
  }
  return made;
}
