// Partnerships: a partner's membership of a program, with the slugs that credit it.

import { fail } from '../platform/errors.js';
import type { Db, Queryable, Tx } from '../platform/db/db.js';
import * as partners from '../modules/partners/repo.js';
import * as partnerships from '../modules/partnerships/repo.js';
import type { PartnershipRow, PartnershipState } from '../modules/partnerships/model.js';
import { minimumPayout } from '../core/payout-terms.js';
import { uuidv7 } from '../core/ids.js';
import { normalizeSlug, slugFromName } from '../core/slugs.js';
import { assertMove } from '../core/state-machines.js';
import * as programs from '../modules/programs/repo.js';
import { renderPartnership } from '../modules/partnerships/present.js';
import { emit } from '../events/emit.js';
import { joinedGroup, moveTo } from './group-moves.js';
import { codesEnded, promoteCodes } from '../modules/codes/service.js';
import type { ProgramRow } from '../modules/programs/model.js';
import { getPartnership } from '../modules/partnerships/service.js';

export interface NewPartnership {
  partner_id: string;
  key?: string | undefined;
  state?: PartnershipState | undefined;
  competitor_slugs?: readonly string[] | undefined;
  created_by?: 'company' | 'partner' | undefined;
  commission_rate_bps?: number | null | undefined;
  recurring_months?: number | null | undefined;
  hold_days?: number | null | undefined;
  minimum_payout?: Record<string, number> | null | undefined;
  /** Its partner group; the program's default group when absent. */
  group_id?: string | undefined;
}

export interface PartnershipChanges {
  state?: PartnershipState | undefined;
  key?: string | undefined;
  competitor_slugs?: readonly string[] | undefined;
  commission_rate_bps?: number | null | undefined;
  recurring_months?: number | null | undefined;
  hold_days?: number | null | undefined;
  minimum_payout?: Record<string, number> | null | undefined;
  /** With a move to declined: why, for the partner's e-mail. */
  decline_reason?: string | undefined;
  /** Moves the partnership to this group, recorded as the owner's move. */
  group_id?: string | undefined;
}

/** The rule overrides a request gives, in stored form; absent ones are left out. */
function ruleFields(input: Pick<NewPartnership, 'recurring_months' | 'hold_days' | 'minimum_payout'>) {
  const fields: Partial<Pick<PartnershipRow, 'recurring_months' | 'hold_days' | 'minimum_payout'>> = {};
  if (input.recurring_months !== undefined) fields.recurring_months = input.recurring_months;
  if (input.hold_days !== undefined) fields.hold_days = input.hold_days;
  if (input.minimum_payout !== undefined) fields.minimum_payout = minimumPayout(input.minimum_payout);
  return fields;
}

export function competitorSlugs(row: PartnershipRow): string[] {
  return JSON.parse(row.competitor_slugs) as string[];
}

/** Refuses slugs that already credit another partnership of the program. */
async function assertSlugsFree(db: Queryable, row: PartnershipRow, slugs: readonly string[], field: string): Promise<void> {
  const taken = await partnerships.slugsTaken(db, row.program_id, slugs, row.id);
  if (taken.length > 0) {
    throw fail('conflict', `slug already in use in this program: ${taken.join(', ')}`, { field });
  }
}

/** The partner's name as a slug, with -2, -3… until it is free. */
export async function freeKeyFor(db: Queryable, programId: string, name: string): Promise<string> {
  const base = slugFromName(name);
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if ((await partnerships.slugsTaken(db, programId, [candidate], null)).length === 0) return candidate;
  }
}

function cleanSlugs(slugs: readonly string[], key: string): string[] {
  return [...new Set(slugs.map(normalizeSlug))].filter((s) => s !== key);
}

async function saveSlugs(db: Queryable, row: PartnershipRow): Promise<void> {
  await partnerships.setSlugs(db, row.program_id, row.id, [row.key, ...competitorSlugs(row)]);
}

export function createPartnership(db: Db, programId: string, input: NewPartnership, now: number): Promise<PartnershipRow> {
  return db.transaction((tx) => insertPartnership(tx, programId, input, now));
}

