// Which notifications a domain event makes: a subscriber of every event (src/subscribers.ts),
// so each message is written in the transaction of its change and no service knows of
// e-mail. Rows of the hot path (a referral, a commission) cost no read. The payloads are
// typed (events/types.ts): a presenter renaming a field this reads fails the build.

import type { Queryable } from '../../platform/db/db.js';
import type { Insert } from '../../platform/db/rows.js';
import { uuidv7 } from '../../core/ids.js';
import type { DomainEvent, Known } from '../../events/types.js';
import { type Audience, MESSAGE_WAIT_SECONDS, type NotificationKind } from './kinds.js';
import { messageThread, type NotificationRow, notificationInsert, payoutShares } from './repo.js';

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

/** The notifications `type` with `data` makes, as rows to write in its transaction. */
export async function noticesFor(db: Queryable, event: DomainEvent, known: Known = {}): Promise<Insert[]> {
  // The old platform told its partners when it happened: years-old commissions are no news.
  if (known.history) return [];
  const { programId, at: now } = event;
  const rows: NotificationRow[] = [];
  switch (event.type) {
    case 'partnership.created': {
      const { data } = event;
      const a = data.attributes;
      const partnerId = data.relationships.partner.data.id;
      // An application (from the public page): its partner hears it arrived, the owners that it is waiting.
      if (a.created_by === 'partner') {
        const kind = a.state === 'accepted' ? 'application_approved' : 'application_received';
        rows.push(notice(programId, kind, 'partner', partnerId, data.id, { partnership_id: data.id }, now));
        rows.push(notice(programId, 'new_application', 'owners', null, data.id, { partnership_id: data.id }, now));
      }
      break;
    }
    case 'partnership.updated': {
      const { data } = event;
      const a = data.attributes;
      const partnerId = data.relationships.partner.data.id;
      // Only the update that moved the state.
      if ((a.state === 'accepted' || a.state === 'declined') && a.state_set_at === a.updated_at) {
        const kind = a.state === 'accepted' ? 'application_approved' : 'application_declined';
        const reason = a.decline_reason ?? null;
        rows.push(notice(programId, kind, 'partner', partnerId, `${data.id}:${a.state_set_at}`, { partnership_id: data.id, reason }, now));
      }
      break;
    }
    case 'referral.created': {
      const { data } = event;
      // Keyed by partnership: written at most once; the sender checks it is still the first.
      // A conversion knows when the partnership was referred before: then it writes no row.
      const partnershipId = data.relationships.partnership.data.id;
      if (known.firstOfPartnership !== false) {
        rows.push(
          notice(programId, 'first_referral', 'partner', null, partnershipId, { partnership_id: partnershipId, referral_id: data.id }, now),
        );
      }
      break;
    }
    case 'commission.created': {
      const { data } = event;
      const a = data.attributes;
      const partnerId = a.partner_id;
      if (a.clawback_of) {
        rows.push(notice(programId, 'clawback', 'partner', partnerId, data.id, { amount: a.amount, currency: a.currency }, now));
      } else if (a.amount > 0) {
        // One digest per partner and UTC day, sent once the day is over, with all of its commissions.
        const day = Math.floor(now / DAY) * DAY;
        rows.push(notice(programId, 'commission_digest', 'partner', partnerId, `${partnerId}:${day}`, { day }, now, day + DAY));
      }
      break;
    }
    case 'payout.paid': {
      const { data } = event;
      for (const share of await payoutShares(db, data.id)) {
        rows.push(
          notice(
            programId,
            'payout_sent',
            'partner',
            share.partner_id,
            `${data.id}:${share.partner_id}`,
            { ...share, currency: data.attributes.currency },
            now,
          ),
        );
      }
      break;
    }
    case 'discount_code.created': {
      const { data } = event;
      const partnerId = data.attributes.partner_id;
      if (partnerId) rows.push(notice(programId, 'code_created', 'partner', partnerId, data.id, { code: data.attributes.code }, now));
      break;
    }
    case 'review.held': {
      // At most one a day per program: the message counts what waits when it is sent.
      const day = Math.floor(now / DAY) * DAY;
      rows.push(notice(programId, 'review_waiting', 'owners', null, `${programId}:${day}`, {}, now));
      break;
    }
    default:
      await activityNotices(db, event, rows);
  }
  return rows.map(notificationInsert);
}

