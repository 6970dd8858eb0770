// Messages through the API: the team's threads (secret token or dashboard session), the
// partner's thread in the portal (each of their partnerships has one) and in the embed, and
// broadcasts. Another program's or another partner's thread answers 404, as an unknown id does.

import { z } from 'zod';
import { route, type RouteInput } from '../../api/route.js';
import { LOCALES } from '../../core/locale.js';
import { reachedPartnership } from '../../flows/portal.js';
import { fail } from '../../platform/errors.js';
import { type FilterParser, oneOf, text } from '../../platform/http/list-query.js';
import { listEnvelope } from '../../platform/http/render.js';
import { one, page, resource, unixTime } from '../../platform/http/schemas.js';
import type { EmbedSessionRow } from '../embed/repo.js';
import type { AccountRow } from '../portal/repo.js';
import { BODY_MAX, type Side } from './model.js';
import { renderBroadcast, renderMessage, renderThread } from './present.js';
import { partnershipOfPartner } from './repo.js';
import {
  createBroadcast,
  getBroadcast,
  listBroadcasts,
  listMessages,
  listThreads,
  markRead,
  postMessage,
  teamUnread,
  threadOf,
} from './service.js';

const side = z.enum(['team', 'partner']);

export const threadSchema = resource('message_thread', {
  partnership_id: z.string().meta({ description: "The thread's partnership: one thread each, with the same id" }),
  partner_id: z.string(),
  partner_name: z.string().optional().meta({ description: 'The team sees whom it writes to' }),
  last_message_at: unixTime.nullable().meta({ description: 'Null while the thread has no message' }),
  unread: z.number().int().meta({ description: "The messages from the other side the caller's side has not read" }),
  read_at: unixTime.nullable().meta({ description: "When the caller's side last read the thread" }),
  other_read_at: unixTime.nullable().meta({ description: 'When the other side last read it' }),
});

export const messageSchema = resource('message', {
  thread_id: z.string(),
  author: side.meta({ description: "The program's team or the partner" }),
  body: z.string().meta({ description: 'Plain text; the web apps show it as text and make its http(s) addresses links' }),
  broadcast_id: z.string().nullable().meta({ description: 'The broadcast the message was part of' }),
  created_at: unixTime,
});

const bodies = z
  .strictObject(Object.fromEntries(LOCALES.map((l) => [l, z.string().trim().min(1).max(BODY_MAX).optional()])))
  .meta({ description: "The message in each language written: a partner gets theirs, else the program's, else the first given" });

export const broadcastSchema = resource('broadcast', {
  group_id: z.string().nullable().meta({ description: 'Its audience: the accepted partnerships of the group; null: all of them' }),
  bodies: z.record(z.string(), z.string()),
  state: z.enum(['scheduled', 'sent']),
  send_at: unixTime,
  sent_at: unixTime.nullable(),
  recipients: z.number().int().nullable().meta({ description: 'The threads it was written into, once sent' }),
  created_at: unixTime,
});

const unreadSchema = resource('message_unread', {
  threads: z.number().int().meta({ description: 'Threads with a message the team has not read' }),
  messages: z.number().int(),
});

/** A count to compare: `unread_gt=0` lists the threads with something unread. */
const count: FilterParser = {
  describe: 'a whole number',
  expected: 'a whole number',
  parse: (raw) => (/^[0-9]{1,6}$/.test(raw) ? Number(raw) : undefined),
};

const messageBody = z.strictObject({ body: z.string().trim().min(1).max(BODY_MAX) });

/** A thread as one side reads it: its messages, a new one, and "read". */
function threadRoutes(
  path: string,
  summaryOf: string,
  access: 'secret' | 'partner' | 'embed',
  whose: (input: RouteInput<unknown>) => Promise<{ programId: string; threadId: string; side: Side; authorId: string | null }>,
) {
  return [
    route({
      method: 'get',
      path,
      summary: `${summaryOf}: unread count and read times`,
      access,
      status: 200,
      response: one(threadSchema),
      async handle(input) {
        const t = await whose(input);
        return { status: 200, body: { data: renderThread(await threadOf(input.db, t.programId, t.threadId), t.side) } };
      },
    }),
    route({
      method: 'get',
      path: `${path}/messages`,
      summary: `${summaryOf}'s messages, newest first`,
      access,
      list: {},
      status: 200,
      response: page(messageSchema),
      async handle(input) {
        const t = await whose(input);
        const rows = await listMessages(input.db, t.programId, t.threadId, input.list.page);
        return { status: 200, body: listEnvelope(rows, input.list.page, renderMessage) };
      },
    }),
    route({
      method: 'post',
      path: `${path}/messages`,
      summary: `Write into ${summaryOf.toLowerCase()}: the other side's unread count goes up, and an e-mail tells them when they have not read it for a while`,
      access,
      body: messageBody,
      status: 201,
      response: one(messageSchema),
      async handle(input) {
        const t = await whose(input);
        const row = await postMessage(input.db, t.programId, t.threadId, { side: t.side, id: t.authorId }, input.body.body, input.now);
        return { status: 201, body: { data: renderMessage(row) } };
      },
    }),
    route({
      method: 'post',
      path: `${path}/read`,
      summary: `Mark ${summaryOf.toLowerCase()} read up to now for the caller's side`,
      access,
      status: 200,
      response: one(threadSchema),
      async handle(input) {
        const t = await whose(input);
        return { status: 200, body: { data: renderThread(await markRead(input.db, t.programId, t.threadId, t.side, input.now), t.side) } };
      },
    }),
  ];
}

