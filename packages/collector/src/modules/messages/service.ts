// Messages between a program's team and each partner (docs/messages.md): one thread per
// partnership, read state per side, and broadcasts that write one message into each thread of
// their audience, now or at their time, each exactly once. Every message raises
// message.created in its transaction; the e-mail that a message waits is the notifications'.

import type { Db, Queryable, Tx } from '../../platform/db/db.js';
import { fail } from '../../platform/errors.js';
import type { FieldFilter, Page, PageRequest } from '../../platform/db/list.js';
import { uuidv7 } from '../../core/ids.js';
import { localeOf } from '../../core/locale.js';
import { emit } from '../../events/emit.js';
import type { Bodies, BroadcastRow, MessageRow, Side, ThreadView } from './model.js';
import { messageEvent } from './present.js';
import * as repo from './repo.js';

async function partnership(db: Queryable, programId: string, id: string) {
  const p = await repo.partnershipOf(db, programId, id);
  if (!p) throw fail('not_found', `no message thread ${id}`);
  return p;
}

/** The partnership's thread; one without messages yet answers with nothing read or unread. */
export async function threadOf(db: Queryable, programId: string, id: string): Promise<ThreadView> {
  const found = await repo.thread(db, programId, id);
  if (found) return found;
  const p = await partnership(db, programId, id);
  return {
    id,
    program_id: programId,
    partner_id: p.partner_id,
    partner_name: p.name,
    partner_email: p.email,
    last_message_at: 0,
    team_unread: 0,
    partner_unread: 0,
    team_read_at: 0,
    partner_read_at: 0,
    created_at: 0,
  };
}

export const listThreads = repo.threads;
export const teamUnread = repo.teamUnread;

/** A thread's messages, newest first; 404 for a partnership not of the program. */
export async function listMessages(db: Queryable, programId: string, threadId: string, page: PageRequest): Promise<Page<MessageRow>> {
  await partnership(db, programId, threadId);
  const filters: FieldFilter[] = [{ field: 'thread_id', op: 'eq', value: threadId }];
  return repo.messages(db, programId, filters, page);
}

async function write(tx: Tx, row: MessageRow, partnerId: string, now: number): Promise<MessageRow> {
  await repo.addMessage(tx, row, partnerId);
  await emit(tx, row.program_id, 'message.created', messageEvent(row, partnerId), now);
  return row;
}

const messageRow = (programId: string, threadId: string, author: Side, authorId: string | null, body: string, now: number) => ({
  id: uuidv7(now * 1000),
  program_id: programId,
  thread_id: threadId,
  author,
  author_id: authorId,
  body,
  broadcast_id: null,
  created_at: now,
});

/** A message from `side` into the partnership's thread. */
export function postMessage(
  db: Db,
  programId: string,
  threadId: string,
  author: { side: Side; id: string | null },
  body: string,
  now: number,
): Promise<MessageRow> {
  return db.transaction(async (tx) => {
    const p = await partnership(tx, programId, threadId);
    return write(tx, messageRow(programId, threadId, author.side, author.id, body, now), p.partner_id, now);
  });
}

/** The side has read the thread up to now; reading a thread without messages changes nothing. */
export async function markRead(db: Db, programId: string, threadId: string, side: Side, now: number): Promise<ThreadView> {
  await db.transaction(async (tx) => {
    await partnership(tx, programId, threadId);
    await repo.markRead(tx, programId, threadId, side, now);
  });
  return threadOf(db, programId, threadId);
}

/** The body a partner gets: in their language, else the program's, else the first the owner wrote. */
export function bodyFor(bodies: Bodies, partnerLocale: string | null, programLocale: string): string {
  const mine = localeOf(partnerLocale);
  const program = localeOf(programLocale);
  return (mine && bodies[mine]) || (program && bodies[program]) || Object.values(bodies).find((b) => b) || '';
}

export interface NewBroadcast {
  group_id?: string | null | undefined;
  bodies: Bodies;
  send_at?: number | undefined;
}

/** Writes the broadcast's message into each thread of its audience, unless another delivery took it first. */
async function deliver(tx: Tx, b: BroadcastRow, now: number): Promise<boolean> {
  if ((await repo.claimBroadcast(tx, b.id, now)) === 0) return false;
  const locale = await repo.programLocale(tx, b.program_id);
  const bodies = JSON.parse(b.bodies) as Bodies;
  const to = await repo.audience(tx, b.program_id, b.group_id);
  for (const p of to) {
    const row = { ...messageRow(b.program_id, p.id, 'team', null, bodyFor(bodies, p.locale, locale), now), broadcast_id: b.id };
    await write(tx, row, p.partner_id, now);
  }
  await repo.setRecipients(tx, b.id, to.length);
  return true;
}

/** A broadcast to a group (or every accepted partner), sent in this transaction when its time has come, else by the tick. */
export async function createBroadcast(db: Db, programId: string, input: NewBroadcast, now: number): Promise<BroadcastRow> {
  if (!Object.values(input.bodies).some((b) => b))
    throw fail('invalid_field', 'a broadcast needs a body in one language at least', { field: 'bodies' });
  const id = uuidv7(now * 1000);
  await db.transaction(async (tx) => {
    const groupId = input.group_id ?? null;
    if (groupId !== null && !(await repo.groupExists(tx, programId, groupId)))
      throw fail('invalid_field', `no group ${groupId}`, { field: 'group_id' });
    const row: BroadcastRow = {
      id,
      program_id: programId,
      group_id: groupId,
      bodies: JSON.stringify(input.bodies),
      state: 'scheduled',
      send_at: Math.max(input.send_at ?? now, now),
      sent_at: null,
      recipients: null,
      created_at: now,
    };
    await repo.insertBroadcast(tx, row);
    if (row.send_at <= now) await deliver(tx, row, now);
  });
  return (await repo.broadcast(db, programId, id)) as BroadcastRow;
}

export async function getBroadcast(db: Queryable, programId: string, id: string): Promise<BroadcastRow> {
  const row = await repo.broadcast(db, programId, id);
  if (!row) throw fail('not_found', `no broadcast ${id}`);
  return row;
}

export const listBroadcasts = repo.broadcasts;

/** The scheduled broadcasts due at `now`, each delivered once in its own transaction however many processes tick. */
export async function sendDueBroadcasts(db: Db, now: number): Promise<number> {
  let sent = 0;
  for (const b of await repo.dueBroadcasts(db, now, 20)) {
    if (await db.transaction((tx) => deliver(tx, b, now))) sent++;
  }
  return sent;
}
