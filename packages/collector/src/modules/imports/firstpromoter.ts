// FirstPromoter's API v2 (https://docs.firstpromoter.com/api-reference-v2/api-admin/introduction):
// a Bearer API key and the Account-ID header, pages of `page` and `per_page` (at most 100;
// the answer holds no page count, so a short page is the last). Promoters with their
// campaigns' ref tokens (`?fpr=token`), referrals, commissions. Amounts are cents of the
// account's currency, which no commission names: --currency gives it.

import { getJson, type ClientOptions } from './client.js';
import {
  minorAmount,
  seconds,
  skip,
  type Item,
  type Source,
  type SourceCommission,
  type SourcePartner,
  type SourceReferral,
} from './model.js';
import { arr, clientFor, obj, partnerFrom, str, type Json, type PlatformOptions } from './platform.js';
import type { ReferralState } from '../referrals/model.js';
import type { PartnershipState } from '../partnerships/model.js';

const PER_PAGE = 100;

async function* pages(client: ClientOptions, path: string): AsyncIterable<Json> {
  for (let page = 1; ; page++) {
    const body = await getJson(client, path, { page, per_page: PER_PAGE });
    // Promoters come as { data, meta }, referrals and commissions as a bare array.
    const rows = Array.isArray(body) ? body : arr(obj(body).data);
    for (const row of rows) yield obj(row);
    if (rows.length < PER_PAGE) return;
  }
}

const REFERRAL_STATES: Record<string, ReferralState> = {
  signup: 'converted',
  pending: 'converted',
  subscribed: 'paid',
  active: 'paid',
  cancelled: 'churned',
  refunded: 'churned',
  denied: 'rejected',
};

/** The promoter's standing across its campaigns: accepted in one is enough. */
function promoterState(campaigns: Json[]): PartnershipState {
  const states = campaigns.map((c) => c.state);
  if (states.includes('accepted')) return 'accepted';
  return states.includes('pending') || states.length === 0 ? 'pending' : 'declined';
}

export function firstPromoter(o: PlatformOptions): Source {
  const client = clientFor('FirstPromoter', 'https://api.firstpromoter.com/api/v2/company', o, {
    authorization: `Bearer ${o.apiKey}`,
    'account-id': o.accountId ?? '',
  });
  return {
    name: 'firstpromoter',
    title: 'FirstPromoter',
    async *partners(): AsyncIterable<Item<SourcePartner>> {
      for await (const p of pages(client, '/promoters')) {
        const campaigns = arr(p.promoter_campaigns).map(obj);
        yield partnerFrom(p, 'joined_at', {
          paypalEmail: null,
          state: p.archived_at ? 'declined' : promoterState(campaigns),
          slugs: campaigns.flatMap((c) => str(c.ref_token) ?? []),
        });
      }
    },
    async *referrals(): AsyncIterable<Item<SourceReferral>> {
      for await (const r of pages(client, '/referrals')) {
        const email = str(r.email);
        const promoter = str(obj(r.promoter_campaign).promoter_id) ?? str(obj(obj(r.promoter_campaign).promoter).id);
        const state = REFERRAL_STATES[String(r.state)];
        if (r.state === 'moved') yield skip('referral', r.id, 'moved to another promoter in FirstPromoter');
        else if (!email) yield skip('referral', r.id, 'no e-mail address');
        else if (!promoter) yield skip('referral', r.id, 'no promoter');
        else if (!state) yield skip('referral', r.id, `unknown state ${JSON.stringify(r.state)}`);
        else
          yield {
            kind: 'referral',
            id: String(r.id),
            partnerId: promoter,
            email,
            uid: str(r.uid),
            state,
            createdAt: seconds(r.created_at) ?? 0,
          };
      }
    },
    async *commissions(): AsyncIterable<Item<SourceCommission>> {
      for await (const c of pages(client, '/commissions')) yield commission(c, o.currency ?? '');
    },
  };
}

function commission(c: Json, currency: string): Item<SourceCommission> {
  const promoter = str(obj(c.promoter_campaign).promoter_id) ?? str(obj(obj(c.promoter_campaign).promoter).id);
  const amount = minorAmount(c.amount);
  if (c.unit !== undefined && c.unit !== 'cash') return skip('commission', c.id, `a reward in ${String(c.unit)}, not money`);
  if (!promoter) return skip('commission', c.id, 'no promoter');
  if (amount === undefined) return skip('commission', c.id, `amount ${JSON.stringify(c.amount)} is not a whole number of cents`);
  const createdAt = seconds(c.created_at) ?? 0;
  const state = c.is_paid === true ? 'paid' : c.status === 'denied' ? 'rejected' : 'pending';
  return {
    kind: 'commission',
    id: String(c.id),
    partnerId: promoter,
    referralId: str(obj(c.referral).id),
    amount,
    currency,
    state,
    rejectReason: state === 'rejected' ? 'denied in FirstPromoter' : null,
    payableAt: createdAt,
    paidAt: state === 'paid' ? (seconds(c.status_updated_at) ?? createdAt) : null,
    createdAt,
  };
}
