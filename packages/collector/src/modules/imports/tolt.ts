// Tolt's API v2 (https://docs.tolt.com/api-reference/introduction): a Bearer API key, lists
// of `limit` (at most 100) paged by passing `next_cursor` back as `starting_after` until
// `has_more` is false, money as strings of minor units. Links (`?ref=value`, or the
// program's own parameter) first, then partners, customers and commissions.

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
import type { PartnershipState } from '../partnerships/model.js';
import type { ReferralState } from '../referrals/model.js';
import type { CommissionState } from '../commissions/model.js';
import { append } from '../../core/lists.js';

async function* pages(client: ClientOptions, path: string): AsyncIterable<Json> {
  for (let cursor: string | null = null; ; ) {
    const body = obj(await getJson(client, path, { limit: 100, ...(cursor ? { starting_after: cursor } : {}) }));
    for (const row of arr(body.data)) yield obj(row);
    cursor = str(body.next_cursor);
    if (body.has_more !== true || !cursor) return;
  }
}

const PARTNER_STATES: Record<string, PartnershipState> = {
  active: 'accepted',
  pending: 'pending',
  suspended: 'declined',
  rejected: 'declined',
};
const CUSTOMER_STATES: Record<string, ReferralState> = { lead: 'converted', trialing: 'converted', active: 'paid', canceled: 'churned' };
const COMMISSION_STATES: Record<string, CommissionState> = {
  pending: 'pending',
  approved: 'pending',
  paid: 'paid',
  rejected: 'rejected',
  refunded: 'rejected',
};

export function tolt(o: PlatformOptions): Source {
  const client = clientFor('Tolt', 'https://platform.tolt.com/v2', o, { authorization: `Bearer ${o.apiKey}` });
  return {
    name: 'tolt',
    title: 'Tolt',
    async *partners(): AsyncIterable<Item<SourcePartner>> {
      const links = new Map<string, string[]>();
      for await (const l of pages(client, '/links')) {
        const partner = str(l.partner_id);
        const value = str(l.value);
        if (partner && value) append(links, partner, value);
      }
      for await (const p of pages(client, '/partners')) {
        yield partnerFrom(p, 'created_at', {
          paypalEmail: p.payout_method === 'paypal' ? str(obj(p.payout_details).email) : null,
          state: PARTNER_STATES[String(p.status)] ?? 'pending',
          slugs: links.get(String(p.id)) ?? [],
        });
      }
    },
    async *referrals(): AsyncIterable<Item<SourceReferral>> {
      for await (const c of pages(client, '/customers')) {
        const email = str(c.email);
        const state = CUSTOMER_STATES[String(c.status)];
        if (!email) yield skip('referral', c.id, 'no e-mail address');
        else if (!str(c.partner_id)) yield skip('referral', c.id, 'no partner');
        else if (!state) yield skip('referral', c.id, `unknown status ${JSON.stringify(c.status)}`);
        else
          yield {
            kind: 'referral',
            id: String(c.id),
            partnerId: String(c.partner_id),
            email,
            uid: str(c.customer_id),
            state,
            createdAt: seconds(c.created_at) ?? 0,
          };
      }
    },
    async *commissions(): AsyncIterable<Item<SourceCommission>> {
      for await (const c of pages(client, '/commissions')) yield commission(c, o.currency);
    },
  };
}

function commission(c: Json, fallbackCurrency: string | undefined): Item<SourceCommission> {
  const amount = minorAmount(c.amount);
  const state = COMMISSION_STATES[String(c.status)];
  const currency = str(c.currency) ?? fallbackCurrency;
  if (!str(c.partner_id)) return skip('commission', c.id, 'no partner');
  if (amount === undefined) return skip('commission', c.id, `amount ${JSON.stringify(c.amount)} is not a whole number of minor units`);
  if (!state) return skip('commission', c.id, `unknown status ${JSON.stringify(c.status)}`);
  if (!currency) return skip('commission', c.id, 'no currency: give the program’s with --currency');
  const createdAt = seconds(c.created_at) ?? 0;
  return {
    kind: 'commission',
    id: String(c.id),
    partnerId: String(c.partner_id),
    referralId: str(c.customer_id),
    amount,
    currency,
    state,
    rejectReason: state === 'rejected' ? `${String(c.status)} in Tolt` : null,
    payableAt: createdAt,
    paidAt: state === 'paid' ? (seconds(c.updated_at) ?? createdAt) : null,
    createdAt,
  };
}
