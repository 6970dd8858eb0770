// A partner's payout method as the API shows it to the partner and to the owner: the method,
// whether it is ready and why not, and what identifies it, masked for a bank account.

import { present, type Resource } from '../../platform/resource.js';
import type { Settings } from './model.js';
import { type MethodView, offeredTo } from './service.js';

export function renderPayoutMethod(partnerId: string, view: MethodView): Resource {
  const { row, method: m, settings } = view;
  return {
    id: partnerId,
    type: 'payout_method',
    attributes: present({
      method: m.method,
      ready: m.ready,
      reason: m.reason,
      country: m.country,
      paypal_email: m.paypalEmail,
      paypal_confirmed: m.method === 'paypal' ? m.reason !== 'unconfirmed' : undefined,
      stripe_account_id: m.stripeAccountId,
      payouts_enabled: m.method === 'stripe_connect' ? row?.stripe_payouts_enabled === 1 : undefined,
      currently_due: m.method === 'stripe_connect' && row ? (JSON.parse(row.stripe_currently_due) as string[]) : undefined,
      wise_currency: m.wiseCurrency,
      wise_account: m.method === 'wise' ? row?.wise_display : undefined,
      offered: offeredTo(settings, m.country),
      updated_at: row?.updated_at ?? null,
    }),
  };
}

/** The program's rules, with only the end of its Wise token. */
export function renderSettings(programId: string, s: Settings): Resource {
  return {
    id: programId,
    type: 'payout_settings',
    attributes: {
      offered: s.offered,
      countries: s.countries,
      wise_api_token_hint: s.wiseApiToken ? `…${s.wiseApiToken.slice(-4)}` : null,
      wise_profile_id: s.wiseProfileId,
      wise_source_currency: s.wiseSourceCurrency,
      schedule: { every: s.schedule.every, day: s.schedule.day, time_zone: s.schedule.timeZone },
    },
  };
}
