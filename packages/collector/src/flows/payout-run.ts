// Payouts: pending commissions of accepted partnerships, summed per partner and
// currency into PayPal's Payouts bulk-upload file, then marked paid from that file.
//
// A batch holds its commissions from export until it is paid or cancelled, and a
// commission is held by at most one batch (commissions.payout_batch_id, set by a
// conditional update), so no two files can ever ask for the same money. A batch stores
// what its file said, payee addresses included, so its file can be written again byte for
// byte and an upload can be checked cell by cell. The CLI and any future HTTP route share
// these functions; they only parse arguments, write files and print.

import { formatCsv, parseCsv } from '../platform/csv.js';
import { fail } from '../platform/errors.js';
import type { Db, Queryable, Tx } from '../platform/db/db.js';
import * as payouts from '../modules/payouts/repo.js';
import type { BatchRow, ItemRow, PayableRow, PayableSum } from '../modules/payouts/repo.js';
import { uuidv7 } from '../core/ids.js';
import { batchCommission, payBatched, unbatchCommissions } from '../modules/commissions/ledger.js';
import { minimumIn } from '../core/payout-terms.js';
import { majorUnits, minorUnit } from '../core/money.js';
import { renderBatch } from '../modules/payouts/present.js';
import { emit } from '../events/emit.js';
import { taxFormValid } from '../modules/tax-forms/service.js';
import { append } from '../core/lists.js';

export interface PayoutRow {
  email: string;
  amount: string;
  currency: string;
  note: string;
  partnerId: string;
}

export interface PayoutBatch {
  id: string;
  currency: string;
  /** In the file's order. */
  rows: PayoutRow[];
}

export interface Skipped {
  partnerId: string;
  name: string;
  currency: string;
  /** In major units (negative when clawbacks exceed earnings); in minor units when the currency is unknown. */
  amount: string;
  reason:
    | 'no paypal_email'
    | 'no valid tax form'
    | 'unknown currency'
    | 'below minimum payout'
    | 'clawbacks exceed earnings'
    // A payout run's, for a partner whose chosen Stripe Connect account or Wise recipient cannot be paid yet.
    | `stripe_connect not ready: ${string}`
    | `wise not ready: ${string}`
    | `wise recipient takes ${string}, not ${string}`;
}

export interface PayoutExport {
  /** One batch per currency: PayPal takes one currency per file. */
  batches: PayoutBatch[];
  /** Partners with something to pay that no file can hold: not in any batch. */
  skipped: Skipped[];
}

const NOTE = /batch (\S+)$/;

export function noteFor(partnerId: string, batchId: string): string {
  return `Commission payout, partner ${partnerId}, batch ${batchId}`;
}

/** The file's cells for one row, in PayPal's column order; the empty one is the customer id. */
const cells = (r: PayoutRow): string[] => [r.email, r.amount, r.currency, '', r.note, 'PAYPAL'];

/** The batch's file, exactly as every export of it writes it. */
export function payoutCsv(batch: PayoutBatch): string {
  return formatCsv(batch.rows.map(cells));
}

/**
 * The file's rows from the batch's items: one per partner, summed, in the order of the
 * address and then the partner (compared by code unit, never by a database collation),
 * so that the first export and every later one give the same bytes.
 */
function rowsOf(batch: Pick<BatchRow, 'id' | 'currency'>, items: readonly ItemRow[]): PayoutRow[] {
  const byPartner = new Map<string, { email: string; sum: number }>();
  for (const item of items) {
    // Batches exported before addresses were kept may lack one: an empty cell, which mark-paid then refuses.
    const row = byPartner.get(item.partner_id) ?? { email: item.paypal_email ?? '', sum: 0 };
    row.sum += item.amount;
    byPartner.set(item.partner_id, row);
  }
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...byPartner]
    .sort(([pa, a], [pb, b]) => order(a.email, b.email) || order(pa, pb))
    .map(([partnerId, { email, sum }]) => ({
      email,
      amount: majorUnits(sum, batch.currency),
      currency: batch.currency,
      note: noteFor(partnerId, batch.id),
      partnerId,
    }));
}

export const total = (rows: readonly { amount: number }[]) => rows.reduce((n, r) => n + r.amount, 0);

/** A signed amount in major units: a net below zero is shown as such. */
export const signedMajor = (amount: number, code: string): string => (amount < 0 ? '-' : '') + majorUnits(Math.abs(amount), code);

/**
 * Why a partner's net amount is not paid now, if it is not: a payout never goes below
 * zero (the clawbacks carry over) nor below the partnership's minimum (it all carries over).
 */
