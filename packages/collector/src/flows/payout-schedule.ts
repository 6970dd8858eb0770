// Scheduled payout runs (docs/payouts.md, "A schedule"): when a program's period begins
// (weekly on a weekday, monthly on a day of month, at local midnight in its time zone), the
// schedule makes the run an admin's "Make a payout run" makes (draftRun, one path), as a
// draft that waits for an owner's approval, and tells the owners. Each program and period is
// claimed by a row in the run's own transaction, so two processes make one run; nothing
// payable claims the period and makes none.

import type { Logger } from 'pino';
import type { Db } from '../platform/db/db.js';
import { describeCause } from '../platform/errors.js';
import type { Schedule } from '../modules/payout-methods/model.js';
import { scheduledPrograms } from '../modules/payout-methods/service.js';
import * as runs from '../modules/payout-runs/repo.js';
import { notice } from '../modules/notifications/derive.js';
import * as notifications from '../modules/notifications/repo.js';
import { localDateAt, localMidnight } from '../modules/stats/service.js';
import { draftRun } from './payout-send.js';

/** Who a scheduled run's `created_by` names. */
export const BY_SCHEDULE = 'the schedule';

const isoDate = (t: number): string => new Date(t).toISOString().slice(0, 10);

/** The period of `schedule` that `now` is in: its first local date (its key) and when it began; undefined when off. */
export function periodAt(schedule: Schedule, now: number): { period: string; startsAt: number } | undefined {
  if (schedule.every === 'off') return undefined;
  const { y, m, d, weekday } = localDateAt(schedule.timeZone, now);
  // Dates counted in UTC milliseconds are only labels here: the instant is localMidnight's.
  const start =
    schedule.every === 'weekly'
      ? Date.UTC(y, m - 1, d - ((weekday - schedule.day + 7) % 7))
      : Date.UTC(y, d >= schedule.day ? m - 1 : m - 2, schedule.day);
  const day = new Date(start);
  const startsAt = localMidnight(schedule.timeZone, day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate());
  return { period: isoDate(start), startsAt };
}

export interface ScheduledRun {
  programId: string;
  period: string;
  /** The run made; undefined when nothing was payable. */
  runId: string | undefined;
}

/**
 * One look at every schedule that is on: a program whose current period began after its
 * schedule was set, and is not claimed yet, gets its run now. A program that fails is
 * logged and left unclaimed for the next look; the others go on.
 */
export async function runPayoutSchedules(db: Db, now: number, log?: Logger): Promise<ScheduledRun[]> {
  const made: ScheduledRun[] = [];
  for (const { programId, schedule } of await scheduledPrograms(db)) {
    const at = periodAt(schedule, now);
    if (!at || at.startsAt < (schedule.setAt ?? 0)) continue;
    try {
      const done = await scheduledRun(db, programId, at.period, now);
      if (done) made.push(done);
    } catch (err) {
      log?.warn(
        { cause: describeCause(err), program: programId, period: at.period },
        'a scheduled payout run failed; the next look retries',
      );
    }
  }
  return made;
}

async function scheduledRun(db: Db, programId: string, period: string, now: number): Promise<ScheduledRun | undefined> {
  return db.transaction(async (tx) => {
    // The claim first: a second process waits on its key, then finds the period taken.
    if (!(await runs.claimPeriod(tx, programId, period, now))) return undefined;
    const { run } = await draftRun(tx, programId, BY_SCHEDULE, now);
    if (!run) return { programId, period, runId: undefined };
    await runs.setPeriodRun(tx, programId, period, run.id);
    await notifications.insert(tx, notice(programId, 'payout_run_waiting', 'owners', null, run.id, { run_id: run.id, period }, now));
    return { programId, period, runId: run.id };
  });
}
