// Partners' accounts for the portal: the person, their sessions and one-time links (found
// by the SHA-256 of what the browser holds), and what their account reaches: the partner
// records linked to it, each in one program, the partnerships of those, and the payouts
// that paid them.

import type { Param, Queryable } from '../../platform/db/db.js';
import type { Credentials } from '../identity/model.js';
import type { FieldFilter, Page, PageRequest } from '../../platform/db/list.js';
import type { PartnershipRow } from '../partnerships/model.js';
import { insertRow } from '../../platform/db/rows.js';

/** A partner's account: credentials, always with an address. */
export interface AccountRow extends Credentials {
  email: string;
  email_norm: string;
  created_at: number;
  updated_at: number;
}

export interface PartnerSessionRow {
  id: string;
  hash: string;
  account_id: string;
  created_at: number;
  last_seen_at: number;
  verified_at: number | null;
}

/** A partnership the account reaches, with what the portal shows of its program and partner record. */
export interface ReachedPartnership extends PartnershipRow {
  program_name: string;
  program_slug: string | null;
  program_site_url: string;
  program_rate_bps: number;
  /** The program's rules for partners' own codes (modules/codes). */
  program_partner_codes: number;
  program_code_prefix: string;
  program_code_max_length: number;
  /** The minimum-payout objects (JSON) of the program and of the partnership's group; the partnership's own is `minimum_payout`. */
  program_minimum_payout: string;
  group_minimum_payout: string | null;
  partner_name: string;
  paypal_email: string | null;
  /** The language the partner chose (the same on each of the account's records), and the program's default. */
  partner_locale: string | null;
  program_locale: string;
  /** What the partner's invoices print (docs/payouts.md#invoices), the same on each of the account's records. */
  billing_name: string | null;
  billing_address: string | null;
  billing_vat_id: string | null;
  /** The program's branding (docs/branding.md); null where it has none. */
  brand_accent: string | null;
  brand_logo_id: string | null;
  brand_host: string | null;
}

export async function insertAccount(db: Queryable, row: AccountRow): Promise<void> {
  await insertRow(db, 'partner_accounts', row);
}

export function accountById(db: Queryable, id: string): Promise<AccountRow | undefined> {
  return db.get<AccountRow>('SELECT * FROM partner_accounts WHERE id = ?', [id]);
}

export function accountByEmail(db: Queryable, emailNorm: string): Promise<AccountRow | undefined> {
  return db.get<AccountRow>('SELECT * FROM partner_accounts WHERE email_norm = ?', [emailNorm]);
}

/** Links the program's partner record to the account (a partner record has one account at most). */
export function linkPartner(db: Queryable, programId: string, partnerId: string, accountId: string): Promise<number> {
  return db.run('UPDATE partners SET account_id = ? WHERE program_id = ? AND id = ? AND (account_id IS NULL OR account_id = ?)', [
    accountId,
    programId,
    partnerId,
    accountId,
  ]);
}

/** The partner record an invitation's link names: which program it is in, and the account it is linked to, if any. */
export function invitedPartner(
  db: Queryable,
  partnerId: string,
): Promise<{ id: string; program_id: string; account_id: string | null } | undefined> {
  return db.get('SELECT id, program_id, account_id FROM partners WHERE id = ?', [partnerId]);
}

/** True when a program other than `programId` has an open invitation link of the account. */
export async function invitedElsewhere(db: Queryable, accountId: string, programId: string, now: number): Promise<boolean> {
  const row = await db.get(
    `SELECT 1 AS one FROM partner_links WHERE account_id = ? AND purpose = 'invitation' AND used_at IS NULL AND expires_at > ?
      AND program_id IS NOT NULL AND program_id <> ? LIMIT 1`,
    [accountId, now, programId],
  );
  return row !== undefined;
}

/** True when the account reaches a partner record in a program other than `programId`. */
export async function reachesOtherProgram(db: Queryable, accountId: string, programId: string): Promise<boolean> {
  return (
    (await db.get('SELECT 1 AS one FROM partners WHERE account_id = ? AND program_id <> ? LIMIT 1', [accountId, programId])) !== undefined
  );
}

