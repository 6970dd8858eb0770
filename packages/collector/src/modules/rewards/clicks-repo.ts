// What a day of clicks earned each partnership under a click reward, settled once per day.

import type { Queryable } from '../../platform/db/db.js';
import { insertRow } from '../../platform/db/rows.js';

export interface VisitorDay {
  partnership_id: string;
  partner_id: string;
  group_id: string | null;
  /** The partnership's own holding period; null: its group's. */
  hold_days: number | null;
  day: number;
  visitors: number;
}

/**
 * Unique visitors (click ids) per accepted partnership and UTC day in [from, to), leaving
 * out the days already settled. Raw clicks outlive this window (their retention is longer).
 */
export function unsettledDays(db: Queryable, programId: string, from: number, to: number): Promise<VisitorDay[]> {
  return db.all<VisitorDay>(
    `SELECT c.partnership_id, ps.partner_id, ps.group_id, ps.hold_days, (c.created_at / 86400) * 86400 AS day, COUNT(DISTINCT c.gr_id) AS visitors
       FROM clicks c JOIN partnerships ps ON ps.id = c.partnership_id AND ps.state = 'accepted'
      WHERE c.program_id = ? AND c.created_at >= ? AND c.created_at < ?
        AND NOT EXISTS (SELECT 1 FROM click_reward_days d WHERE d.partnership_id = c.partnership_id AND d.day = (c.created_at / 86400) * 86400)
      GROUP BY c.partnership_id, ps.partner_id, ps.group_id, ps.hold_days, (c.created_at / 86400) * 86400
      ORDER BY day, c.partnership_id`,
    [programId, from, to],
  );
}

/** Programs with a click reward in any group: the only ones the daily job reads clicks of. */
export function programsPayingClicks(db: Queryable): Promise<string[]> {
  return db
    .all<{ program_id: string }>("SELECT DISTINCT program_id FROM rewards WHERE event = 'click'")
    .then((r) => r.map((x) => x.program_id));
}

/** Settles the day; false when another run settled it first. */
export async function settle(
  db: Queryable,
  row: { program_id: string; partnership_id: string; day: number; visitors: number; commission_id: string | null },
): Promise<boolean> {
  return (await insertRow(db, 'click_reward_days', row, 'ON CONFLICT DO NOTHING')) === 1;
}
