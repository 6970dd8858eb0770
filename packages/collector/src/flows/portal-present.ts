// How the portal shows a partner their own records: pure functions of what the service
// read. A referral's e-mail is masked; a partnership shows its link only once accepted.

import { maskEmail } from '../core/email.js';
import { localeOf } from '../core/locale.js';
import { renderBilling } from '../core/billing.js';
import type { Resource } from '../platform/resource.js';
import type { CommissionRow } from '../modules/commissions/model.js';
import { referralLink } from '../modules/partnerships/present.js';
import { logoPath } from '../modules/branding/present.js';
import { percent } from '../modules/rewards/describe.js';
import type { RewardTerms } from '../modules/rewards/service.js';
import type { ReferralRow } from '../modules/referrals/repo.js';
import type { PartnerPayoutRow } from '../modules/portal/repo.js';
import type { PartnershipWithEarnings, Profile } from './portal.js';

/** A partnership's own rate as terms: that share of each of its customers' payments. */
const ownRate = (bps: number): RewardTerms => ({
  event: 'sale',
  kind: 'percentage',
  amount: bps,
  currency: null,
  duration: { kind: 'lifetime' },
  conditions: null,
  daily_cap: null,
});

export function renderPartnership({ partnership: p, earnings, group }: PartnershipWithEarnings): Resource {
  const accepted = p.state === 'accepted';
  return {
    id: p.id,
    type: 'portal_partnership',
    attributes: {
      program_id: p.program_id,
      program_name: p.program_name,
      program_locale: localeOf(p.program_locale) ?? 'en',
      brand: { accent: p.brand_accent ?? null, logo_url: logoPath(p.program_id, p.brand_logo_id ?? null), host: p.brand_host ?? null },
      state: p.state,
      referral_link: accepted ? referralLink(p.program_site_url, p.key) : null,
      key: accepted ? p.key : null,
      competitor_slugs: accepted ? (JSON.parse(p.competitor_slugs) as string[]) : [],
      commission_rate_bps: p.commission_rate_bps ?? p.program_rate_bps,
      own_codes:
        Number(p.program_partner_codes) === 1 ? { prefix: p.program_code_prefix, max_length: Number(p.program_code_max_length) } : null,
      group:
        p.commission_rate_bps === null
          ? { name: group.name, rewards: group.rewards, terms: group.terms, own_rate: false }
          : {
              name: group.name,
              rewards: [`${percent(p.commission_rate_bps)} of each payment (your own rate)`],
              terms: [ownRate(p.commission_rate_bps)],
              own_rate: true,
            },
      earnings: Object.fromEntries(
        earnings.map((e) => [
          e.currency,
          {
            pending: Number(e.pending),
            payable: Number(e.payable),
            paid: Number(e.paid),
            next_payable_at: e.next_payable_at === null ? null : Number(e.next_payable_at),
            next_payout: { amount: e.nextPayout.amount, reason: e.nextPayout.heldBack, minimum: e.nextPayout.minimum },
          },
        ]),
      ),
      created_at: p.created_at,
    },
  };
}

export const renderReferral = (r: ReferralRow): Resource => ({
  id: r.id,
  type: 'portal_referral',
  attributes: { state: r.state, email: r.email ? maskEmail(r.email) : '•••', created_at: r.created_at, state_set_at: r.state_set_at },
});

export const renderCommission = (c: CommissionRow): Resource => ({
  id: c.id,
  type: 'portal_commission',
  attributes: {
    state: c.state,
    amount: c.amount,
    currency: c.currency,
    ...(c.state === 'rejected' && c.reject_reason ? { reject_reason: c.reject_reason } : {}),
    payable_at: Number(c.payable_at),
    on_hold: Number(c.on_hold) === 1,
    // Under review, without the evidence: that is the owner's.
    under_review: c.review === 'held',
    clawback: c.clawback_of !== null,
    ...(c.state === 'paid' && c.paid_at ? { paid_at: Number(c.paid_at) } : {}),
    created_at: c.created_at,
  },
});

export const renderPayout = (b: PartnerPayoutRow): Resource => ({
  id: b.id,
  type: 'portal_payout',
  attributes: {
    currency: b.currency,
    amount: Number(b.amount),
    commissions: Number(b.commissions),
    state: b.state,
    created_at: Number(b.created_at),
    paid_at: b.paid_at === null ? null : Number(b.paid_at),
  },
});

export const renderAccount = ({ account, name, paypalEmail, locale, billing }: Profile): Resource => ({
  id: account.id,
  type: 'partner_account',
  attributes: { email: account.email, name, paypal_email: paypalEmail, locale, ...renderBilling(billing) },
});
