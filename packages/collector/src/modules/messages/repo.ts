// The SQL of threads, messages and broadcasts, for both engines. A thread is written with its
// first message (an upsert keyed by the partnership); its unread counts move with each message
// and each read, in the message's transaction.

import type { Queryable } from '../../platform/db/db.js';
import { type FieldFilter, lister, type Page, type PageRequest } from '../../platform/db/list.js';
import { insertRow } from '../../platform/db/rows.js';
import type { BroadcastRow, MessageRow, Side, ThreadRow, ThreadView } from './model.js';

/** The partnership the thread is, in the program, with its partner's name and address; undefined for none. */
export function partnershipOf(db: Queryable, programId: string, id: string) {
  return db.get<{ id: string; partner_id: string; name: string; email: string }>(
    `SELECT s.id, s.partner_id, pa.name, pa.email FROM partnerships s JOIN partners pa ON pa.id = s.partner_id
      WHERE s.program_id = ? AND s.id = ?`,
    [programId, id],
  );
}

/** The embedded partner's partnership of the program. */
export async function partnershipOfPartner(db: Queryable, programId: string, partnerId: string): Promise<string | undefined> {
  return (
    await db.get<{ id: string }>('SELECT id FROM partnerships WHERE program_id = ? AND partner_id = ? ORDER BY created_at LIMIT 1', [
      programId,
      partnerId,
    ])
  )?.id;
}

export function thread(db: Queryable, programId: string, id: string): Promise<ThreadView | undefined> {
  return db.get<ThreadView>(
    `SELECT t.*, pa.name AS partner_name, pa.email AS partner_email FROM message_threads t JOIN partners pa ON pa.id = t.partner_id
      WHERE t.program_id = ? AND t.id = ?`,
    [programId, id],
  );
}

/**
 * Writes a message and moves its thread: made with the first message; the other side's unread
 * count goes up, and the writer's side has read the thread (they answered it).
 */
export async function addMessage(db: Queryable, row: MessageRow, partnerId: string): Promise<void> {
  const [own, other] = row.author === 'team' ? ['team', 'partner'] : ['partner', 'team'];
  await db.run(
    `INSERT INTO message_threads (id, program_id, partner_id, last_message_at, ${other}_unread, ${own}_read_at, created_at)
     VALUES (?, ?, ?, ?, 1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET last_message_at = excluded.last_message_at,
       ${other}_unread = message_threads.${other}_unread + 1, ${own}_unread = 0, ${own}_read_at = excluded.${own}_read_at`,
    [row.thread_id, row.program_id, partnerId, row.created_at, row.created_at, row.created_at],
  );
  await insertRow(db, 'messages', row);
}

/** The side has read the thread: its unread count is 0 from `now`. */
export function markRead(db: Queryable, programId: string, id: string, side: Side, now: number): Promise<number> {
  return db.run(`UPDATE message_threads SET ${side}_unread = 0, ${side}_read_at = ? WHERE program_id = ? AND id = ?`, [now, programId, id]);
}

const threadList = lister<ThreadRow>(
  'message_threads',
  { partner_id: 'partner_id', unread: 'team_unread' },
  { orderBy: 'last_message_at' },
);

/** The program's threads, the latest message first, one page (a cursor is a thread's id), with their partners' names. */
export async function threads(
  db: Queryable,
  programId: string,
  filters: readonly FieldFilter[],
  page: PageRequest,
): Promise<Page<ThreadView>> {
  const found = await threadList(db, programId, filters, page);
  if (found.rows.length === 0) return { ...found, rows: [] };
  const names = await db.all<{ id: string; name: string; email: string }>(
    `SELECT id, name, email FROM partners WHERE id IN (${found.rows.map(() => '?').join(', ')})`,
    found.rows.map((r) => r.partner_id),
  );
  const byId = new Map(names.map((n) => [n.id, n]));
  return {
    ...found,
    rows: found.rows.map((r) => ({
      ...r,
      partner_name: byId.get(r.partner_id)?.name ?? '',
      partner_email: byId.get(r.partner_id)?.email ?? '',
    })),
  };
}

/** What waits for the team: threads with unread messages, and the messages. */
export async function teamUnread(db: Queryable, programId: string): Promise<{ threads: number; messages: number }> {
  const row = await db.get<{ threads: number; messages: number | null }>(
    'SELECT COUNT(*) AS threads, SUM(team_unread) AS messages FROM message_threads WHERE program_id = ? AND team_unread > 0',
    [programId],
  );
  return { threads: Number(row?.threads ?? 0), messages: Number(row?.messages ?? 0) };
}

export const messages = lister<MessageRow>('messages', { thread_id: 'thread_id', author: 'author' });

export async function insertBroadcast(db: Queryable, row: BroadcastRow): Promise<void> {
  await insertRow(db, 'broadcasts', row);
}

export function broadcast(db: Queryable, programId: string, id: string): Promise<BroadcastRow | undefined> {
  return db.get<BroadcastRow>('SELECT * FROM broadcasts WHERE program_id = ? AND id = ?', [programId, id]);
}

export const broadcasts = lister<BroadcastRow>('broadcasts', { state: 'state' });

/** Scheduled broadcasts due at `now`, oldest first. */
export function dueBroadcasts(db: Queryable, now: number, limit: number): Promise<BroadcastRow[]> {
  return db.all<BroadcastRow>("SELECT * FROM broadcasts WHERE state = 'scheduled' AND send_at <= ? ORDER BY send_at, id LIMIT ?", [
    now,
    limit,
  ]);
}

/**
 * Takes the broadcast to deliver, in the delivering transaction: 1 for the one that does, 0 for
 * any other (on PostgreSQL a second process waits on the row, then finds it sent).
 */
export function claimBroadcast(db: Queryable, id: string, now: number): Promise<number> {
  return db.run("UPDATE broadcasts SET state = 'sent', sent_at = ? WHERE id = ? AND state = 'scheduled'", [now, id]);
}

export function setRecipients(db: Queryable, id: string, n: number): Promise<number> {
  return db.run('UPDATE broadcasts SET recipients = ? WHERE id = ?', [n, id]);
}

/** A broadcast's audience: the accepted partnerships (of one group: its own, or the default one when they have none), with their partner's language. */
export function audience(db: Queryable, programId: string, groupId: string | null) {
  const group = groupId === null ? '' : ' AND (s.group_id = ? OR (s.group_id IS NULL AND g.is_default = 1))';
  return db.all<{ id: string; partner_id: string; locale: string | null }>(
    `SELECT s.id, s.partner_id, pa.locale FROM partnerships s JOIN partners pa ON pa.id = s.partner_id
       ${groupId === null ? '' : 'JOIN partner_groups g ON g.program_id = s.program_id AND g.id = ?'}
      WHERE s.program_id = ? AND s.state = 'accepted'${group} ORDER BY s.id`,
    groupId === null ? [programId] : [groupId, programId, groupId],
  );
}

export async function groupExists(db: Queryable, programId: string, groupId: string): Promise<boolean> {
  return (await db.get('SELECT 1 AS one FROM partner_groups WHERE program_id = ? AND id = ?', [programId, groupId])) !== undefined;
}

/** The program's language: a broadcast's body when the partner has none of theirs. */
export async function programLocale(db: Queryable, programId: string): Promise<string> {
  return (await db.get<{ locale: string }>('SELECT locale FROM programs WHERE id = ?', [programId]))?.locale ?? 'en';
}
