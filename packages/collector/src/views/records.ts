// Each record as the API shows it (docs/api.md §8): the routes answer with these, and
// the events of docs/api.md §28 carry them, so a webhook's record is the API's own.

import { present, type Resource } from './resource.js';
import type { CommissionRow } from '../store/commissions.js';
import type { PartnershipRow } from '../store/partnerships.js';
import type { PaymentRow } from '../store/payments.js';
import type { BatchSummary } from '../store/payouts.js';
import type { ProgramRow } from '../store/programs.js';
import type { ReferralRow } from '../store/referrals.js';

/** The program's site with `?red=<key>`, the parameter the snippet reads first. */
export function referralLink(siteUrl: string, key: string): string {
  const url = new URL(siteUrl);
  url.searchParams.set('red', key);
  return url.href;
}

export function renderPartnership(row: PartnershipRow, program: ProgramRow): Resource {
  const rendered: Resource = {
    id: row.id,
    type: 'partnership',
    attributes: present({
      state: row.state,
      key: row.key,
      competitor_slugs: JSON.parse(row.competitor_slugs) as string[],
      created_by: row.created_by,
      ...(row.application_note ? { application_note: row.application_note } : {}),
      commission_rate_bps: row.commission_rate_bps,
      referral_link: referralLink(program.site_url, row.key),
      state_set_at: row.state_set_at,
      created_at: row.created_at,
      updated_at: row.updated_at,
    }),
    relationships: { partner: { data: { id: row.partner_id, type: 'partner' } } },
  };
  // Null, unlike the optional attributes present() leaves out: "as the program" is a value here.
  Object.assign(rendered.attributes, {
    recurring_months: row.recurring_months,
    hold_days: row.hold_days,
    minimum_payout: row.minimum_payout === null ? null : (JSON.parse(row.minimum_payout) as Record<string, number>),
  });
  return rendered;
}

/** The conversion record: the person a partner referred. */
export function renderReferral(row: ReferralRow): Resource {
  return {
    id: row.id,
    type: 'referral',
    attributes: present({
      email: row.email,
      uid: row.uid,
      state: row.state,
      state_set_at: row.state_set_at,
      created_at: row.created_at,
      updated_at: row.updated_at,
    }),
    relationships: { partnership: { data: { id: row.partnership_id, type: 'partnership' } } },
  };
}

export function renderCommission(row: CommissionRow): Resource {
  return {
    id: row.id,
    type: 'commission',
    attributes: present({
      state: row.state,
      amount: row.amount,
      currency: row.currency,
      partner_id: row.partner_id,
      referral_id: row.referral_id,
      // Present only in the states they belong to (docs/api.md §8.3).
      reject_reason: row.state === 'rejected' ? row.reject_reason : null,
      paid_at: row.state === 'paid' ? row.paid_at : null,
      payable_at: Number(row.payable_at),
      on_hold: Number(row.on_hold) === 1,
      clawback_of: row.clawback_of,
      state_set_at: row.state_set_at,
      created_at: row.created_at,
      updated_at: row.updated_at,
    }),
  };
}

export function renderPayment(row: PaymentRow): Resource {
  return {
    id: row.id,
    type: 'payment',
    attributes: {
      amount: row.amount,
      currency: row.currency,
      idempotency_key: row.idempotency_key,
      refunded: Number(row.refunded),
      paid_at: Number(row.occurred_at),
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
    relationships: {
      commission: { data: { id: row.commission_id, type: 'commission' } },
      referral: { data: row.referral_id ? { id: row.referral_id, type: 'referral' } : null },
    },
  };
}

/** A payout batch: what one export made, and whether it was paid or cancelled. */
export function renderBatch(b: BatchSummary) {
  return {
    id: b.id,
    type: 'payout_batch' as const,
    attributes: {
      currency: b.currency,
      state: b.paid_at !== null ? ('paid' as const) : b.cancelled_at !== null ? ('cancelled' as const) : ('open' as const),
      amount: b.amount,
      commissions: b.commissions,
      partners: b.partners,
      created_at: b.created_at,
      ...(b.paid_at === null ? {} : { paid_at: b.paid_at }),
      ...(b.cancelled_at === null ? {} : { cancelled_at: b.cancelled_at }),
    },
  };
}
