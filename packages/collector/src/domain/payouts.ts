// Payouts: pending commissions of accepted partnerships, summed per partner and
// currency into PayPal's Payouts bulk-upload file, then marked paid from that file.

import { fail } from '../errors.js';
import type { Db } from '../store/db.js';
import * as commissions from '../store/commissions.js';
import * as payouts from '../store/payouts.js';
import type { PayableRow } from '../store/payouts.js';
import { uuidv7 } from './ids.js';
import { majorUnits, minorUnit } from './money.js';

export interface PayoutRow {
  email: string;
  amount: string;
  currency: string;
  note: string;
  partnerId: string;
}

export interface PayoutExport {
  /** One batch per currency: PayPal takes one currency per file. */
  batches: Array<{ id: string; currency: string; rows: PayoutRow[] }>;
  /** Partners with something to pay but no PayPal address: not in the file. */
  skipped: Array<{ partnerId: string; name: string; currency: string; amount: string }>;
}

const NOTE = /batch (\S+)$/;

export function noteFor(partnerId: string, batchId: string): string {
  return `Commission payout, partner ${partnerId}, batch ${batchId}`;
}

/** Groups payable commissions by currency, then by partner, in the order they come. */
function group(rows: PayableRow[]): Map<string, Map<string, PayableRow[]>> {
  const byCurrency = new Map<string, Map<string, PayableRow[]>>();
  for (const row of rows) {
    const byPartner = byCurrency.get(row.currency) ?? new Map<string, PayableRow[]>();
    byCurrency.set(row.currency, byPartner);
    byPartner.set(row.partner_id, [...(byPartner.get(row.partner_id) ?? []), row]);
  }
  return byCurrency;
}

/** Records one batch per currency and returns the rows of its file. */
export async function exportPayouts(db: Db, programId: string, currency: string | null, now: number): Promise<PayoutExport> {
  return db.transaction(async (tx) => {
    const result: PayoutExport = { batches: [], skipped: [] };
    for (const [code, byPartner] of group(await payouts.payable(tx, programId, currency))) {
      // A code stored before currencies were checked has no known minor unit: no file can say its amount.
      if (minorUnit(code) === undefined) continue;
      const batchId = uuidv7();
      const rows: PayoutRow[] = [];
      const items: payouts.ItemRow[] = [];
      for (const [partnerId, commissions] of byPartner) {
        const first = commissions[0]!;
        const sum = commissions.reduce((n, c) => n + c.amount, 0);
        if (!first.paypal_email) {
          result.skipped.push({ partnerId, name: first.partner_name, currency: code, amount: majorUnits(sum, code) });
          continue;
        }
        rows.push({ email: first.paypal_email, amount: majorUnits(sum, code), currency: code, note: noteFor(partnerId, batchId), partnerId });
        for (const c of commissions) items.push({ batch_id: batchId, commission_id: c.commission_id, partner_id: partnerId, amount: c.amount });
      }
      if (rows.length === 0) continue;
      await payouts.insertBatch(tx, { id: batchId, program_id: programId, currency: code, created_at: now, paid_at: null }, items);
      result.batches.push({ id: batchId, currency: code, rows });
    }
    return result;
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

/**
 * Marks exactly the commissions of the file's batches paid, in one transaction. Refuses
 * the whole file, moving nothing, if any of them is no longer pending or the batch was
 * already marked.
 */
export async function markPaid(db: Db, rows: readonly string[][], now: number): Promise<number> {
  const ids = batchesIn(rows);
  if (ids.length === 0) throw fail('invalid_field', 'the file has no payout rows');
  return db.transaction(async (tx) => {
    let moved = 0;
    for (const id of ids) {
      const batch = await payouts.getBatch(tx, id);
      if (!batch) throw fail('not_found', `no payout batch ${id} in this database`);
      if (batch.paid_at !== null) throw fail('conflict', `batch ${id} was already marked paid`);
      const items = await payouts.batchItems(tx, id);
      const changed = items.filter((i) => i.state !== 'pending');
      if (changed.length > 0) {
        throw fail('conflict', `${changed.length} commission(s) of batch ${id} changed state since the export: ${changed.map((c) => c.commission_id).join(', ')}`);
      }
      // The file must be the export as written: the same partners and the same sums.
      const inFile = rows.filter((r) => r[4]?.endsWith(`batch ${id}`)).map((r) => `${r[4]} ${r[1]}`).sort();
      const expected = [...new Set(items.map((i) => i.partner_id))]
        .map((p) => `${noteFor(p, id)} ${majorUnits(items.filter((i) => i.partner_id === p).reduce((n, i) => n + i.amount, 0), batch.currency)}`)
        .sort();
      if (inFile.join('\n') !== expected.join('\n')) {
        throw fail('conflict', `the file's rows for batch ${id} differ from what was exported`);
      }
      // The checks above read; these writes are conditional, so a mark-paid or a state
      // change racing this one (another process) makes it refuse the file, not half-apply.
      if (!(await payouts.markBatchPaid(tx, id, now))) throw fail('conflict', `batch ${id} was already marked paid`);
      const paid = { state: 'paid' as const, reject_reason: null, paid_at: now, state_set_at: now, updated_at: now };
      for (const item of items) {
        if (!(await commissions.move(tx, batch.program_id, item.commission_id, 'pending', paid))) {
          throw fail('conflict', `commission ${item.commission_id} of batch ${id} changed state meanwhile`);
        }
        moved++;
      }
    }
    return moved;
  });
}
