// Which partnership a visitor's activity credits (docs/api.md §12): first the slug
// from the link (a key, then a competitor slug), otherwise the latest click recorded
// with the visitor's click id. A slug's partnership is a setting like a token: kept in
// memory until a partnership, a partner or a slug changes (remembered.ts). Clicks come
// and go all the time, so the click id's is read each time.

import { fail } from '../platform/errors.js';
import type { Queryable } from '../platform/db/db.js';
import { creditedByClick, creditedBySlug } from '../modules/partnerships/service.js';
import type { CreditedPartnership } from '../modules/partnerships/model.js';
import { remembered } from '../platform/db/remembered.js';
import { normalizeSlug } from '../core/slugs.js';
import { creditedByCode } from '../modules/codes/service.js';

export async function attribute(
  db: Queryable,
  programId: string,
  pk: string | undefined,
  grId: string | undefined,
  code?: string | undefined,
): Promise<CreditedPartnership> {
  const slug = pk ? normalizeSlug(pk) : '';
  const credited =
    (slug ? await remembered(db, `slug:${programId} ${slug}`, () => creditedBySlug(db, programId, slug)) : undefined) ??
    (grId ? await creditedByClick(db, programId, grId) : undefined) ??
    // A promotion code the person typed: last, as the link they followed names their partner better.
    (code ? await creditedByCode(db, programId, code) : undefined);
  if (!credited) {
    throw fail(
      'unattributed',
      "neither pk, gr_id nor discount_code leads to a partnership of this program: pk is the key in a partner's referral link (?red=<key>), gr_id the click id the snippet recorded",
      {
        field: pk ? 'pk' : code ? 'discount_code' : 'gr_id',
      },
    );
  }
  if (credited.state === 'declined') {
    throw fail('partnership_declined', 'the partnership this referral would credit is declined');
  }
  return credited;
}
