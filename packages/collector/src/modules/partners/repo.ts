import type { Queryable } from '../../platform/db/db.js';
import { lister } from '../../platform/db/list.js';
import { uncountClicks, uncountPurgedClicks } from '../../events/deltas.js';
import { insertRow, updateRow } from '../../platform/db/rows.js';

export interface PartnerRow {
  id: string;
  program_id: string;
  name: string;
  email: string;
  email_norm: string;
  paypal_email: string | null;
  paypal_email_norm: string | null;
  /** The portal account of the person, once they have one. */
  account_id: string | null;
  /** The language the partner chose in the portal; null: their browser's, else the program's. */
  locale: string | null;
  /** Invoices' billing details (docs/payouts.md#invoices): the legal name (else `name`), address and VAT ID; null: not given. */
  billing_name: string | null;
  billing_address: string | null;
  billing_vat_id: string | null;
  created_at: number;
  updated_at: number;
}

// Email filters compare normalized addresses (docs/api.md §11).
const COLUMNS = { name: 'name', email: 'email_norm', paypal_email: 'paypal_email_norm', created_at: 'created_at' };

export async function insert(db: Queryable, row: PartnerRow): Promise<void> {
  await insertRow(db, 'partners', row);
}

export async function update(db: Queryable, row: PartnerRow): Promise<void> {
  const { name, email, email_norm, paypal_email, paypal_email_norm, locale, billing_name, billing_address, billing_vat_id, updated_at } =
    row;
  await updateRow(db, 'partners', row.program_id, row.id, {
    name,
    email,
    email_norm,
    paypal_email,
    paypal_email_norm,
    locale,
    billing_name,
    billing_address,
    billing_vat_id,
    updated_at,
  });
}

export function get(db: Queryable, programId: string, id: string): Promise<PartnerRow | undefined> {
  return db.get<PartnerRow>('SELECT * FROM partners WHERE program_id = ? AND id = ?', [programId, id]);
}

/** True when deleting the partner would orphan money or attribution records. */
export async function hasHistory(db: Queryable, programId: string, id: string): Promise<boolean> {
  const row = await db.get(
    `SELECT 1 WHERE EXISTS (SELECT 1 FROM referrals WHERE program_id = ? AND partner_id = ?)
                 OR EXISTS (SELECT 1 FROM commissions WHERE program_id = ? AND partner_id = ?)`,
    [programId, id, programId, id],
  );
  return row !== undefined;
}

/** Removes the partner with its partnership, slugs, clicks, messages and leads; resolves to the ids of the partnerships and leads that went. */
export async function remove(db: Queryable, programId: string, id: string): Promise<string[]> {
  const partnerships = await db.all<{ id: string }>('SELECT id FROM partnerships WHERE program_id = ? AND partner_id = ?', [programId, id]);
  const leads = await db.all<{ id: string }>('SELECT id FROM leads WHERE program_id = ? AND partner_id = ?', [programId, id]);
  // Their leads, none of them won (a won lead's referral is history, which keeps the partner).
  await db.run('DELETE FROM leads WHERE program_id = ? AND partner_id = ?', [programId, id]);
  for (const p of partnerships) {
    await uncountClicks(db, 'c.partnership_id = ?', [p.id]);
    await db.run('DELETE FROM clicks WHERE partnership_id = ?', [p.id]);
    await db.run('DELETE FROM slugs WHERE partnership_id = ?', [p.id]);
    // Its messages go with it: a thread is the partnership's (modules/messages).
    await db.run('DELETE FROM messages WHERE thread_id = ?', [p.id]);
    await db.run('DELETE FROM message_threads WHERE id = ?', [p.id]);
    await db.run('DELETE FROM partnerships WHERE id = ?', [p.id]);
  }
  await uncountPurgedClicks(db, programId, id);
  await db.run('DELETE FROM partners WHERE program_id = ? AND id = ?', [programId, id]);
  return [...partnerships, ...leads].map((r) => r.id);
}

export const list = lister<PartnerRow>('partners', COLUMNS);

export function findByEmail(db: Queryable, programId: string, emailNorm: string): Promise<PartnerRow | undefined> {
  return db.get<PartnerRow>('SELECT * FROM partners WHERE program_id = ? AND email_norm = ?', [programId, emailNorm]);
}
