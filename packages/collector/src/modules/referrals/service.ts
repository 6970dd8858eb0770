// Referrals: the people partners referred, converted until they pay, churn or are rejected.

import { fail, found } from '../../platform/errors.js';
import { normalizeEmail } from '../../core/email.js';
import type { Db } from '../../platform/db/db.js';
import * as referrals from './repo.js';
import type { ReferralRow } from './repo.js';
import type { ReferralState } from './model.js';
import { assertMove } from '../../core/state-machines.js';
import { renderReferral } from './present.js';
import { emit } from '../../events/emit.js';

export async function moveReferral(db: Db, programId: string, id: string, to: ReferralState, now: number): Promise<ReferralRow> {
  return db.transaction(async (tx) => {
    const row = found(await referrals.get(tx, programId, id), 'referral', id);
    assertMove('referral', row.state, to);
    if (!(await referrals.move(tx, programId, id, row.state, to, now))) {
      throw fail('invalid_transition', 'the referral changed state meanwhile; read it again', { field: 'state' });
    }
    const after = { ...row, state: to, state_set_at: Math.max(now, row.created_at), updated_at: now };
    await emit(tx, programId, 'referral.updated', renderReferral(after), now);
    return after;
  });
}

/**
 * Erases a person from a program: the referral, its clicks, and its link from
 * commissions and payments, whose amounts stay for the accounts. A later conversion for
 * the same e-mail is a new referral.
 */
export async function eraseReferral(db: Db, programId: string, id: string, now: number): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await referrals.erase(tx, programId, id, now))) found(undefined, 'referral', id);
  });
}

/** `tally forget EMAIL`: erases the person in every program, or in one. Returns how many referrals went. */
export async function forgetEmail(db: Db, email: string, now: number, programId?: string): Promise<number> {
  return db.transaction(async (tx) => {
    let erased = 0;
    const rows = await referrals.findEverywhere(tx, normalizeEmail(email), programId);
    for (const row of rows) if (await referrals.erase(tx, row.program_id, row.id, now)) erased++;
    return erased;
  });
}
