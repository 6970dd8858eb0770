// The evidence of a referral side by side, for the owner deciding about it: the click,
// the address (as a short tag), the browser, the e-mails, and the timing.

import type { Queryable } from '../platform/db/db.js';
import { found } from '../platform/errors.js';
import * as partners from '../modules/partners/repo.js';
import * as referrals from '../modules/referrals/repo.js';
import { reviewOf } from '../core/review.js';

export async function evidenceOf(db: Queryable, programId: string, referralId: string) {
  const r = found(await referrals.get(db, programId, referralId), 'referral', referralId);
  const click = await db.get<{ created_at: number; url: string | null; referrer: string | null }>(
    'SELECT created_at, url, referrer FROM clicks WHERE program_id = ? AND gr_id = ? ORDER BY created_at LIMIT 1',
    [programId, r.gr_id],
  );
  const sameAddress = r.client_hash
    ? await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM referrals WHERE program_id = ? AND client_hash = ? AND id <> ?', [
        programId,
        r.client_hash,
        r.id,
      ])
    : undefined;
  const partner = await partners.get(db, programId, r.partner_id);
  return {
    id: r.id,
    type: 'review_evidence',
    attributes: {
      ...reviewOf(r),
      email: r.email,
      partner_email: partner?.email ?? null,
      partner_paypal_email: partner?.paypal_email ?? null,
      click: click ? { at: Number(click.created_at), url: click.url, referrer: click.referrer } : null,
      converted_at: r.created_at,
      seconds_from_click: click ? r.created_at - Number(click.created_at) : null,
      // A short tag of the address's hash: enough to see two conversions came from one place.
      address_tag: r.client_hash ? r.client_hash.slice(0, 8) : null,
      same_address_referrals: sameAddress ? Number(sameAddress.n) : 0,
      user_agent: r.user_agent,
    },
  };
}