/** Of what partners do beyond referring (issue 45): messages, bounties, leads, recruits and links. */
async function activityNotices(db: Queryable, event: DomainEvent, rows: NotificationRow[]): Promise<void> {
  const { programId, at: now } = event;
  switch (event.type) {
    case 'message.created': {
      // One row per thread, reader and the reader's last read: a burst shares it; a read starts the next.
      const { thread_id: threadId, partner_id: partnerId, author } = event.data.attributes;
      const thread = await messageThread(db, threadId);
      const data = { thread_id: threadId };
      const at = now + MESSAGE_WAIT_SECONDS;
      if (author === 'team') {
        const key = `${threadId}:${thread?.partner_read_at ?? 0}`;
        rows.push(notice(programId, 'message_waiting', 'partner', partnerId, key, data, now, at));
      } else {
        rows.push(notice(programId, 'partner_message', 'owners', null, `${threadId}:${thread?.team_read_at ?? 0}`, data, now, at));
      }
      break;
    }
    case 'bounty.awarded': {
      const { id, attributes: a } = event.data;
      const words = { bounty: a.bounty_name, amount: a.amount, currency: a.currency };
      rows.push(notice(programId, 'bounty_awarded', 'partner', a.partner_id, id, words, now));
      break;
    }
    case 'bounty_submission.created':
      rows.push(notice(programId, 'new_submission', 'owners', null, event.data.id, { bounty_id: event.data.attributes.bounty_id }, now));
      break;
    case 'bounty_submission.updated': {
      const { id, attributes: a } = event.data;
      const kind = a.state === 'approved' ? 'submission_approved' : 'submission_rejected';
      const words = { bounty: a.bounty_name, amount: a.amount, currency: a.currency, reason: a.reject_reason };
      if (a.state !== 'pending') rows.push(notice(programId, kind, 'partner', a.partner_id, id, words, now));
      break;
    }
    case 'lead.created': {
      // The owners hear of a partner's lead; one the owner entered themself is no news to them.
      const { data } = event;
      if (data.attributes.submitted_by === 'partner')
        rows.push(notice(programId, 'new_lead', 'owners', null, data.id, { lead_id: data.id }, now));
      break;
    }
    case 'lead.updated': {
      // Its partner hears of each move of the stage, once per stage.
      const { data } = event;
      const a = data.attributes;
      rows.push(
        notice(programId, 'lead_stage', 'partner', a.partner_id, `${data.id}:${a.stage}`, { lead_id: data.id, stage: a.stage }, now),
      );
      break;
    }
    case 'partnership.recruited': {
      // The recruiter hears who joined through their link (docs/two-tier.md).
      const a = event.data.attributes;
      rows.push(
        notice(
          programId,
          'new_recruit',
          'partner',
          a.recruiter_partner_id,
          event.data.id,
          { recruit_partner_id: a.recruit_partner_id },
          now,
        ),
      );
      break;
    }
    case 'link.created':
    case 'link.updated': {
      // A key a partner chose: the owners hear it waits, the partner when it was approved.
      const { data } = event;
      const partnershipId = data.relationships.partnership.data.id;
      const v = { partnership_id: partnershipId, key: data.attributes.key };
      if (data.attributes.status === 'pending_approval') rows.push(notice(programId, 'link_waiting', 'owners', null, data.id, v, now));
      if (event.type === 'link.updated' && data.attributes.status === 'active' && data.attributes.created_by === 'partner') {
        rows.push(notice(programId, 'link_approved', 'partner', null, data.id, v, now));
      }
      break;
    }
  }
}
