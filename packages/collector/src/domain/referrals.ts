// Referrals: the people partners referred, converted until they pay, churn or are rejected.

import { fail, found } from '../errors.js';
import type { Db } from '../store/db.js';
import * as referrals from '../store/referrals.js';
import type { ReferralRow, ReferralState } from '../store/referrals.js';
import { assertMove } from './state-machines.js';

export async function moveReferral(
  db: Db,
  programId: string,
  id: string,
  to: ReferralState,
  now: number,
): Promise<ReferralRow> {
  return db.transaction(async (tx) => {
    const row = found(await referrals.get(tx, programId, id), 'referral', id);
    assertMove('referral', row.state, to);
    if (!(await referrals.move(tx, programId, id, row.state, to, now))) {
      throw fail('invalid_transition', 'the referral changed state meanwhile; read it again', { pointer: '/state' });
    }
    return { ...row, state: to, state_set_at: now, updated_at: now };
  });
}
