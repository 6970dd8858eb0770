// Which notifications a domain event makes: the one hook (webhooks/events.ts calls it for
// every event it writes), so each message is written in the transaction of its change and
// no service knows of e-mail. Rows of the hot path (a referral, a commission) cost no read.

import type { Queryable } from '../../platform/db/db.js';
import type { Insert } from '../../platform/db/rows.js';
import type { Resource } from '../../platform/resource.js';
import { uuidv7 } from '../../core/ids.js';
import type { Audience, NotificationKind } from './kinds.js';
import { type NotificationRow, notificationInsert, payoutShares } from './repo.js';

const DAY = 86_400;

/** A row to send at `at`, once per `key`. */
export function notice(
  programId: string,
  kind: NotificationKind,
  audience: Audience,
  recipientId: string | null,
  key: string,
  data: Record<string, unknown>,
  now: number,
  at = now,
): NotificationRow {
  return {
    id: uuidv7(now * 1000),
    program_id: programId,
    kind,
    audience,
    recipient_id: recipientId,
    dedupe_key: `${kind}:${key}`,
    data: JSON.stringify(data),
    state: 'pending',
    attempts: 0,
    next_attempt_at: at,
    unsubscribe_hash: null,
    created_at: now,
    sent_at: null,
  };
}

/** What the caller of a hot path knows already, which spares a row. */
export interface Known {
  /** False: the referral's partnership had one before, so this is not its first (the conversion reads it with its evidence). */
  firstOfPartnership?: boolean;
  /** Imported history (`tally import`): its events reach webhooks, but it sends no e-mail (docs/importing.md). */
  history?: boolean;
}

const related = (data: Resource, name: string): string | undefined =>
  (data.relationships?.[name] as { data?: { id?: string } } | undefined)?.data?.id;

/** The notifications `type` with `data` makes, as rows to write in its transaction. */
export async function noticesFor(
  db: Queryable,
  programId: string,
  type: string,
  data: Resource,
  now: number,
  known: Known = {},
): Promise<Insert[]> {
  // The old platform told its partners when it happened: years-old commissions are no news.
  if (known.history) return [];
  const a = data.attributes as Record<string, unknown>;
  const rows: NotificationRow[] = [];
  const partnerId = (a.partner_id as string | undefined) ?? related(data, 'partner');
  switch (type) {
    case 'partnership.created':
      // An application (from the public page): its partner hears it arrived, the owners that it is waiting.
      if (a.created_by === 'partner' && partnerId) {
        const kind = a.state === 'accepted' ? 'application_approved' : 'application_received';
        rows.push(notice(programId, kind, 'partner', partnerId, data.id, { partnership_id: data.id }, now));
        rows.push(notice(programId, 'new_application', 'owners', null, data.id, { partnership_id: data.id }, now));
      }
      break;
    case 'partnership.updated':
      // Only the update that moved the state.
      if ((a.state === 'accepted' || a.state === 'declined') && a.state_set_at === a.updated_at && partnerId) {
        const kind = a.state === 'accepted' ? 'application_approved' : 'application_declined';
        const reason = (a.decline_reason as string | undefined) ?? null;
        rows.push(notice(programId, kind, 'partner', partnerId, `${data.id}:${a.state_set_at}`, { partnership_id: data.id, reason }, now));
      }
      break;
    case 'referral.created': {
      // Keyed by partnership: written at most once; the sender checks it is still the first.
      // A conversion knows when the partnership was referred before: then it writes no row.
      const partnershipId = related(data, 'partnership');
      if (partnershipId && known.firstOfPartnership !== false) {
        rows.push(
          notice(programId, 'first_referral', 'partner', null, partnershipId, { partnership_id: partnershipId, referral_id: data.id }, now),
        );
      }
      break;
    }
    case 'commission.created':
      if (!partnerId) break;
      if (a.clawback_of) {
        rows.push(notice(programId, 'clawback', 'partner', partnerId, data.id, { amount: a.amount, currency: a.currency }, now));
      } else if (Number(a.amount) > 0) {
        // One digest per partner and UTC day, sent once the day is over, with all of its commissions.
        const day = Math.floor(now / DAY) * DAY;
        rows.push(notice(programId, 'commission_digest', 'partner', partnerId, `${partnerId}:${day}`, { day }, now, day + DAY));
      }
      break;
    case 'payout.paid':
      for (const share of await payoutShares(db, data.id)) {
        rows.push(
          notice(
            programId,
            'payout_sent',
            'partner',
            share.partner_id,
            `${data.id}:${share.partner_id}`,
            { ...share, currency: a.currency },
            now,
          ),
        );
      }
      break;
    case 'discount_code.created':
      if (partnerId) rows.push(notice(programId, 'code_created', 'partner', partnerId, data.id, { code: a.code }, now));
      break;
    case 'review.held': {
      // At most one a day per program: the message counts what waits when it is sent.
      const day = Math.floor(now / DAY) * DAY;
      rows.push(notice(programId, 'review_waiting', 'owners', null, `${programId}:${day}`, {}, now));
      break;
    }
  }
  return rows.map(notificationInsert);
}
