// The rules of bounties (docs/bounties.md): what a bounty may say, which partners it is for,
// what a partner may submit, and a partner's progress. Awards and decisions write
// commissions, so they are flows (flows/bounty-award.ts, flows/bounty-review.ts).

import { fail, found } from '../../platform/errors.js';
import type { Queryable, Tx } from '../../platform/db/db.js';
import type { FieldFilter, Page, PageRequest } from '../../platform/db/list.js';
import { remembered } from '../../platform/db/remembered.js';
import { uuidv7 } from '../../core/ids.js';
import { currencyCode } from '../../core/money.js';
import { groupOf, programRewards } from '../rewards/service.js';
import type { BountyKind, BountyMetric, BountyRow, Progress, SubmissionRow } from './model.js';
import { coversGroup, isOpen } from './model.js';
import * as repo from './repo.js';

/** Submission limits when the owner sets none. */
export const DEFAULT_LIMITS = { max_submissions: 1, max_urls: 5, max_text: 2000 };

export interface BountyInput {
  name: string;
  description?: string | null | undefined;
  kind: BountyKind;
  group_ids?: string[] | null | undefined;
  starts_at: number;
  ends_at: number;
  amount: number;
  currency: string;
  metric?: BountyMetric | null | undefined;
  target?: number | null | undefined;
  max_submissions?: number | null | undefined;
  max_urls?: number | null | undefined;
  max_text?: number | null | undefined;
  requires_url?: boolean | null | undefined;
}

export type BountyChange = Partial<Omit<BountyInput, 'kind'>> & { archived?: boolean | undefined };

/** The program's bounties, in memory while no setting changes: every payment and sign-up asks. */
export function programBounties(db: Queryable, programId: string): Promise<BountyRow[]> {
  return remembered(db, `bounties:${programId}`, () => repo.ofProgram(db, programId));
}

export function getBounty(db: Queryable, programId: string, id: string): Promise<BountyRow> {
  return repo.get(db, programId, id).then((row) => found(row, 'bounty', id));
}

export function listBounties(
  db: Queryable,
  programId: string,
  filters: readonly FieldFilter[],
  page: PageRequest,
): Promise<Page<BountyRow>> {
  return repo.list(db, programId, filters, page);
}

/** The partnership's group as bounties name it: its own, else the program's default one. */
export async function groupIdOf(db: Queryable, programId: string, groupId: string | null): Promise<string> {
  return groupOf(await programRewards(db, programId), groupId).id;
}

