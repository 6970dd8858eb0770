import type { Queryable } from '../../platform/db/db.js';
import { insertRow } from '../../platform/db/rows.js';
import type { ProgramRow } from './model.js';

export async function insert(db: Queryable, row: ProgramRow, origins: readonly string[]): Promise<void> {
  await insertRow(db, 'programs', row);
  for (const origin of origins) {
    await db.run('INSERT INTO program_origins (program_id, origin) VALUES (?, ?)', [row.id, origin]);
  }
}

export function get(db: Queryable, id: string): Promise<ProgramRow | undefined> {
  return db.get<ProgramRow>('SELECT * FROM programs WHERE id = ?', [id]);
}

export function list(db: Queryable): Promise<ProgramRow[]> {
  return db.all<ProgramRow>('SELECT * FROM programs ORDER BY created_at, id');
}

export async function count(db: Queryable): Promise<number> {
  const row = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM programs');
  return Number(row?.n ?? 0);
}

export async function origins(db: Queryable, programId: string): Promise<string[]> {
  const rows = await db.all<{ origin: string }>('SELECT origin FROM program_origins WHERE program_id = ? ORDER BY origin', [programId]);
  return rows.map((r) => r.origin);
}

export async function allowsOrigin(db: Queryable, programId: string, origin: string): Promise<boolean> {
  const row = await db.get('SELECT 1 FROM program_origins WHERE program_id = ? AND origin = ?', [programId, origin]);
  return row !== undefined;
}

export type ProgramFields = Partial<
  Pick<
    ProgramRow,
    | 'name'
    | 'site_url'
    | 'commission_rate_bps'
    | 'cookie_days'
    | 'recurring_months'
    | 'hold_days'
    | 'minimum_payout'
    | 'slug'
    | 'description'
    | 'page_enabled'
    | 'auto_accept'
    | 'code_wins'
    | 'partner_codes'
    | 'code_prefix'
    | 'code_max_length'
    | 'auto_codes'
    | 'stripe_api_key'
    | 'lemonsqueezy_api_key'
    | 'review_signals'
    | 'locale'
    | 'billing_name'
    | 'billing_address'
    | 'billing_vat_id'
  >
>;

/** Sets the given fields and updated_at; false when there is no such program. */
export async function update(db: Queryable, id: string, fields: ProgramFields, now: number): Promise<boolean> {
  const set = { ...fields, updated_at: now };
  const columns = Object.keys(set).map((c) => `${c} = ?`);
  return (await db.run(`UPDATE programs SET ${columns.join(', ')} WHERE id = ?`, [...Object.values(set), id])) === 1;
}

export async function addOrigins(db: Queryable, programId: string, origins: readonly string[]): Promise<void> {
  for (const origin of origins) {
    await db.run('INSERT INTO program_origins (program_id, origin) VALUES (?, ?) ON CONFLICT DO NOTHING', [programId, origin]);
  }
}

export async function removeOrigins(db: Queryable, programId: string, origins: readonly string[]): Promise<void> {
  for (const origin of origins) {
    await db.run('DELETE FROM program_origins WHERE program_id = ? AND origin = ?', [programId, origin]);
  }
}

export function getByBillingEndpoint(db: Queryable, endpointId: string): Promise<ProgramRow | undefined> {
  return db.get<ProgramRow>('SELECT * FROM programs WHERE stripe_endpoint_id = ?', [endpointId]);
}

/** Gives the program its billing endpoint id (one for every platform, `stripe_endpoint_id` since Stripe came first) unless it has one; resolves to it. */
export async function ensureBillingEndpoint(db: Queryable, id: string, endpointId: string): Promise<string> {
  await db.run('UPDATE programs SET stripe_endpoint_id = ? WHERE id = ? AND stripe_endpoint_id IS NULL', [endpointId, id]);
  const row = await db.get<{ stripe_endpoint_id: string }>('SELECT stripe_endpoint_id FROM programs WHERE id = ?', [id]);
  return row!.stripe_endpoint_id;
}

export function getBySlug(db: Queryable, slug: string): Promise<ProgramRow | undefined> {
  return db.get<ProgramRow>('SELECT * FROM programs WHERE slug = ?', [slug]);
}
