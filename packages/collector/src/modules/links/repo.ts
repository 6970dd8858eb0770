import type { Queryable } from '../../platform/db/db.js';
import { lister } from '../../platform/db/list.js';
import { insertRow, updateRow } from '../../platform/db/rows.js';
import type { LinkRow, LinkSettingsRow, LinkStats, LinkStatus } from './model.js';

export async function insert(db: Queryable, row: LinkRow): Promise<void> {
  await insertRow(db, 'links', row);
}

export function get(db: Queryable, programId: string, id: string): Promise<LinkRow | undefined> {
  return db.get<LinkRow>('SELECT * FROM links WHERE program_id = ? AND id = ?', [programId, id]);
}

export function byKey(db: Queryable, programId: string, key: string): Promise<LinkRow | undefined> {
  return db.get<LinkRow>('SELECT * FROM links WHERE program_id = ? AND key = ?', [programId, key]);
}

/** Writes the status if it is still `from`; false when it moved meanwhile. */
export async function setStatus(db: Queryable, row: LinkRow, status: LinkStatus, now: number): Promise<boolean> {
  return (await updateRow(db, 'links', row.program_id, row.id, { status, updated_at: now }, { status: row.status })) === 1;
}

export const list = lister<LinkRow>('links', { partnership_id: 'partnership_id', status: 'status', created_at: 'created_at' });

export function settings(db: Queryable, programId: string): Promise<LinkSettingsRow | undefined> {
  return db.get<LinkSettingsRow>('SELECT * FROM link_settings WHERE program_id = ?', [programId]);
}

export async function saveSettings(db: Queryable, row: LinkSettingsRow): Promise<void> {
  const { program_id, ...rest } = row;
  const names = Object.keys(rest);
  await insertRow(
    db,
    'link_settings',
    row,
    ` ON CONFLICT (program_id) DO UPDATE SET ${names.map((n) => `${n} = excluded.${n}`).join(', ')}`,
  );
}

/**
 * A link's clicks, and the referrals whose visitor's latest click on the partnership came
 * through it (the click that credited them), with those that paid.
 */
export async function stats(db: Queryable, link: LinkRow): Promise<LinkStats> {
  const clicks = await db.get<{ n: number }>(
    'SELECT count(*) AS n FROM clicks WHERE partnership_id = ? AND program_id = ? AND link_id = ?',
    [link.partnership_id, link.program_id, link.id],
  );
  const referred = await db.get<{ referrals: number; conversions: number | null }>(
    `SELECT count(*) AS referrals, sum(CASE WHEN r.state IN ('paid', 'churned') THEN 1 ELSE 0 END) AS conversions
       FROM referrals r
      WHERE r.program_id = ? AND r.partnership_id = ?
        AND (SELECT c.link_id FROM clicks c WHERE c.program_id = r.program_id AND c.gr_id = r.gr_id
              AND c.partnership_id = r.partnership_id ORDER BY c.last_seen_at DESC LIMIT 1) = ?`,
    [link.program_id, link.partnership_id, link.id],
  );
  return {
    clicks: Number(clicks?.n ?? 0),
    referrals: Number(referred?.referrals ?? 0),
    conversions: Number(referred?.conversions ?? 0),
  };
}