/** The name, PayPal address and language the partner gives in the portal, on every partner record of the account. */
export function updatePartnerRecords(
  db: Queryable,
  accountId: string,
  fields: {
    name?: string;
    paypal_email?: string | null;
    paypal_email_norm?: string | null;
    locale?: string | null;
    billing_name?: string | null;
    billing_address?: string | null;
    billing_vat_id?: string | null;
  },
  now: number,
): Promise<number> {
  const set = Object.keys(fields).map((c) => `${c} = ?`);
  return db.run(`UPDATE partners SET ${set.join(', ')}, updated_at = ? WHERE account_id = ?`, [...Object.values(fields), now, accountId]);
}

/** What the portal shows with a partnership (`s`): its program's (`p`) name, address and rules, its partner record's (`pa`) name and PayPal address. */
const REACHED = `SELECT s.*, p.name AS program_name, p.slug AS program_slug, p.site_url AS program_site_url, p.commission_rate_bps AS program_rate_bps,
            p.partner_codes AS program_partner_codes, p.code_prefix AS program_code_prefix, p.code_max_length AS program_code_max_length,
            p.minimum_payout AS program_minimum_payout, g.minimum_payout AS group_minimum_payout, pa.name AS partner_name, pa.paypal_email,
            pa.locale AS partner_locale, p.locale AS program_locale,
            pa.billing_name, pa.billing_address, pa.billing_vat_id,
            b.accent AS brand_accent, b.logo_id AS brand_logo_id, b.host AS brand_host`;
/** The group whose minimum payout applies (`g`), and the program's branding (`b`, modules/branding), beside the partnership `s`. */
const GROUP = 'LEFT JOIN partner_groups g ON g.id = s.group_id LEFT JOIN program_brands b ON b.program_id = s.program_id';

export function partnershipsOf(db: Queryable, accountId: string): Promise<ReachedPartnership[]> {
  return db.all<ReachedPartnership>(
    `${REACHED}
       FROM partners pa
       JOIN partnerships s ON s.program_id = pa.program_id AND s.partner_id = pa.id
       JOIN programs p ON p.id = pa.program_id
       ${GROUP}
      WHERE pa.account_id = ?
      ORDER BY s.created_at, s.id`,
    [accountId],
  );
}

/** The program's partnership of one partner record, as the portal shows it (the embedded portal's, which has no account). */
export function partnershipOfPartner(db: Queryable, programId: string, partnerId: string): Promise<ReachedPartnership | undefined> {
  return db.get<ReachedPartnership>(
    `${REACHED}
       FROM partnerships s
       JOIN programs p ON p.id = s.program_id
       JOIN partners pa ON pa.id = s.partner_id
       ${GROUP}
      WHERE s.program_id = ? AND s.partner_id = ?`,
    [programId, partnerId],
  );
}

/**
 * A page of the portal's own lists, newest first by id: the account's partnerships, which
 * cross programs, and the partner's share of each payout batch, summed from its items.
 * platform/db/list.ts walks one program's table along (created_at, id), and no index of these
 * is in that order; each has an index that leads, after the list's equalities, with the
 * id (the partnerships' primary key, payout_items (partner_id, batch_id)), and ids are
 * UUIDv7, so in order of creation. The walk follows that index and stops after the page,
 * and a cursor is the id itself. The caller checks that a cursor is one of the list's.
 */
interface IdList {
  /** SELECT … FROM …, the row's id among the columns as `id`. */
  from: string;
  where: string[];
  params: Param[];
  /** The id's column, which the walk follows. */
  key: string;
  groupBy?: string;
  /** The SQL expression each filterable API field compares. */
  columns: Readonly<Record<string, string>>;
}

const SQL_OP = { eq: '=', lt: '<', gt: '>' } as const;

async function idPage<T>(db: Queryable, list: IdList, filters: readonly FieldFilter[], page: PageRequest): Promise<Page<T>> {
  const where = [...list.where];
  const params = [...list.params];
  for (const f of filters) {
    const column = list.columns[f.field];
    // A programming error, not a client's: routes only pass names they declared.
    if (!column) throw new Error(`this list cannot be filtered by ${f.field}`);
    where.push(`${column} ${SQL_OP[f.op]} ?`);
    params.push(f.value);
  }
  const cursor = page.after ?? page.before;
  const backwards = page.before !== undefined;
  if (cursor !== undefined) {
    where.push(`${list.key} ${backwards ? '>' : '<'} ?`);
    params.push(cursor);
  }
  params.push(page.perPage + 1, cursor === undefined ? (page.page - 1) * page.perPage : 0);
  const rows = await db.all<T>(
    `${list.from} WHERE ${where.join(' AND ')}${list.groupBy ? ` GROUP BY ${list.groupBy}` : ''} ORDER BY ${list.key} ${backwards ? 'ASC' : 'DESC'} LIMIT ? OFFSET ?`,
    params,
  );
  const hasMore = rows.length > page.perPage;
  if (hasMore) rows.pop();
  // Walked backwards from the cursor: the page newest first, as every page.
  if (backwards) rows.reverse();
  return { rows, hasMore };
}

