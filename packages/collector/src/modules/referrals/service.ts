// Referrals: the people partners referred, converted until they pay, churn or are rejected.

import { fail, found } from '../../platform/errors.js';
import { normalizeEmail } from '../../core/email.js';
import type { Db, Tx } from '../../platform/db/db.js';
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
 * Erases a person from a program, in the caller's transaction (flows/erasure.ts): the
 * referral, its clicks, and its link from commissions and payments, whose amounts stay for
 * the accounts. A later conversion for the same e-mail is a new referral. Resolves to the
 * row erased, or undefined when there was none.
 */
export async function eraseIn(tx: Tx, programId: string, id: string, now: number): Promise<ReferralRow | undefined> {
  const row = await referrals.get(tx, programId, id);
  return row && (await referrals.erase(tx, programId, id, now)) ? row : undefined;
}

/** The referrals of an e-mail address in every program, or in one (`tally forget`). */
export function referralsOfEmail(tx: Tx, email: string, programId?: string): Promise<Array<{ id: string; program_id: string }>> {
  return referrals.findEverywhere(tx, normalizeEmail(email), programId);
}