/** The partnership made within the caller's transaction (an application makes its partner first). */
export async function insertPartnership(
  tx: Tx,
  programId: string,
  input: NewPartnership & { application_note?: string | null },
  now: number,
): Promise<PartnershipRow> {
  const partner = await partners.get(tx, programId, input.partner_id);
  if (!partner) throw fail('unknown_partner', `no partner ${input.partner_id}`, { field: 'partner_id' });
  if (await partnerships.getByPartner(tx, programId, partner.id)) {
    throw fail(
      'conflict',
      'this partner already has a partnership in this program: GET /v1/partnerships?partner_id_eq=… finds it, and PATCH changes it',
      { field: 'partner_id' },
    );
  }
  const key = input.key !== undefined ? normalizeSlug(input.key) : await freeKeyFor(tx, programId, partner.name);
  const group = await joinedGroup(tx, programId, input.group_id);
  const row: PartnershipRow = {
    id: uuidv7(),
    program_id: programId,
    partner_id: partner.id,
    key,
    state: input.state ?? 'pending',
    competitor_slugs: JSON.stringify(cleanSlugs(input.competitor_slugs ?? [], key)),
    created_by: input.created_by ?? 'company',
    commission_rate_bps: input.commission_rate_bps ?? null,
    recurring_months: null,
    hold_days: null,
    minimum_payout: null,
    ...ruleFields(input),
    application_note: input.application_note ?? null,
    group_id: group.id,
    state_set_at: now,
    created_at: now,
    updated_at: now,
  };
  await assertSlugsFree(tx, row, [key], 'key');
  await assertSlugsFree(tx, row, competitorSlugs(row), 'competitor_slugs');
  await partnerships.insert(tx, row);
  await saveSlugs(tx, row);
  await emitPartnership(tx, 'partnership.created', row, now);
  return row;
}

async function emitPartnership(
  tx: Tx,
  type: 'partnership.created' | 'partnership.updated',
  row: PartnershipRow,
  now: number,
): Promise<void> {
  const program = await programs.get(tx, row.program_id);
  if (program) await emit(tx, row.program_id, type, renderPartnership(row, program), now);
}

export function updatePartnership(
  db: Db,
  programId: string,
  id: string,
  changes: PartnershipChanges,
  now: number,
): Promise<PartnershipRow> {
  return db.transaction((tx) => changeIn(tx, programId, id, changes, now));
}

/** The change inside the caller's transaction (a ban declines the partnership with its rejections). */
export async function changeIn(tx: Tx, programId: string, id: string, changes: PartnershipChanges, now: number): Promise<PartnershipRow> {
  const read = await getPartnership(tx, programId, id);
  const row = { ...read };
  if (changes.state !== undefined) {
    assertMove('partnership', row.state, changes.state);
    row.state = changes.state;
    row.state_set_at = now;
    row.decline_reason = row.state === 'declined' ? (changes.decline_reason ?? null) : null;
  }
  if (changes.key !== undefined) {
    row.key = normalizeSlug(changes.key);
    await assertSlugsFree(tx, row, [row.key], 'key');
  }
  if (changes.competitor_slugs !== undefined || changes.key !== undefined) {
    const slugs = cleanSlugs(changes.competitor_slugs ?? competitorSlugs(row), row.key);
    row.competitor_slugs = JSON.stringify(slugs);
    await assertSlugsFree(tx, row, slugs, 'competitor_slugs');
  }
  if (changes.commission_rate_bps !== undefined) row.commission_rate_bps = changes.commission_rate_bps;
  Object.assign(row, ruleFields(changes));
  row.updated_at = now;
  // Conditional on the state read: of two simultaneous moves, one wins and one is refused.
  if (!(await partnerships.update(tx, row, read.state))) {
    throw fail('invalid_transition', 'the partnership changed state meanwhile; read it again', { field: 'state' });
  }
  await saveSlugs(tx, row);
  if (changes.group_id !== undefined && changes.group_id !== row.group_id) {
    const to = await joinedGroup(tx, programId, changes.group_id);
    await moveTo(tx, row, to, { by: 'owner', reason: 'moved by an owner' }, now);
    row.group_id = to.id;
  }
  await emitPartnership(tx, 'partnership.updated', row, now);
  return row;
}

/**
 * A partnership changed, and then its codes as the change says: an end through
 * endPartnership, an acceptance with its codes made in Stripe once committed.
 */
export async function changePartnership(
  db: Db,
  program: ProgramRow,
  id: string,
  changes: PartnershipChanges,
  now: number,
  stripeApiUrl: string | undefined,
): Promise<PartnershipRow> {
  if (changes.state === 'declined') return endPartnership(db, program, id, changes, now, stripeApiUrl);
  const row = await updatePartnership(db, program.id, id, changes, now);
  if (changes.state === 'accepted') await promoteCodes(db, program, row.id, now, stripeApiUrl);
  return row;
}

/**
 * Every way a partnership ends (an owner declining it, a ban in review) comes here: it is
 * declined, so its link credits nothing, then its codes are disabled, in Stripe too, so
 * customers no longer get its discount (after the commit: Stripe not answering undoes nothing).
 */
export async function endPartnership(
  db: Db,
  program: ProgramRow,
  id: string,
  changes: Omit<PartnershipChanges, 'state'>,
  now: number,
  stripeApiUrl: string | undefined,
): Promise<PartnershipRow> {
  const row = await updatePartnership(db, program.id, id, { ...changes, state: 'declined' }, now);
  await partnershipEnded(db, program, row.id, now, stripeApiUrl);
  return row;
}

/** What follows a partnership's end once it committed, whichever transaction declined it (a ban declines inside its own). */
export const partnershipEnded = (db: Db, program: ProgramRow, id: string, now: number, stripeApiUrl: string | undefined) =>
  codesEnded(db, program, id, now, stripeApiUrl);