export function notDue(owed: readonly PayableRow[], code: string): Skipped['reason'] | undefined {
  const net = total(owed);
  if (net <= 0) return 'clawbacks exceed earnings';
  const first = owed[0]!;
  return net < minimumIn(minimumsOf(first), code) ? 'below minimum payout' : undefined;
}

/**
 * Why the export leaves a partner's commissions in a currency, in the order it checks: an
 * address, a valid tax form where the program requires one, then the net.
 */
async function heldBack(
  db: Queryable,
  programId: string,
  owed: readonly PayableRow[],
  code: string,
  now: number,
): Promise<Skipped['reason'] | undefined> {
  const first = owed[0]!;
  if (!first.paypal_email) return 'no paypal_email';
  if (!(await taxFormValid(db, programId, first.partner_id, now))) return 'no valid tax form';
  return notDue(owed, code);
}

/** Payable commissions by currency, then by partner. */
export function group(rows: PayableRow[]): Map<string, Map<string, PayableRow[]>> {
  const byCurrency = new Map<string, Map<string, PayableRow[]>>();
  for (const row of rows) {
    const byPartner = byCurrency.get(row.currency) ?? new Map<string, PayableRow[]>();
    byCurrency.set(row.currency, byPartner);
    append(byPartner, row.partner_id, row);
  }
  return byCurrency;
}

/**
 * One batch for one currency: claims each partner's commissions that no other batch
 * holds, and records what the file says. Resolves to undefined when nothing was left to
 * claim, recording nothing.
 */
async function exportCurrency(
  tx: Tx,
  programId: string,
  code: string,
  byPartner: Map<string, PayableRow[]>,
  skipped: Skipped[],
  now: number,
): Promise<PayoutBatch | undefined> {
  const batch: BatchRow = { id: uuidv7(), program_id: programId, currency: code, created_at: now, paid_at: null, cancelled_at: null };
  await payouts.insertBatch(tx, batch);
  const items: ItemRow[] = [];
  for (const [partnerId, owed] of byPartner) {
    const first = owed[0]!;
    const reason = await heldBack(tx, programId, owed, code, now);
    if (reason) {
      skipped.push({ partnerId, name: first.partner_name, currency: code, amount: signedMajor(total(owed), code), reason });
      continue;
    }
    for (const c of owed) {
      // Netted as read: a commission that changed since (a refund) would change the net.
      const held = { id: c.commission_id, program_id: programId, partner_id: partnerId, currency: code, amount: c.amount };
      if (!(await batchCommission(tx, held, batch.id))) {
        throw fail('conflict', `commission ${c.commission_id} changed during the export; export again`);
      }
      items.push({
        batch_id: batch.id,
        commission_id: c.commission_id,
        partner_id: partnerId,
        amount: c.amount,
        paypal_email: first.paypal_email,
      });
    }
  }
  if (items.length === 0) {
    await payouts.removeEmptyBatch(tx, batch.id);
    return undefined;
  }
  await payouts.insertItems(tx, items);
  await emit(tx, programId, 'payout.created', renderBatch(await getBatchSummary(tx, programId, batch.id)), now);
  return { id: batch.id, currency: code, rows: rowsOf(batch, items) };
}

/**
 * Records one batch per currency of what the program owes and no open batch holds yet,
 * and returns the rows of their files. A second export with nothing new records nothing.
 *
 * `deliver` runs inside the transaction, after the batches are recorded and before they
 * are committed: it writes the files. If it throws, or the commit fails, no batch exists,
 * so a batch never exists without its whole file.
 */
export async function exportPayouts(
  db: Db,
  programId: string,
  currency: string | null,
  now: number,
  deliver: (batches: readonly PayoutBatch[]) => void | Promise<void> = () => {},
): Promise<PayoutExport> {
  return db.transaction(async (tx) => {
    // One export of a program at a time, in any process: each nets what it read, whole.
    await tx.lock(`payouts:${programId}`);
    const result: PayoutExport = { batches: [], skipped: [] };
    // Nothing is owed for a zero amount: it makes no row, and stays pending.
    const owed = await payouts.payable(tx, programId, now, { currency: currency ?? undefined });
    for (const [code, byPartner] of group(owed)) {
      if (minorUnit(code) === undefined) {
        // A code stored before currencies were checked: no file can say where its decimal point goes.
        for (const [partnerId, list] of byPartner) {
          result.skipped.push({
            partnerId,
            name: list[0]!.partner_name,
            currency: code,
            amount: String(total(list)),
            reason: 'unknown currency',
          });
        }
        continue;
      }
      const batch = await exportCurrency(tx, programId, code, byPartner, result.skipped, now);
      if (batch) result.batches.push(batch);
    }
    if (result.batches.length > 0) await deliver(result.batches);
    return result;
  });
}

