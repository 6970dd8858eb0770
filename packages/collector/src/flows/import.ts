// Writing what a source yields, each object in a transaction of its own with the link
// that names what it became (import_links): an import stopped anywhere, run again, finds
// what it wrote and goes on; a second run writes nothing and says so.
//
// Imported history is written beside the services, not through them: it raises no webhook
// events, no notifications and no promotion codes (decision 0292), but for a commission,
// which is made as every commission is (recordCommission): its commission.created reaches
// webhooks, and sends no e-mail (decision 0331). Totals are counted like any other record's,
// in the periods the source dates them to.

import { createHash } from 'node:crypto';
import type { Db, Tx } from '../platform/db/db.js';
import { emailProblem, normalizeEmail } from '../core/email.js';
import { uuidv7 } from '../core/ids.js';
import { knownCurrency } from '../core/money.js';
import { normalizeSlug, SLUG_PATTERN } from '../core/slugs.js';
import { canMove } from '../core/state-machines.js';
import * as partners from '../modules/partners/repo.js';
import type { PartnerRow } from '../modules/partners/repo.js';
import * as partnerships from '../modules/partnerships/repo.js';
import type { PartnershipRow } from '../modules/partnerships/model.js';
import { competitorSlugs, freeKeyFor } from './partnership.js';
import * as referrals from '../modules/referrals/repo.js';
import * as commissions from '../modules/commissions/repo.js';
import { moveCommission, newCommission, recordCommission } from '../modules/commissions/ledger.js';
import { deltaInsert } from '../events/deltas.js';
import { joinedGroup } from './group-moves.js';
import type { ProgramRow } from '../modules/programs/model.js';
import { getLink, insertLink, setFingerprint, type ImportLinkRow } from '../modules/imports/repo.js';
import {
  isSkip,
  KINDS,
  type Item,
  type Kind,
  type Source,
  type SourceCommission,
  type SourceItem,
  type SourcePartner,
  type SourceReferral,
} from '../modules/imports/model.js';

export type Outcome = 'imported' | 'updated' | 'unchanged';

export interface ImportSummary {
  source: string;
  program_id: string;
  counts: Record<Kind, Record<Outcome | 'skipped', number>>;
  /** What was left out, whole objects or a part of one (a link whose slug is taken), and why. */
  skipped: Array<{ kind: Kind; id: string; reason: string }>;
}

export function emptySummary(source: Source, programId: string): ImportSummary {
  const zero = () => ({ imported: 0, updated: 0, unchanged: 0, skipped: 0 });
  return { source: source.name, program_id: programId, counts: { partner: zero(), referral: zero(), commission: zero() }, skipped: [] };
}

/** A write's result: its outcome, or why it was skipped; `notes` for parts left out of what was written. */
interface Written {
  outcome: Outcome | { skip: string };
  notes?: string[];
}

const skipped = (reason: string): Written => ({ outcome: { skip: reason } });

interface Context {
  tx: Tx;
  program: ProgramRow;
  source: Source;
  now: number;
}

/** Reads the whole source into the program, kind by kind, adding to `summary` as it goes. */
export async function runImport(db: Db, program: ProgramRow, source: Source, now: () => number, summary: ImportSummary): Promise<void> {
  const streams = { partner: source.partners(), referral: source.referrals(), commission: source.commissions() };
  for (const kind of KINDS) {
    for await (const item of streams[kind] as AsyncIterable<Item<SourceItem>>) {
      const written = isSkip(item) ? skipped(item.skip) : await db.transaction((tx) => write({ tx, program, source, now: now() }, item));
      const { id } = item;
      const outcome = written.outcome;
      if (typeof outcome === 'string') summary.counts[kind][outcome]++;
      else {
        summary.counts[kind].skipped++;
        summary.skipped.push({ kind, id, reason: outcome.skip });
      }
      for (const note of written.notes ?? []) summary.skipped.push({ kind, id, reason: note });
    }
  }
}

async function write(c: Context, item: SourceItem): Promise<Written> {
  // Two imports into one program at once (two terminals, a retry beside a stuck run) take
  // turns per object: the second finds the first's link and has nothing to write.
  await c.tx.lock(`import:${c.program.id}`);
  // A hash, not the record: a person erased later (tally forget) leaves no address here.
  const fingerprint = createHash('sha256').update(JSON.stringify(item)).digest('base64url');
  const link = await getLink(c.tx, c.program.id, c.source.name, item.kind, item.id);
  if (link) {
    if (link.fingerprint === fingerprint) return { outcome: 'unchanged' };
    const written = await (item.kind === 'partner'
      ? updatePartner(c, link, item)
      : item.kind === 'referral'
        ? updateReferral(c, link, item)
        : updateCommission(c, link, item));
    await setFingerprint(c.tx, link, fingerprint, c.now);
    return written;
  }
  const made = await (item.kind === 'partner'
    ? newPartner(c, item)
    : item.kind === 'referral'
      ? newReferral(c, item)
      : newCommissionOf(c, item));
  if (typeof made.tallyId === 'string') {
    await insertLink(c.tx, {
      program_id: c.program.id,
      source: c.source.name,
      kind: item.kind,
      source_id: item.id,
      tally_id: made.tallyId,
      fingerprint,
      imported_at: c.now,
    });
    return { outcome: 'imported', notes: made.notes };
  }
  return skipped(made.skip);
}

