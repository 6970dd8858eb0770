// Partnerships read by other modules and the flows: found by id, by partner, by a click or a slug.

import type { Queryable } from '../../platform/db/db.js';
import { found } from '../../platform/errors.js';
import type { CreditedPartnership, PartnershipRow } from './model.js';
import * as partnerships from './repo.js';

/** The partnership, or undefined (for a caller that decides what absence means). */
export function findPartnership(db: Queryable, programId: string, id: string): Promise<PartnershipRow | undefined> {
  return partnerships.get(db, programId, id);
}

/** A partner's partnership of the program (one each), or undefined. */
export function partnershipOfPartner(db: Queryable, programId: string, partnerId: string): Promise<PartnershipRow | undefined> {
  return partnerships.getByPartner(db, programId, partnerId);
}

export async function getPartnership(db: Queryable, programId: string, id: string): Promise<PartnershipRow> {
  return found(await partnerships.get(db, programId, id), 'partnership', id);
}

/** The partnership a click names (by its gr_id), ready to credit, or undefined. */
export const creditedByClick = (db: Queryable, programId: string, grId: string): Promise<CreditedPartnership | undefined> =>
  partnerships.findByClick(db, programId, grId);

/** The partnership a referral link's slug names, ready to credit, or undefined. */
export const creditedBySlug = (db: Queryable, programId: string, slug: string): Promise<CreditedPartnership | undefined> =>
  partnerships.findBySlug(db, programId, slug);

/** A link's key, made to credit its partnership (false: the key credits something already). */
export const addLinkSlug = partnerships.addLinkSlug;

/** A link's key, made to credit nothing (the link disabled). */
export const removeLinkSlug = partnerships.removeLinkSlug;

/** Whether the slug credits anything in the program (a key, a competitor slug, a link). */
export const slugTaken = async (db: Queryable, programId: string, slug: string): Promise<boolean> =>
  (await partnerships.slugsTaken(db, programId, [slug], null)).length > 0;