const UNKNOWN_CURSOR: Page<never> = { rows: [], hasMore: false, unknownCursor: true };

/**
 * The account's partnerships, in every program, newest first, filtered by `state`. There is
 * one per program joined, a handful, whose ids are read first: the page is then a walk of
 * the primary key over those ids.
 */
export async function partnershipPage(
  db: Queryable,
  accountId: string,
  filters: readonly FieldFilter[],
  page: PageRequest,
): Promise<Page<ReachedPartnership>> {
  const ids = (
    await db.all<{ id: string }>(
      'SELECT s.id FROM partners pa JOIN partnerships s ON s.program_id = pa.program_id AND s.partner_id = pa.id WHERE pa.account_id = ?',
      [accountId],
    )
  ).map((r) => r.id);
  const cursor = page.after ?? page.before;
  if (cursor !== undefined && !ids.includes(cursor)) return UNKNOWN_CURSOR;
  if (ids.length === 0) return { rows: [], hasMore: false };
  const list: IdList = {
    from: `${REACHED} FROM partnerships s JOIN programs p ON p.id = s.program_id JOIN partners pa ON pa.id = s.partner_id ${GROUP}`,
    where: [`s.id IN (${ids.map(() => '?').join(', ')})`],
    params: ids,
    key: 's.id',
    columns: { state: 's.state' },
  };
  return idPage(db, list, filters, page);
}

export function sessionByHash(db: Queryable, hash: string): Promise<PartnerSessionRow | undefined> {
  return db.get<PartnerSessionRow>('SELECT * FROM partner_sessions WHERE hash = ?', [hash]);
}

export interface PartnerPayoutRow {
  id: string;
  currency: string;
  /** The partner's share of the batch: their items, summed. */
  amount: number;
  commissions: number;
  state: 'open' | 'paid' | 'cancelled';
  created_at: number;
  paid_at: number | null;
}

/** A batch's state: paid and cancelled are for good; until either, it is open and holds its commissions. */
const BATCH_STATE = "CASE WHEN b.paid_at IS NOT NULL THEN 'paid' WHEN b.cancelled_at IS NOT NULL THEN 'cancelled' ELSE 'open' END";

/**
 * The payout batches that hold or held the partner's commissions, newest first, with the
 * partner's share of each; filtered by `created_at` and `state`. One row per batch: the
 * batch's own columns are one value in each group, which MAX reads without grouping by
 * them (grouping by them too would sort on SQLite, which cannot tell they follow the id).
 */
export async function payoutPage(
  db: Queryable,
  programId: string,
  partnerId: string,
  filters: readonly FieldFilter[],
  page: PageRequest,
): Promise<Page<PartnerPayoutRow>> {
  const cursor = page.after ?? page.before;
  if (cursor !== undefined) {
    const held = await db.get(
      'SELECT 1 AS one FROM payout_items i JOIN payout_batches b ON b.id = i.batch_id WHERE i.partner_id = ? AND i.batch_id = ? AND b.program_id = ? LIMIT 1',
      [partnerId, cursor, programId],
    );
    if (!held) return UNKNOWN_CURSOR;
  }
  const list: IdList = {
    from: `SELECT i.batch_id AS id, MAX(b.currency) AS currency, SUM(i.amount) AS amount, COUNT(*) AS commissions, MAX(${BATCH_STATE}) AS state,
                  MAX(b.created_at) AS created_at, MAX(b.paid_at) AS paid_at
             FROM payout_items i JOIN payout_batches b ON b.id = i.batch_id`,
    where: ['i.partner_id = ?', 'b.program_id = ?'],
    params: [partnerId, programId],
    key: 'i.batch_id',
    groupBy: 'i.batch_id',
    columns: { created_at: 'b.created_at', state: BATCH_STATE },
  };
  return idPage(db, list, filters, page);
}