type Made = { tallyId: string; notes?: string[] } | { tallyId?: undefined; skip: string };

/** The Tally partner an imported partner became, if it was imported. */
async function partnerOf(c: Context, sourcePartnerId: string): Promise<string | undefined> {
  return (await getLink(c.tx, c.program.id, c.source.name, 'partner', sourcePartnerId))?.tally_id;
}

// Partners and their partnerships.

/** The source's slugs that may credit this partnership: valid and free; notes say why the others are not. */
async function freeSlugs(c: Context, slugs: readonly string[], partnershipId: string | null) {
  const wanted = [...new Set(slugs.map(normalizeSlug))];
  const valid = wanted.filter((s) => SLUG_PATTERN.test(s));
  const taken = await partnerships.slugsTaken(c.tx, c.program.id, valid, partnershipId);
  const notes = [
    ...wanted.filter((s) => !valid.includes(s)).map((s) => `link "${s}" left out: a slug is 2 to 64 letters, digits, - or _`),
    ...taken.map((s) => `link "${s}" left out: it already credits another partner of the program`),
  ];
  return { free: valid.filter((s) => !taken.includes(s)), notes };
}

async function newPartner(c: Context, p: SourcePartner): Promise<Made> {
  const problem = emailProblem(p.email);
  if (problem) return { skip: `e-mail address: ${problem}` };
  if (!p.name.trim()) return { skip: 'no name' };
  const notes: string[] = [];
  const paypal = p.paypalEmail && !emailProblem(p.paypalEmail) ? p.paypalEmail : null;
  if (p.paypalEmail && !paypal) notes.push('PayPal address left out: not a valid e-mail address');
  const at = p.createdAt || c.now;
  // A partner added by hand before the import, with the same address, is the same person.
  const partner = (await partners.findByEmail(c.tx, c.program.id, normalizeEmail(p.email))) ?? (await insertPartner(c, p, paypal, at));
  const existing = await partnerships.getByPartner(c.tx, c.program.id, partner.id);
  const { free, notes: slugNotes } = await freeSlugs(c, p.slugs, existing?.id ?? null);
  notes.push(...slugNotes);
  if (existing) {
    await addSlugs(c, existing, free);
    return { tallyId: partner.id, notes };
  }
  const key = free[0] ?? (await freeKeyFor(c.tx, c.program.id, partner.name));
  const row: PartnershipRow = {
    id: uuidv7(),
    program_id: c.program.id,
    partner_id: partner.id,
    key,
    state: p.state,
    competitor_slugs: JSON.stringify(free.filter((s) => s !== key)),
    created_by: 'company',
    commission_rate_bps: null,
    recurring_months: null,
    hold_days: null,
    minimum_payout: null,
    application_note: null,
    group_id: (await joinedGroup(c.tx, c.program.id, undefined)).id,
    state_set_at: at,
    created_at: at,
    updated_at: c.now,
  };
  await partnerships.insert(c.tx, row);
  await partnerships.setSlugs(c.tx, c.program.id, row.id, [row.key, ...free.filter((s) => s !== key)]);
  return { tallyId: partner.id, notes };
}

async function insertPartner(c: Context, p: SourcePartner, paypal: string | null, at: number): Promise<PartnerRow> {
  const row: PartnerRow = {
    id: uuidv7(),
    program_id: c.program.id,
    name: p.name.trim(),
    email: p.email,
    email_norm: normalizeEmail(p.email),
    paypal_email: paypal,
    paypal_email_norm: paypal ? normalizeEmail(paypal) : null,
    account_id: null,
    // Their language is theirs to choose in the portal; until then the browser's, else the program's.
    locale: null,
    billing_name: null,
    billing_address: null,
    billing_vat_id: null,
    created_at: at,
    updated_at: c.now,
  };
  await partners.insert(c.tx, row);
  return row;
}

/** Adds slugs to a partnership's competitor slugs, keeping its key and state. */
async function addSlugs(c: Context, row: PartnershipRow, slugs: readonly string[]): Promise<boolean> {
  const kept = competitorSlugs(row);
  const added = slugs.filter((s) => s !== row.key && !kept.includes(s));
  if (added.length === 0) return false;
  const changed = { ...row, competitor_slugs: JSON.stringify([...kept, ...added]), updated_at: c.now };
  await partnerships.update(c.tx, changed, row.state);
  await partnerships.setSlugs(c.tx, c.program.id, row.id, [row.key, ...kept, ...added]);
  return true;
}

