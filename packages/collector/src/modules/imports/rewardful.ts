// Rewardful's REST API (https://developers.rewardful.com/rest-api/overview): HTTP Basic with
// the API secret as the user name, pages of `page` and `limit` (at most 100) with a
// `pagination` object whose `next_page` is null on the last. Affiliates with their links
// (`?via=token`), referrals, commissions with their sale (affiliate and referral).

import { getJson, type ClientOptions } from './client.js';
import {
  skip,
  seconds,
  minorAmount,
  type Item,
  type Source,
  type SourceCommission,
  type SourcePartner,
  type SourceReferral,
} from './model.js';
import { arr, clientFor, obj, partnerFrom, str, type Json, type PlatformOptions } from './platform.js';
import type { PartnershipState } from '../partnerships/model.js';
import type { CommissionState } from '../commissions/model.js';

async function* pages(client: ClientOptions, path: string, expand: string): AsyncIterable<Json> {
  for (let page: unknown = 1; typeof page === 'number'; ) {
    const body = obj(await getJson(client, path, { page, limit: 100, 'expand[]': expand }));
    for (const row of arr(body.data)) yield obj(row);
    page = obj(body.pagination).next_page;
  }
}

const AFFILIATE_STATES: Record<string, PartnershipState> = { active: 'accepted', pending: 'pending' };
const COMMISSION_STATES: Record<string, CommissionState> = { due: 'pending', pending: 'pending', paid: 'paid', voided: 'rejected' };

export function rewardful(o: PlatformOptions): Source {
  const client = clientFor('Rewardful', 'https://api.getrewardful.com/v1', o, {
    authorization: `Basic ${Buffer.from(`${o.apiKey}:`).toString('base64')}`,
  });
  return {
    name: 'rewardful',
    title: 'Rewardful',
    async *partners(): AsyncIterable<Item<SourcePartner>> {
      for await (const a of pages(client, '/affiliates', 'links')) {
        yield partnerFrom(a, 'created_at', {
          paypalEmail: str(a.paypal_email),
          // Anything else (a disabled affiliate) no longer earns: declined keeps its links from crediting.
          state: AFFILIATE_STATES[String(a.state)] ?? 'declined',
          slugs: arr(a.links).flatMap((l) => str(obj(l).token) ?? []),
        });
      }
    },
    async *referrals(): AsyncIterable<Item<SourceReferral>> {
      for await (const r of pages(client, '/referrals', 'affiliate')) {
        const email = str(obj(r.customer).email);
        const affiliate = str(obj(r.affiliate).id);
        if (r.conversion_state === 'visitor' || !email) {
          yield skip('referral', r.id, 'a visitor who never signed up: no e-mail address to record');
          continue;
        }
        if (!affiliate) {
          yield skip('referral', r.id, 'no affiliate');
          continue;
        }
        const paying = r.conversion_state === 'conversion';
        yield {
          kind: 'referral',
          id: String(r.id),
          partnerId: affiliate,
          email,
          uid: str(obj(r.customer).id),
          state: paying ? (str(r.deactivated_at) ? 'churned' : 'paid') : 'converted',
          createdAt: seconds(r.created_at) ?? 0,
        };
      }
    },
    async *commissions(): AsyncIterable<Item<SourceCommission>> {
      for await (const c of pages(client, '/commissions', 'sale')) yield commission(c);
    },
  };
}

function commission(c: Json): Item<SourceCommission> {
  const sale = obj(c.sale);
  const affiliate = str(obj(sale.affiliate).id) ?? str(obj(c.affiliate).id);
  const amount = minorAmount(c.amount);
  const state = COMMISSION_STATES[String(c.state)];
  if (!affiliate) return skip('commission', c.id, 'no affiliate (list commissions with expand[]=sale)');
  if (amount === undefined) return skip('commission', c.id, `amount ${JSON.stringify(c.amount)} is not a whole number of cents`);
  if (!state) return skip('commission', c.id, `unknown state ${JSON.stringify(c.state)}`);
  const createdAt = seconds(c.created_at) ?? 0;
  return {
    kind: 'commission',
    id: String(c.id),
    partnerId: affiliate,
    referralId: str(obj(sale.referral).id),
    amount,
    currency: String(c.currency ?? ''),
    state,
    rejectReason: state === 'rejected' ? 'voided in Rewardful' : null,
    payableAt: seconds(c.due_at) ?? createdAt,
    paidAt: state === 'paid' ? (seconds(c.paid_at) ?? createdAt) : null,
    createdAt,
  };
}
