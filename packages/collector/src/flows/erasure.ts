// Erasing a person (docs/self-hosting.md, privacy): their referral goes (modules/referrals),
// or a partner with no history (modules/partners), and the audit log keeps its entries about
// them, without what named them (modules/audit), in one transaction.

import type { Db, Tx } from '../platform/db/db.js';
import { found } from '../platform/errors.js';
import { eraseIn, referralsOfEmail } from '../modules/referrals/service.js';
import { deletePartnerIn } from '../modules/partners/service.js';
import { anonymiseSubjects } from '../modules/audit/service.js';

async function erase(tx: Tx, row: { id: string; program_id: string }, now: number): Promise<boolean> {
  if (!(await eraseIn(tx, row.program_id, row.id, now))) return false;
  await anonymiseSubjects(tx, row.program_id, [row.id], now);
  return true;
}

/** DELETE /v1/referrals/:id: the program's referral, or a 404. */
export async function eraseReferral(db: Db, programId: string, id: string, now: number): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await eraseIn(tx, programId, id, now);
    if (!row) found(undefined, 'referral', id);
    else await anonymiseSubjects(tx, programId, [id], now);
  });
}

/**
 * DELETE /v1/partners/:id: a partner with no referrals or commissions goes with their
 * partnership, links, messages and leads; the log's entries about any of them, and the
 * partner's own in this program (in the portal, their account's), lose what named them.
 */
export async function erasePartner(db: Db, programId: string, id: string, now: number): Promise<void> {
  await db.transaction(async (tx) => {
    await anonymiseSubjects(tx, programId, await deletePartnerIn(tx, programId, id), now);
  });
}

/** `tally forget EMAIL`: erases the person in every program, or in one. Returns the referrals that went. */
export async function forgetEmail(db: Db, email: string, now: number, programId?: string): Promise<{ id: string; program_id: string }[]> {
  return db.transaction(async (tx) => {
    const erased: { id: string; program_id: string }[] = [];
    for (const row of await referralsOfEmail(tx, email, programId)) if (await erase(tx, row, now)) erased.push(row);
    return erased;
  });
}
