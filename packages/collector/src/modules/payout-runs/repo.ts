import type { Queryable } from '../../platform/db/db.js';
import { insertRow, insertRows } from '../../platform/db/rows.js';
import type { ItemRow, ItemState, PaypalAccountRow, ReversalRow, RunRow } from './model.js';

export async function insertRun(db: Queryable, run: RunRow): Promise<void> {
  await insertRow(db, 'payout_runs', run);
}

/** A page of a run's items in a few statements. */
export function insertItems(db: Queryable, items: readonly ItemRow[]): Promise<void> {
  return insertRows(db, 'payout_run_items', items);
}

export function getRun(db: Queryable, programId: string, id: string): Promise<RunRow | undefined> {
  return db.get<RunRow>('SELECT * FROM payout_runs WHERE program_id = ? AND id = ?', [programId, id]);
}

/** The program's runs, newest first (the latest 200). */
export function listRuns(db: Queryable, programId: string): Promise<RunRow[]> {
  return db.all<RunRow>('SELECT * FROM payout_runs WHERE program_id = ? ORDER BY created_at DESC, id DESC LIMIT 200', [programId]);
}

export function itemsOf(db: Queryable, runId: string): Promise<ItemRow[]> {
  return db.all<ItemRow>('SELECT * FROM payout_run_items WHERE run_id = ? ORDER BY currency, partner_id, id', [runId]);
}

/** A page of the run's items, in itemsOf's order. */
export function itemsPage(db: Queryable, runId: string, limit: number, offset: number): Promise<ItemRow[]> {
  return db.all<ItemRow>('SELECT * FROM payout_run_items WHERE run_id = ? ORDER BY currency, partner_id, id LIMIT ? OFFSET ?', [
    runId,
    limit,
    offset,
  ]);
}

/** How many of the run's items are in each state. */
export async function itemCounts(db: Queryable, runId: string): Promise<Record<string, number>> {
  const rows = await db.all<{ state: string; n: number }>(
    'SELECT state, COUNT(*) AS n FROM payout_run_items WHERE run_id = ? GROUP BY state',
    [runId],
  );
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
}

export function getItem(db: Queryable, programId: string, id: string): Promise<ItemRow | undefined> {
  return db.get<ItemRow>('SELECT * FROM payout_run_items WHERE program_id = ? AND id = ?', [programId, id]);
}

/** The item a provider's own id names (a Wise transfer's), in the program. */
export function itemByProviderId(db: Queryable, programId: string, method: string, providerItemId: string): Promise<ItemRow | undefined> {
  return db.get<ItemRow>('SELECT * FROM payout_run_items WHERE program_id = ? AND provider_item_id = ? AND method = ?', [
    programId,
    providerItemId,
    method,
  ]);
}

/** A Wise transfer made for the item, with the quote's fee: recorded once; 0 when another send recorded it first. */
export function recordTransfer(db: Queryable, itemId: string, transferId: string, fee: number | null): Promise<number> {
  return db.run('UPDATE payout_run_items SET provider_item_id = ?, provider_fee = ? WHERE id = ? AND provider_item_id IS NULL', [
    transferId,
    fee,
    itemId,
  ]);
}

export function markFunded(db: Queryable, itemId: string, now: number): Promise<number> {
  return db.run('UPDATE payout_run_items SET funded_at = ? WHERE id = ? AND funded_at IS NULL', [now, itemId]);
}

/** A run's move, conditional on the state read: false when another caller moved it first. */
export async function moveRun(db: Queryable, run: RunRow, changes: Partial<RunRow>): Promise<boolean> {
  const keys = Object.keys(changes) as (keyof RunRow)[];
  const set = keys.map((k) => `${k} = ?`).join(', ');
  const values = keys.map((k) => changes[k] as string | number | null);
  return (
    (await db.run(`UPDATE payout_runs SET ${set} WHERE id = ? AND state = ? AND attempt = ?`, [
      ...values,
      run.id,
      run.state,
      run.attempt,
    ])) === 1
  );
}