/** The batch, or a 404; one of `programId`'s when it is given (the API's callers are one program's). */
async function findBatch(db: Queryable, id: string, programId?: string): Promise<BatchRow> {
  const batch = await payouts.getBatch(db, id);
  // A payout run's item is sent and settled by the run (flows/payout-send.ts), never by a file.
  if (!batch || batch.run_id != null || (programId !== undefined && batch.program_id !== programId)) {
    throw fail('not_found', `no payout batch ${id}${programId === undefined ? ' in this database' : ''}`);
  }
  return batch;
}

function refuseClosed(batch: BatchRow, doing: string): void {
  if (batch.paid_at !== null) throw fail('conflict', `batch ${batch.id} was already marked paid: it cannot be ${doing}`);
  if (batch.cancelled_at !== null) throw fail('conflict', `batch ${batch.id} was cancelled: it cannot be ${doing}`);
}

/** An open batch as exported, to write its file again. Paid and cancelled batches are refused. */
export async function openBatch(db: Queryable, id: string, programId?: string): Promise<PayoutBatch & { programId: string }> {
  const batch = await findBatch(db, id, programId);
  refuseClosed(batch, 'exported again');
  return { id, programId: batch.program_id, currency: batch.currency, rows: rowsOf(batch, await payouts.batchItems(db, id)) };
}

/** The program of an exported batch (any state), for the CLI's audit entry; undefined for none. */
export async function batchProgram(db: Queryable, id: string): Promise<string | undefined> {
  const batch = await payouts.getBatch(db, id);
  return batch?.run_id == null ? batch?.program_id : undefined;
}

/** The program's open batches: what holds commissions that a new export will not take. */
export async function openBatches(db: Queryable, programId: string): Promise<Array<{ id: string; currency: string; createdAt: number }>> {
  return (await payouts.openBatches(db, programId)).map((b) => ({ id: b.id, currency: b.currency, createdAt: b.created_at }));
}

/** Cancels an open batch and lets go of its commissions; resolves to how many. */
export async function cancelPayoutBatch(db: Db, id: string, now: number, programId?: string): Promise<number> {
  return db.transaction(async (tx) => {
    refuseClosed(await findBatch(tx, id, programId), 'cancelled');
    // Paid or cancelled by someone else between the read and this write.
    if (!(await payouts.cancelBatch(tx, id, now))) throw fail('conflict', `batch ${id} was marked paid or cancelled meanwhile`);
    return unbatchCommissions(tx, id);
  });
}

/** The batch ids named by an export file's notes. */
export function batchesIn(rows: readonly string[][]): string[] {
  const ids = new Set<string>();
  for (const row of rows) {
    const id = NOTE.exec(row[4] ?? '')?.[1];
    if (!id) throw fail('invalid_field', 'this file has a row that is not from tally payouts export');
    ids.add(id);
  }
  return [...ids];
}

/** Rows as comparable text, in any order: every cell counts, the order of rows does not. */
const rowSet = (rows: readonly (readonly string[])[]) => rows.map((r) => JSON.stringify(r)).sort();

/**
 * Marks exactly the commissions of the file's batches paid, in one transaction. Refuses
 * the whole file, moving nothing, if any batch was paid or cancelled, any of its
 * commissions is no longer pending, or any cell of the file differs from the export.
 * `rows` is the file as parsed by parseCsv.
 */
