import type { Queryable } from '../../platform/db/db.js';
import { lister } from '../../platform/db/list.js';
import { insertRow, updateRow } from '../../platform/db/rows.js';
import type { PartnershipState, PartnershipRow, CreditedPartnership } from './model.js';

const COLUMNS = { state: 'state', partner_id: 'partner_id', group_id: 'group_id', created_at: 'created_at' };

export async function insert(db: Queryable, row: PartnershipRow): Promise<void> {
  await insertRow(db, 'partnerships', row);
}

/** Writes the row if the stored state is still `from`; false when it moved meanwhile. */
export async function update(db: Queryable, row: PartnershipRow, from: PartnershipState): Promise<boolean> {
  const { key, state, competitor_slugs, commission_rate_bps, recurring_months, hold_days, minimum_payout, state_set_at, updated_at } = row;
  const fields = {
    key,
    state,
    competitor_slugs,
    commission_rate_bps,
    recurring_months,
    hold_days,
    minimum_payout,
    state_set_at,
    updated_at,
    decline_reason: row.decline_reason ?? null,
  };
  return (await updateRow(db, 'partnerships', row.program_id, row.id, fields, { state: from })) === 1;
}

/** Replaces every slug that credits the partnership (its key and competitor slugs); its links' keys stay. */
export async function setSlugs(db: Queryable, programId: string, partnershipId: string, slugs: readonly string[]): Promise<void> {
  await db.run('DELETE FROM slugs WHERE partnership_id = ? AND link_id IS NULL', [partnershipId]);
  for (const slug of slugs) {
    await db.run('INSERT INTO slugs (program_id, slug, partnership_id) VALUES (?, ?, ?)', [programId, slug, partnershipId]);
  }
}

/** The slugs among `slugs` that already credit some other partnership of the program. */
export async function slugsTaken(
  db: Queryable,
  programId: string,
  slugs: readonly string[],
  exceptPartnershipId: string | null,
): Promise<string[]> {
  const taken: string[] = [];
  for (const slug of slugs) {
    const row = await db.get<{ partnership_id: string; link_id: string | null }>(
      'SELECT partnership_id, link_id FROM slugs WHERE program_id = ? AND slug = ?',
      [programId, slug],
    );
    // A link's key is taken even by its own partnership: it is not one of its slugs to replace.
    if (row && (row.partnership_id !== exceptPartnershipId || row.link_id !== null)) taken.push(slug);
  }
  return taken;
}

export function get(db: Queryable, programId: string, id: string): Promise<PartnershipRow | undefined> {
  return db.get<PartnershipRow>('SELECT * FROM partnerships WHERE program_id = ? AND id = ?', [programId, id]);
}

/**
 * A partnership a payment credits, held against a change of its state until the payment
 * commits (PostgreSQL's FOR SHARE: payments share it, a decline waits; SQLite has one writer).
 */
export function getToCredit(db: Queryable, programId: string, id: string): Promise<PartnershipRow | undefined> {
  const share = db.engine === 'postgres' ? ' FOR SHARE' : '';
  return db.get<PartnershipRow>(`SELECT * FROM partnerships WHERE program_id = ? AND id = ?${share}`, [programId, id]);
}

export function getByPartner(db: Queryable, programId: string, partnerId: string): Promise<PartnershipRow | undefined> {
  return db.get<PartnershipRow>('SELECT * FROM partnerships WHERE program_id = ? AND partner_id = ?', [programId, partnerId]);
}

/** Makes a link's key credit its partnership (false: the key credits something already). */
export async function addLinkSlug(db: Queryable, programId: string, partnershipId: string, slug: string, linkId: string): Promise<boolean> {
  const added = await db.run('INSERT INTO slugs (program_id, slug, partnership_id, link_id) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING', [
    programId,
    slug,
    partnershipId,
    linkId,
  ]);
  return added === 1;
}

export async function removeLinkSlug(db: Queryable, programId: string, linkId: string): Promise<void> {
  await db.run('DELETE FROM slugs WHERE program_id = ? AND link_id = ?', [programId, linkId]);
}

const CREDITED = `SELECT ps.*, pa.email_norm AS partner_email_norm, pa.paypal_email_norm AS partner_paypal_email_norm
                    FROM partnerships ps JOIN partners pa ON pa.id = ps.partner_id`;

/** The partnership a referral slug (a key or a competitor slug) credits. */
export function findBySlug(db: Queryable, programId: string, slug: string): Promise<CreditedPartnership | undefined> {
  return db.get<CreditedPartnership>(
    `${CREDITED.replace('SELECT ps.*', 'SELECT s.link_id, ps.*')} JOIN slugs s ON s.partnership_id = ps.id WHERE s.program_id = ? AND s.slug = ?`,
    [programId, slug],
  );
}

/** The partnership of the latest click recorded with this click id. */
export function findByClick(db: Queryable, programId: string, grId: string): Promise<CreditedPartnership | undefined> {
  return db.get<CreditedPartnership>(
    `${CREDITED} WHERE ps.id = (SELECT c.partnership_id FROM clicks c WHERE c.program_id = ? AND c.gr_id = ?
                                 ORDER BY c.last_seen_at DESC, c.id DESC LIMIT 1)`,
    [programId, grId],
  );
}

export const list = lister<PartnershipRow>('partnerships', COLUMNS);
