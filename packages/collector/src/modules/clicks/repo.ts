import type { Param, Queryable } from '../../platform/db/db.js';
import { lister } from '../../platform/db/list.js';
import { insertRow } from '../../platform/db/rows.js';
import { BUCKET_SECONDS } from '../../events/deltas.js';

export interface ClickRow {
  id: string;
  program_id: string;
  partnership_id: string;
  gr_id: string;
  pk: string;
  url: string | null;
  referrer: string | null;
  /** The partner's link (modules/links) it came through; null: the partnership's own key. */
  link_id: string | null;
  created_at: number;
  /** Moved forward by a repeat, so the latest click of a visitor stays the one credited. */
  last_seen_at: number;
}

export async function insert(db: Queryable, row: ClickRow): Promise<void> {
  await insertRow(db, 'clicks', row);
}

/** A click of the same visitor on the same partnership first seen after `since`. */
export function findRecent(
  db: Queryable,
  programId: string,
  grId: string,
  partnershipId: string,
  since: number,
): Promise<ClickRow | undefined> {
  // The visitor's few clicks, in clicks_gr_id's order: on PostgreSQL that order keeps the
  // planner on them, where created_at's drew it to the link's (clicks_partnership) or the
  // program's (clicks_list) clicks of the last 30 minutes, thousands at volume; SQLite, which
  // has no table statistics, is told the index outright. That walk cost a click 257× the
  // bare request's CPU on SQLite in the bench, and 13× on PostgreSQL. (A visitor has one
  // click per link within the 30 minutes, so which is newest is the same question.)
  const visitor = db.engine === 'sqlite' ? ' INDEXED BY clicks_gr_id' : '';
  return db.get<ClickRow>(
    `SELECT * FROM clicks${visitor} WHERE program_id = ? AND gr_id = ? AND partnership_id = ? AND created_at > ?
      ORDER BY last_seen_at DESC LIMIT 1`,
    [programId, grId, partnershipId, since],
  );
}

/** By the whole primary key, partition key included: on PostgreSQL the update plans and locks only the click's month. */
export async function touch(db: Queryable, click: Pick<ClickRow, 'program_id' | 'id' | 'created_at'>, now: number): Promise<void> {
  await db.run('UPDATE clicks SET last_seen_at = ? WHERE program_id = ? AND id = ? AND created_at = ?', [
    now,
    click.program_id,
    click.id,
    click.created_at,
  ]);
}

/** Newest first; by partnership (clicks_list, clicks_partnership); a cursor's page reads only the months it needs. */
export const list = lister<ClickRow>('clicks', { partnership_id: 'partnership_id', created_at: 'created_at' }, { rangePartitioned: true });

export function get(db: Queryable, programId: string, id: string): Promise<ClickRow | undefined> {
  return db.get<ClickRow>('SELECT * FROM clicks WHERE program_id = ? AND id = ?', [programId, id]);
}

/** Every program with its cookie lifetime: a handful of rows, one per tenant. */
export function programRetentions(db: Queryable): Promise<Array<{ id: string; cookie_days: number }>> {
  return db.all('SELECT id, cookie_days FROM programs ORDER BY id');
}

/**
 * Deletes up to `limit` of the program's clicks last seen (or, `by` 'created', made) before `cutoff`, oldest first
 * (clicks_list: last_seen_at is at most 30 minutes after created_at, so the created_at
 * range finds them), and adds what they counted, per partner and statistics bucket, to
 * clicks_purged: the totals keep them, and a recount can still add up to the totals.
 * The tally is made from the rows the delete returned, so a click another writer
 * deleted meanwhile (an erasure, which takes its count back) is never tallied.
 */
export async function purgeBatch(
  db: Queryable,
  programId: string,
  cutoff: number,
  limit: number,
  by: 'last seen' | 'created' = 'last seen',
): Promise<number> {
  // 'created' (CLICK_RETENTION_MONTHS on SQLite): by creation alone, as PostgreSQL drops a month whole.
  const seen = by === 'last seen' ? ' AND last_seen_at < ?' : '';
  // PostgreSQL's clicks are partitioned by month with the key (program_id, id,
  // created_at): said outside too, the program and the cutoff leave out the months after
  // it and look each click up by that key. SQLite's planner would walk the range for
  // them instead of its id index.
  const outer = db.engine === 'postgres' ? 'program_id = ? AND created_at < ? AND ' : '';
  const gone = await db.all<{ partnership_id: string; created_at: number | string }>(
    `DELETE FROM clicks WHERE ${outer}id IN (
       SELECT id FROM clicks WHERE program_id = ? AND created_at < ?${seen} ORDER BY created_at LIMIT ?
     ) RETURNING partnership_id, created_at`,
    [...(outer ? [programId, cutoff] : []), programId, cutoff, ...(by === 'last seen' ? [cutoff] : []), limit],
  );
  if (gone.length === 0) return 0;
  const ids = [...new Set(gone.map((c) => c.partnership_id))];
  const partners = new Map(
    (
      await db.all<{ id: string; partner_id: string }>(
        `SELECT id, partner_id FROM partnerships WHERE id IN (${ids.map(() => '?').join(', ')})`,
        ids,
      )
    ).map((p) => [p.id, p.partner_id]),
  );
  const tallies = new Map<string, [partner: string, bucket: number, n: number]>();
  for (const c of gone) {
    const partner = partners.get(c.partnership_id);
    if (partner === undefined) continue; // cannot be while its clicks existed (ON DELETE CASCADE): tallied under no one
    const bucket = Math.floor(Number(c.created_at) / BUCKET_SECONDS) * BUCKET_SECONDS;
    const tally = tallies.get(`${partner} ${bucket}`) ?? [partner, bucket, 0];
    tally[2]++;
    tallies.set(`${partner} ${bucket}`, tally);
  }
  if (tallies.size > 0) {
    const rows = [...tallies.values()];
    await db.run(
      `INSERT INTO clicks_purged (program_id, partner_id, bucket, clicks) VALUES ${rows.map(() => '(?, ?, ?, ?)').join(', ')}
       ON CONFLICT (program_id, partner_id, bucket) DO UPDATE SET clicks = clicks_purged.clicks + excluded.clicks`,
      rows.flatMap(([partner, bucket, n]): Param[] => [programId, partner, bucket, n]),
    );
  }
  return gone.length;
}
