// Threads, messages and broadcasts as the API and the webhook events show them: pure functions
// of the rows. A thread is shown to one side: its unread count and read time are that side's.

import type { Resource } from '../../platform/resource.js';
import type { Bodies, BroadcastRow, MessageRow, Side, ThreadView } from './model.js';

const other = (side: Side): Side => (side === 'team' ? 'partner' : 'team');

export function renderThread(row: ThreadView, side: Side): Resource {
  return {
    id: row.id,
    type: 'message_thread',
    attributes: {
      partnership_id: row.id,
      partner_id: row.partner_id,
      ...(side === 'team' ? { partner_name: row.partner_name } : {}),
      last_message_at: row.last_message_at === 0 ? null : Number(row.last_message_at),
      unread: Number(row[`${side}_unread`]),
      read_at: Number(row[`${side}_read_at`]) || null,
      other_read_at: Number(row[`${other(side)}_read_at`]) || null,
    },
  };
}

export function renderMessage(row: MessageRow): Resource {
  return {
    id: row.id,
    type: 'message',
    attributes: {
      thread_id: row.thread_id,
      author: row.author,
      body: row.body,
      broadcast_id: row.broadcast_id,
      created_at: Number(row.created_at),
    },
  };
}

/** The event's payload: the message with its thread's partner, whom a subscriber needs. */
export function messageEvent(row: MessageRow, partnerId: string) {
  const r = renderMessage(row);
  return { ...r, attributes: { ...r.attributes, partner_id: partnerId, thread_id: row.thread_id, author: row.author } };
}

export function renderBroadcast(row: BroadcastRow): Resource {
  return {
    id: row.id,
    type: 'broadcast',
    attributes: {
      group_id: row.group_id,
      bodies: JSON.parse(row.bodies) as Bodies,
      state: row.state,
      send_at: Number(row.send_at),
      sent_at: row.sent_at === null ? null : Number(row.sent_at),
      recipients: row.recipients === null ? null : Number(row.recipients),
      created_at: Number(row.created_at),
    },
  };
}
