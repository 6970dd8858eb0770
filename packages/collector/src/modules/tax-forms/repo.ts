import type { Queryable } from '../../platform/db/db.js';
import { insertRow } from '../../platform/db/rows.js';
import type { TaxFormRow } from './model.js';

export async function insert(db: Queryable, row: TaxFormRow): Promise<void> {
  await insertRow(db, 'tax_forms', row);
}

/** The partner's latest form in the program. */
export function latest(db: Queryable, programId: string, partnerId: string): Promise<TaxFormRow | undefined> {
  return db.get<TaxFormRow>('SELECT * FROM tax_forms WHERE program_id = ? AND partner_id = ? ORDER BY signed_at DESC, id DESC LIMIT 1', [
    programId,
    partnerId,
  ]);
}

/** Every partner's latest form in the program. */
export function latestOfProgram(db: Queryable, programId: string): Promise<TaxFormRow[]> {
  return db.all<TaxFormRow>(
    `SELECT f.* FROM tax_forms f
      WHERE f.program_id = ? AND f.id = (SELECT l.id FROM tax_forms l WHERE l.program_id = f.program_id AND l.partner_id = f.partner_id
                                          ORDER BY l.signed_at DESC, l.id DESC LIMIT 1)
      ORDER BY f.partner_id`,
    [programId],
  );
}

/** Forms sealed with another key than `keyId`, a page at a time, for re-encryption. */
export function sealedWithOther(db: Queryable, keyId: string, limit: number): Promise<TaxFormRow[]> {
  return db.all<TaxFormRow>('SELECT * FROM tax_forms WHERE tin_key_id <> ? ORDER BY id LIMIT ?', [keyId, limit]);
}

export async function reseal(db: Queryable, id: string, from: string, ciphertext: string, keyId: string): Promise<boolean> {
  return (
    (await db.run('UPDATE tax_forms SET tin_ciphertext = ?, tin_key_id = ? WHERE id = ? AND tin_key_id = ?', [
      ciphertext,
      keyId,
      id,
      from,
    ])) === 1
  );
}

export async function required(db: Queryable, programId: string): Promise<boolean> {
  const row = await db.get<{ required: number }>('SELECT required FROM tax_form_settings WHERE program_id = ?', [programId]);
  return row?.required === 1;
}

export async function setRequired(db: Queryable, programId: string, value: boolean, now: number): Promise<void> {
  await db.run(
    `INSERT INTO tax_form_settings (program_id, required, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (program_id) DO UPDATE SET required = excluded.required, updated_at = excluded.updated_at`,
    [programId, value ? 1 : 0, now],
  );
}
