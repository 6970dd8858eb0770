// Which partnership a visitor's activity credits (docs/api.md §12): first the slug
// from the link (a key, then a competitor slug), otherwise the latest click recorded
// with the visitor's click id.

import { fail } from '../errors.js';
import type { Queryable } from '../store/db.js';
import * as partnerships from '../store/partnerships.js';
import type { CreditedPartnership } from '../store/partnerships.js';
import { normalizeSlug } from './slugs.js';

export async function attribute(
  db: Queryable,
  programId: string,
  pk: string | undefined,
  grId: string | undefined,
): Promise<CreditedPartnership> {
  const slug = pk ? normalizeSlug(pk) : '';
  const credited =
    (slug ? await partnerships.findBySlug(db, programId, slug) : undefined) ??
    (grId ? await partnerships.findByClick(db, programId, grId) : undefined);
  if (!credited) {
    throw fail('unattributed', 'neither pk nor gr_id leads to a partnership of this program', {
      field: pk ? 'pk' : 'gr_id',
    });
  }
  if (credited.state === 'declined') {
    throw fail('partnership_declined', 'the partnership this referral would credit is declined');
  }
  return credited;
}