async function updatePartner(c: Context, link: ImportLinkRow, p: SourcePartner): Promise<Written> {
  const row = await partnerships.getByPartner(c.tx, c.program.id, link.tally_id);
  if (!row) return skipped('its partnership was deleted in Tally');
  const { free, notes } = await freeSlugs(c, p.slugs, row.id);
  let changed = await addSlugs(c, row, free);
  if (row.state !== p.state && canMove('partnership', row.state, p.state)) {
    const latest = (await partnerships.get(c.tx, c.program.id, row.id)) ?? row;
    changed = await partnerships.update(c.tx, { ...latest, state: p.state, state_set_at: c.now, updated_at: c.now }, latest.state);
  }
  return { outcome: changed ? 'updated' : 'unchanged', notes };
}

// Referrals.

async function newReferral(c: Context, r: SourceReferral): Promise<Made> {
  const partnerId = await partnerOf(c, r.partnerId);
  if (!partnerId) return { skip: `its partner ${r.partnerId} was not imported` };
  const partnership = await partnerships.getByPartner(c.tx, c.program.id, partnerId);
  if (!partnership) return { skip: `its partner ${r.partnerId} has no partnership in Tally` };
  const problem = emailProblem(r.email);
  if (problem) return { skip: `e-mail address: ${problem}` };
  const emailNorm = normalizeEmail(r.email);
  const earlier = await referrals.findByEmail(c.tx, c.program.id, emailNorm);
  if (earlier) {
    // The first referral of a person wins in Tally too: the same partner's is this one.
    return earlier.partner_id === partnerId
      ? { tallyId: earlier.id }
      : { skip: 'the person was already referred in Tally by another partner' };
  }
  const at = r.createdAt || c.now;
  const row: referrals.ReferralRow = {
    id: uuidv7(),
    program_id: c.program.id,
    partnership_id: partnership.id,
    partner_id: partnerId,
    email: r.email,
    email_norm: emailNorm,
    gr_id: `import:${c.source.name}:${r.id}`,
    uid: r.uid,
    state: r.state,
    state_set_at: at,
    created_at: at,
    updated_at: c.now,
    landed: null,
    client_hash: null,
    user_agent: null,
    review: null,
    review_reasons: null,
  };
  await referrals.insertFirstOfPerson(c.tx, row, [deltaInsert({ program_id: c.program.id, partner_id: partnerId, at, referrals: 1 })]);
  return { tallyId: row.id };
}

async function updateReferral(c: Context, link: ImportLinkRow, r: SourceReferral): Promise<Written> {
  const row = await referrals.get(c.tx, c.program.id, link.tally_id);
  if (!row) return skipped('it was erased in Tally');
  if (row.state === r.state || !canMove('referral', row.state, r.state)) return { outcome: 'unchanged' };
  return { outcome: (await referrals.move(c.tx, c.program.id, row.id, row.state, r.state, c.now)) ? 'updated' : 'unchanged' };
}

// Commissions: paid ones stay paid, so no payout takes them again.

async function newCommissionOf(c: Context, s: SourceCommission): Promise<Made> {
  const partnerId = await partnerOf(c, s.partnerId);
  if (!partnerId) return { skip: `its partner ${s.partnerId} was not imported` };
  const currency = knownCurrency(s.currency);
  if (!currency) return { skip: `currency ${JSON.stringify(s.currency)} is not an ISO 4217 code` };
  const referralId = s.referralId ? ((await getLink(c.tx, c.program.id, c.source.name, 'referral', s.referralId))?.tally_id ?? null) : null;
  const at = s.createdAt || c.now;
  const row = {
    ...newCommission(c.program.id, partnerId, referralId, s.amount, currency, at, {
      state: s.state,
      reject_reason: s.rejectReason,
      payable_at: s.payableAt || at,
      reward_description: `imported from ${c.source.title}`,
    }),
    paid_at: s.paidAt,
    updated_at: c.now,
  };
  await recordCommission(c.tx, row, c.now, { history: true });
  return { tallyId: row.id };
}

async function updateCommission(c: Context, link: ImportLinkRow, s: SourceCommission): Promise<Written> {
  const row = await commissions.get(c.tx, c.program.id, link.tally_id);
  if (!row) return skipped('it was deleted in Tally');
  if (row.state === s.state || !canMove('commission', row.state, s.state)) return { outcome: 'unchanged' };
  if (await commissions.isBatched(c.tx, row.id)) {
    return {
      outcome: 'unchanged',
      notes: [`${s.state} at the source, but a Tally payout batch holds it: mark the batch paid or cancel it`],
    };
  }
  // As any commission moves (commissions/ledger.ts), its event with it; imported, it sends no e-mail.
  await moveCommission(c.tx, row, s.state, s.rejectReason, c.now, { paidAt: s.paidAt ?? c.now, known: { history: true } });
  return { outcome: 'updated' };
}
