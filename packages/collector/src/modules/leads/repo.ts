import type { Queryable } from '../../platform/db/db.js';
import { lister } from '../../platform/db/list.js';
import { insertRow, updateRow } from '../../platform/db/rows.js';
import type { LeadRow, LeadStage } from './model.js';

const COLUMNS = {
  stage: 'stage',
  partner_id: 'partner_id',
  email: 'email_norm',
  created_at: 'created_at',
};

export async function insert(db: Queryable, row: LeadRow): Promise<void> {
  await insertRow(db, 'leads', row);
}

export function get(db: Queryable, programId: string, id: string): Promise<LeadRow | undefined> {
  return db.get<LeadRow>('SELECT * FROM leads WHERE program_id = ? AND id = ?', [programId, id]);
}

export const list = lister<LeadRow>('leads', COLUMNS);

/** The program's latest lead with this address, or else with this company domain, submitted since `since`. */
export async function earlierLead(
  db: Queryable,
  programId: string,
  emailNorm: string,
  domain: string | null,
  since: number,
): Promise<LeadRow | undefined> {
  const byEmail = await db.get<LeadRow>(
    'SELECT * FROM leads WHERE program_id = ? AND email_norm = ? AND created_at >= ? ORDER BY created_at DESC, id DESC LIMIT 1',
    [programId, emailNorm, since],
  );
  if (byEmail || domain === null) return byEmail;
  return db.get<LeadRow>('SELECT * FROM leads WHERE program_id = ? AND domain = ? AND created_at >= ? ORDER BY created_at DESC LIMIT 1', [
    programId,
    domain,
    since,
  ]);
}

/** Moves a lead out of `from` in one conditional update; false when it was no longer there. */
export async function move(
  db: Queryable,
  row: LeadRow,
  from: LeadStage,
  fields: Pick<LeadRow, 'stage' | 'stage_set_at' | 'lost_reason' | 'referral_id' | 'updated_at'>,
): Promise<boolean> {
  return (await updateRow(db, 'leads', row.program_id, row.id, { ...fields }, { stage: from })) === 1;
}
