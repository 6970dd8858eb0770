// What review tells other modules: the money it holds back from a partner's totals.

import type { Queryable } from '../../platform/db/db.js';
import * as review from './repo.js';

/** A partner's held or rejected money and customers created in [from, to), per currency: what its totals must not count yet. */
export function heldBack(db: Queryable, programId: string, partnerId: string, from: number, to: number) {
  return review.unapproved(db, programId, partnerId, from, to);
}
