// The messages module's records as plain types: a partnership's thread, its messages, and
// the broadcasts that write one message into each thread of their audience.

import type { Locale } from '../../core/locale.js';

/** Who wrote a message, and whose unread count it raises: the other side's. */
export type Side = 'team' | 'partner';

/** A message's body, trimmed: at least one character, at most this many. */
export const BODY_MAX = 5000;

export interface ThreadRow {
  /** The partnership's id: one thread per partnership. */
  id: string;
  program_id: string;
  partner_id: string;
  last_message_at: number;
  team_unread: number;
  partner_unread: number;
  /** When each side last read the thread; 0 before it ever did. */
  team_read_at: number;
  partner_read_at: number;
  created_at: number;
}

/** A thread with the partner's name, as the dashboard lists it. */
export interface ThreadView extends ThreadRow {
  partner_name: string;
  partner_email: string;
}

export interface MessageRow {
  id: string;
  program_id: string;
  thread_id: string;
  author: Side;
  /** The owner's user id or the partner's id; null for a broadcast's. */
  author_id: string | null;
  body: string;
  broadcast_id: string | null;
  created_at: number;
}

export type Bodies = Partial<Record<Locale, string>>;

export interface BroadcastRow {
  id: string;
  program_id: string;
  /** Its audience: the partnerships of one group; null for every accepted partnership. */
  group_id: string | null;
  /** JSON of Bodies: the message in each language the owner wrote it in. */
  bodies: string;
  state: 'scheduled' | 'sent';
  send_at: number;
  sent_at: number | null;
  recipients: number | null;
  created_at: number;
}