const team = async (input: RouteInput<unknown>) => ({
  programId: input.program.id,
  threadId: input.params.id ?? '',
  side: 'team' as const,
  authorId: input.session?.user_id ?? null,
});

const portal = async (input: RouteInput<unknown>) => {
  const p = await reachedPartnership(input.db, (input.account as AccountRow).id, input.params.id ?? '');
  return { programId: p.program_id, threadId: p.id, side: 'partner' as const, authorId: p.partner_id };
};

const embed = async (input: RouteInput<unknown>) => {
  const session = input.embed as EmbedSessionRow;
  const threadId = await partnershipOfPartner(input.db, session.program_id, session.partner_id);
  if (!threadId) throw fail('not_found', 'the embedded partner has no partnership');
  return { programId: session.program_id, threadId, side: 'partner' as const, authorId: session.partner_id };
};

export const messageRoutes = [
  route({
    method: 'get',
    path: '/v1/message_threads',
    summary: "The program's message threads, the latest message first",
    access: 'secret',
    list: { partner_id_eq: text, unread_gt: count },
    status: 200,
    response: page(threadSchema),
    async handle(input) {
      const rows = await listThreads(input.db, input.program.id, input.list.filters, input.list.page);
      return { status: 200, body: listEnvelope(rows, input.list.page, (r) => renderThread(r, 'team')) };
    },
  }),
  route({
    method: 'get',
    path: '/v1/messages/unread',
    summary: 'What waits for the team: threads with unread messages (the dashboard’s badge)',
    access: 'secret',
    status: 200,
    response: one(unreadSchema),
    async handle({ db, program }) {
      const n = await teamUnread(db, program.id);
      return { status: 200, body: { data: { id: program.id, type: 'message_unread', attributes: n } } };
    },
  }),
  ...threadRoutes('/v1/message_threads/:id', "A partnership's thread", 'secret', team),
  ...threadRoutes('/v1/portal/partnerships/:id/message_thread', "The partnership's thread with the program's team", 'partner', portal),
  ...threadRoutes('/v1/embed/message_thread', "The embedded partner's thread with the program's team", 'embed', embed),
  route({
    method: 'post',
    path: '/v1/broadcasts',
    summary: "A message to a group's partners (or all accepted partners), now or at send_at, into each one's thread",
    access: 'secret',
    body: z.strictObject({
      group_id: z.string().max(64).nullable().optional(),
      bodies,
      send_at: unixTime.optional().meta({ description: 'Unix seconds; absent or past: now' }),
    }),
    status: 201,
    response: one(broadcastSchema),
    async handle({ db, program, body, now }) {
      return { status: 201, body: { data: renderBroadcast(await createBroadcast(db, program.id, body, now)) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/broadcasts',
    summary: "The program's broadcasts, newest first",
    access: 'secret',
    list: { state_eq: oneOf(['scheduled', 'sent']) },
    status: 200,
    response: page(broadcastSchema),
    async handle(input) {
      const rows = await listBroadcasts(input.db, input.program.id, input.list.filters, input.list.page);
      return { status: 200, body: listEnvelope(rows, input.list.page, renderBroadcast) };
    },
  }),
  route({
    method: 'get',
    path: '/v1/broadcasts/:id',
    summary: 'Fetch one broadcast',
    access: 'secret',
    status: 200,
    response: one(broadcastSchema),
    async handle({ db, program, params }) {
      return { status: 200, body: { data: renderBroadcast(await getBroadcast(db, program.id, params.id ?? '')) } };
    },
  }),
];