/** An item's move, conditional on the state read, so an event applied twice (or by two processes) moves it once. */
export async function moveItem(db: Queryable, item: ItemRow, to: ItemState, changes: Partial<ItemRow>, now: number): Promise<boolean> {
  const all = { ...changes, state: to, state_set_at: now };
  const keys = Object.keys(all) as (keyof ItemRow)[];
  const set = keys.map((k) => `${k} = ?`).join(', ');
  const values = keys.map((k) => all[k] as string | number | null);
  return (await db.run(`UPDATE payout_run_items SET ${set} WHERE id = ? AND state = ?`, [...values, item.id, item.state])) === 1;
}

/** Records a reversal of the item's transfer; false when it was recorded before (by this event or another). */
export async function recordReversal(db: Queryable, r: ReversalRow): Promise<boolean> {
  return (
    (await db.run(
      `INSERT INTO payout_reversals (item_id, reversal_id, program_id, amount, commission_id, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (item_id, reversal_id) DO NOTHING`,
      [r.item_id, r.reversal_id, r.program_id, r.amount, r.commission_id, r.created_at],
    )) === 1
  );
}

/** Adds `amount` to a paid item's reversed total, in one statement (two processes add both); resolves to the new total, undefined when the item is no longer paid. */
export async function addReversed(db: Queryable, itemId: string, amount: number): Promise<number | undefined> {
  const row = await db.get<{ amount_reversed: number }>(
    `UPDATE payout_run_items SET amount_reversed = amount_reversed + ? WHERE id = ? AND state = 'paid' RETURNING amount_reversed`,
    [amount, itemId],
  );
  return row ? Number(row.amount_reversed) : undefined;
}

export function reversalsOf(db: Queryable, itemId: string): Promise<ReversalRow[]> {
  return db.all<ReversalRow>('SELECT * FROM payout_reversals WHERE item_id = ? ORDER BY created_at, reversal_id', [itemId]);
}

export async function setReversalCommission(db: Queryable, itemId: string, reversalId: string, commissionId: string): Promise<void> {
  await db.run('UPDATE payout_reversals SET commission_id = ? WHERE item_id = ? AND reversal_id = ?', [commissionId, itemId, reversalId]);
}

export function paypalAccount(db: Queryable, programId: string): Promise<PaypalAccountRow | undefined> {
  return db.get<PaypalAccountRow>('SELECT * FROM paypal_accounts WHERE program_id = ?', [programId]);
}

export async function savePaypalAccount(db: Queryable, row: PaypalAccountRow): Promise<void> {
  await db.run(
    `INSERT INTO paypal_accounts (program_id, client_id, client_secret, webhook_id, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (program_id) DO UPDATE SET client_id = excluded.client_id, client_secret = excluded.client_secret,
       webhook_id = excluded.webhook_id, updated_at = excluded.updated_at`,
    [row.program_id, row.client_id, row.client_secret, row.webhook_id, row.updated_at],
  );
}

/** Records a provider's event by its id; false when it was recorded before (the same event again). */
export async function firstTime(
  db: Queryable,
  provider: string,
  eventId: string,
  programId: string,
  type: string,
  now: number,
): Promise<boolean> {
  return (
    (await db.run(
      `INSERT INTO payout_provider_events (provider, event_id, program_id, event_type, received_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (provider, event_id) DO NOTHING`,
      [provider, eventId, programId, type, now],
    )) === 1
  );
}

/** Claims a schedule's period for the program: false when it was claimed before (by this process or another). */
export async function claimPeriod(db: Queryable, programId: string, period: string, now: number): Promise<boolean> {
  return (
    (await db.run(
      `INSERT INTO payout_schedule_periods (program_id, period, run_id, claimed_at) VALUES (?, ?, NULL, ?)
       ON CONFLICT (program_id, period) DO NOTHING`,
      [programId, period, now],
    )) === 1
  );
}

export async function setPeriodRun(db: Queryable, programId: string, period: string, runId: string): Promise<void> {
  await db.run('UPDATE payout_schedule_periods SET run_id = ? WHERE program_id = ? AND period = ?', [runId, programId, period]);
}

/** The period a run was made for by the schedule; undefined for a run someone made. */
export async function periodOfRun(db: Queryable, runId: string): Promise<string | undefined> {
  return (await db.get<{ period: string }>('SELECT period FROM payout_schedule_periods WHERE run_id = ?', [runId]))?.period;
}