async function checkGroups(db: Queryable, programId: string, ids: readonly string[]): Promise<void> {
  const known = new Set((await programRewards(db, programId)).groups.map((g) => g.id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown) throw fail('invalid_field', `no group ${unknown}`, { field: 'group_ids' });
}

/** The kind's own fields are set, the other kind's are not, the period is a period. */
function checked(row: BountyRow): BountyRow {
  if (row.ends_at <= row.starts_at) throw fail('invalid_field', 'ends_at must come after starts_at', { field: 'ends_at' });
  if (row.kind === 'performance') {
    if (!row.metric) throw fail('missing_field', 'a performance bounty needs a metric', { field: 'metric' });
    if (!row.target) throw fail('missing_field', 'a performance bounty needs a target', { field: 'target' });
    const limit = (['max_submissions', 'max_urls', 'max_text'] as const).find((f) => row[f] !== null);
    if (limit || row.requires_url) {
      throw fail('invalid_field', 'submission limits go only with a submission bounty', { field: limit ?? 'requires_url' });
    }
  } else if (row.metric !== null || row.target !== null) {
    throw fail('invalid_field', 'metric and target go only with a performance bounty', {
      field: row.metric !== null ? 'metric' : 'target',
    });
  }
  return row;
}

const orNull = <T>(v: T | null | undefined): T | null => (v === undefined ? null : v);

export async function createBounty(tx: Tx, programId: string, input: BountyInput, now: number): Promise<BountyRow> {
  const groupIds = [...new Set(input.group_ids ?? [])];
  await checkGroups(tx, programId, groupIds);
  const submission = input.kind === 'submission';
  const row = checked({
    id: uuidv7(),
    program_id: programId,
    name: input.name,
    description: input.description ?? '',
    kind: input.kind,
    group_ids: JSON.stringify(groupIds),
    starts_at: input.starts_at,
    ends_at: input.ends_at,
    amount: input.amount,
    currency: currencyCode(input.currency),
    metric: orNull(input.metric),
    target: orNull(input.target),
    max_submissions: submission ? (input.max_submissions ?? DEFAULT_LIMITS.max_submissions) : orNull(input.max_submissions),
    max_urls: submission ? (input.max_urls ?? DEFAULT_LIMITS.max_urls) : orNull(input.max_urls),
    max_text: submission ? (input.max_text ?? DEFAULT_LIMITS.max_text) : orNull(input.max_text),
    requires_url: input.requires_url ? 1 : 0,
    archived_at: null,
    created_at: now,
    updated_at: now,
  });
  await repo.insert(tx, row);
  return row;
}

/** An edit: what it names changes; awards and decisions made stand (docs/bounties.md). */
export async function updateBounty(tx: Tx, programId: string, id: string, change: BountyChange, now: number): Promise<BountyRow> {
  const row = { ...(await getBounty(tx, programId, id)) };
  const { archived, group_ids, requires_url, currency, description, ...rest } = change;
  for (const [k, v] of Object.entries(rest)) if (v !== undefined) (row as Record<string, unknown>)[k] = v;
  if (description !== undefined) row.description = description ?? '';
  if (currency !== undefined) row.currency = currencyCode(currency);
  if (requires_url !== undefined) row.requires_url = requires_url ? 1 : 0;
  if (group_ids !== undefined) {
    const ids = [...new Set(group_ids ?? [])];
    await checkGroups(tx, programId, ids);
    row.group_ids = JSON.stringify(ids);
  }
  if (archived !== undefined) row.archived_at = archived ? (row.archived_at ?? now) : null;
  row.updated_at = now;
  await repo.update(tx, checked(row));
  return row;
}

/** The bounties a partner of the group sees: open now, for their group. */
export async function openFor(db: Queryable, programId: string, groupId: string | null, now: number): Promise<BountyRow[]> {
  const group = await groupIdOf(db, programId, groupId);
  return (await programBounties(db, programId)).filter((b) => isOpen(b, now) && coversGroup(b, group));
}

/** One bounty as its partner reaches it: open and for their group, else not found, as another program's is. */
export async function openBounty(db: Queryable, programId: string, groupId: string | null, id: string, now: number): Promise<BountyRow> {
  const bounty = (await openFor(db, programId, groupId, now)).find((b) => b.id === id);
  return found(bounty, 'bounty', id);
}

export async function progressOf(db: Queryable, bounty: BountyRow, partnerId: string): Promise<Progress | null> {
  if (bounty.kind !== 'performance' || bounty.target === null) return null;
  return { value: await repo.measure(db, bounty, partnerId), target: Number(bounty.target) };
}

export interface SubmissionInput {
  urls?: string[] | null | undefined;
  text?: string | null | undefined;
}

/** A submission within the bounty's limits, counted against the partner's; the caller holds the partner's lock. */
export async function newSubmission(
  tx: Tx,
  bounty: BountyRow,
  partnership: { id: string; partner_id: string },
  input: SubmissionInput,
  now: number,
): Promise<SubmissionRow> {
  if (bounty.kind !== 'submission') throw fail('invalid_field', 'a performance bounty is awarded, not submitted to', { field: 'bounty' });
  const urls = [...new Set(input.urls ?? [])];
  const text = (input.text ?? '').trim();
  if (urls.length > Number(bounty.max_urls)) throw fail('invalid_field', `at most ${bounty.max_urls} URLs`, { field: 'urls' });
  if (bounty.requires_url && urls.length === 0) throw fail('missing_field', 'this bounty asks for a URL', { field: 'urls' });
  if (text.length > Number(bounty.max_text)) throw fail('invalid_field', `at most ${bounty.max_text} characters`, { field: 'text' });
  if (urls.length === 0 && text === '') throw fail('missing_field', 'a submission needs a URL or a text', { field: 'text' });
  if ((await repo.countedSubmissions(tx, bounty.id, partnership.partner_id)) >= Number(bounty.max_submissions)) {
    throw fail('conflict', `this bounty takes at most ${bounty.max_submissions} submissions of a partner`);
  }
  const row: SubmissionRow = {
    id: uuidv7(),
    program_id: bounty.program_id,
    bounty_id: bounty.id,
    partner_id: partnership.partner_id,
    partnership_id: partnership.id,
    urls: JSON.stringify(urls),
    text,
    state: 'pending',
    reject_reason: null,
    commission_id: null,
    decided_at: null,
    created_at: now,
    updated_at: now,
  };
  await repo.insertSubmission(tx, row);
  return row;
}

export async function getSubmission(db: Queryable, programId: string, bountyId: string, id: string): Promise<SubmissionRow> {
  const row = await repo.getSubmission(db, programId, id);
  return found(row?.bounty_id === bountyId ? row : undefined, 'bounty_submission', id);
}
