// Erasing a person (docs/self-hosting.md, privacy): their referral goes (modules/referrals),
// and the audit log keeps its entries about them, without what named them (modules/audit),
// in one transaction.

import type { Db, Tx } from '../platform/db/db.js';
import { found } from '../platform/errors.js';
import { eraseIn, referralsOfEmail } from '../modules/referrals/service.js';
import { anonymiseSubject } from '../modules/audit/service.js';

async function erase(tx: Tx, row: { id: string; program_id: string }, now: number): Promise<boolean> {
  if (!(await eraseIn(tx, row.program_id, row.id, now))) return false;
  await anonymiseSubject(tx, row.program_id, row.id, now);
  return true;
}

/** DELETE /v1/referrals/:id: the program's referral, or a 404. */
export async function eraseReferral(db: Db, programId: string, id: string, now: number): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await eraseIn(tx, programId, id, now);
    if (!row) found(undefined, 'referral', id);
    else await anonymiseSubject(tx, programId, id, now);
  });
}

/** `tally forget EMAIL`: erases the person in every program, or in one. Returns how many referrals went. */
export async function forgetEmail(db: Db, email: string, now: number, programId?: string): Promise<number> {
  return db.transaction(async (tx) => {
    let erased = 0;
    for (const row of await referralsOfEmail(tx, email, programId)) if (await erase(tx, row, now)) erased++;
    return erased;
  });
}