export async function markPaid(db: Db, rows: readonly string[][], now: number): Promise<number> {
  const ids = batchesIn(rows);
  if (ids.length === 0) throw fail('invalid_field', 'the file has no payout rows');
  return db.transaction(async (tx) => {
    let moved = 0;
    for (const id of ids) {
      const batch = await findBatch(tx, id);
      refuseClosed(batch, 'marked paid');
      const items = await payouts.batchItems(tx, id);
      const changed = items.filter((i) => i.state !== 'pending');
      if (changed.length > 0) {
        throw fail(
          'conflict',
          `${changed.length} commission(s) of batch ${id} changed state since the export: ${changed.map((c) => c.commission_id).join(', ')}`,
        );
      }
      const elsewhere = items.filter((i) => i.holder !== id);
      if (elsewhere.length > 0) {
        // Only batches exported before batches held their commissions can get here.
        throw fail(
          'conflict',
          `${elsewhere.length} commission(s) of batch ${id} belong to another batch: ${elsewhere.map((c) => c.commission_id).join(', ')}`,
        );
      }
      // Every cell as the file was written, neutralised formulas included: parsed back
      // from the same CSV text the export wrote.
      const inFile = rows.filter((r) => NOTE.exec(r[4] ?? '')?.[1] === id);
      const exported = payoutCsv({ id, currency: batch.currency, rows: rowsOf(batch, items) });
      if (rowSet(inFile).join('\n') !== rowSet(parseCsv(exported)).join('\n')) {
        throw fail('conflict', `the file's rows for batch ${id} differ from what was exported`);
      }
      // The checks above read; these writes are conditional, so a mark-paid, a cancel or a
      // state change racing this one (another process) makes it refuse the file, not half-apply.
      if (!(await payouts.markBatchPaid(tx, id, now))) throw fail('conflict', `batch ${id} was marked paid or cancelled meanwhile`);
      for (const item of items) {
        if (!(await payBatched(tx, batch.program_id, item.commission_id, now))) {
          throw fail('conflict', `commission ${item.commission_id} of batch ${id} changed state meanwhile`);
        }
        moved++;
      }
      await emit(tx, batch.program_id, 'payout.paid', renderBatch(await getBatchSummary(tx, batch.program_id, id)), now);
    }
    return moved;
  });
}

/**
 * Marks an open batch paid as its own file says, with every check of markPaid: the
 * dashboard's button and the API's call for "we uploaded it and PayPal paid".
 */
export async function payBatch(db: Db, programId: string, id: string, now: number): Promise<number> {
  return markPaid(db, parseCsv(payoutCsv(await openBatch(db, id, programId))), now);
}

export interface Owed {
  partnerId: string;
  name: string;
  paypalEmail: string | null;
  currency: string;
  /** Minor units, net of clawbacks. */
  amount: number;
  commissions: number;
  /** The least a payout may be, in minor units. */
  minimum: number;
  /** Whether the next export pays it. */
  due: boolean;
  /** Why it does not, when it does not. */
  reason: Skipped['reason'] | undefined;
}

/**
 * What each partner can be paid now, per currency, net of clawbacks: what the next export
 * would pay (`due`), and what it would leave (no address, below the minimum, negative).
 */
export async function owedNow(db: Queryable, programId: string, now: number, partnerId?: string): Promise<Owed[]> {
  // Summed by the database: a partner with 17,000 payable commissions is one row a currency.
  const owed: Owed[] = [];
  // One after another: each weighs a tax form, and a program owes thousands of partners.
  for (const sum of await payouts.payableTotals(db, programId, now, { partnerId })) owed.push(await owedOf(db, programId, sum, now));
  return owed.sort((a, b) => a.currency.localeCompare(b.currency) || b.amount - a.amount || a.partnerId.localeCompare(b.partnerId));
}

/** What a partner's payable commissions in one currency, summed, come to: whether the next export pays them, and if not why. */
export async function owedOf(db: Queryable, programId: string, sum: PayableSum, now: number): Promise<Owed> {
  const amount = Number(sum.amount);
  // The checks take the payable rows; their sum, as one row, is what they weigh.
  const reason = await heldBack(db, programId, [{ ...sum, amount, commission_id: '' }], sum.currency, now);
  return {
    partnerId: sum.partner_id,
    name: sum.partner_name,
    paypalEmail: sum.paypal_email,
    currency: sum.currency,
    amount,
    commissions: Number(sum.commissions),
    minimum: minimumIn(minimumsOf(sum), sum.currency),
    due: reason === undefined,
    reason,
  };
}

export function listBatches(db: Queryable, programId: string): Promise<payouts.BatchSummary[]> {
  return payouts.batchSummaries(db, programId, null);
}

export async function getBatchSummary(db: Queryable, programId: string, id: string): Promise<payouts.BatchSummary> {
  const [batch] = await payouts.batchSummaries(db, programId, id);
  if (!batch) throw fail('not_found', `no payout batch ${id}`);
  return batch;
}

/** The three levels' stored minimums, as the query reads them (it decides nothing: core/payout-terms.ts does). */
const minimumsOf = (r: Pick<PayableRow, 'program_minimum' | 'group_minimum' | 'partnership_minimum'>) => ({
  program: r.program_minimum,
  group: r.group_minimum,
  partnership: r.partnership_minimum,
});
