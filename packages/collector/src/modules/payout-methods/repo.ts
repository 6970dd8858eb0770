// The SQL of payout_methods (a partner record's chosen method) and payout_method_settings (a
// program's rules for them), the same on both engines.

import type { Queryable } from '../../platform/db/db.js';
import { insertRow } from '../../platform/db/rows.js';
import type { PayoutMethodRow, SettingsRow } from './model.js';

export function get(db: Queryable, programId: string, partnerId: string): Promise<PayoutMethodRow | undefined> {
  return db.get<PayoutMethodRow>('SELECT * FROM payout_methods WHERE program_id = ? AND partner_id = ?', [programId, partnerId]);
}

/** The chosen methods of the given partners (those who chose one). */
export function getMany(db: Queryable, programId: string, partnerIds: readonly string[]): Promise<PayoutMethodRow[]> {
  if (partnerIds.length === 0) return Promise.resolve([]);
  return db.all<PayoutMethodRow>(
    `SELECT * FROM payout_methods WHERE program_id = ? AND partner_id IN (${partnerIds.map(() => '?').join(', ')})`,
    [programId, ...partnerIds],
  );
}

/** The partner's method, replacing whatever they had chosen before. */
export function put(db: Queryable, row: PayoutMethodRow): Promise<number> {
  const { program_id: _p, partner_id: _a, created_at: _c, ...rest } = row;
  const set = Object.keys(rest).map((c) => `${c} = excluded.${c}`);
  return insertRow(db, 'payout_methods', row, `ON CONFLICT (program_id, partner_id) DO UPDATE SET ${set.join(', ')}`);
}

export function byConfirmHash(db: Queryable, hash: string): Promise<PayoutMethodRow | undefined> {
  return db.get<PayoutMethodRow>('SELECT * FROM payout_methods WHERE confirm_hash = ?', [hash]);
}

export function setConfirmation(db: Queryable, programId: string, partnerId: string, hash: string, expiresAt: number): Promise<number> {
  return db.run(
    "UPDATE payout_methods SET confirm_hash = ?, confirm_expires_at = ? WHERE program_id = ? AND partner_id = ? AND method = 'paypal'",
    [hash, expiresAt, programId, partnerId],
  );
}

/** Confirms the address the token was sent to, once: the token is spent. */
export function confirm(db: Queryable, hash: string, now: number): Promise<number> {
  return db.run(
    `UPDATE payout_methods SET paypal_confirmed_at = ?, confirm_hash = NULL, confirm_expires_at = NULL, updated_at = ?
      WHERE confirm_hash = ? AND confirm_expires_at > ? AND method = 'paypal'`,
    [now, now, hash, now],
  );
}

/**
 * Stripe's word on a connected account, applied only when it is newer than what the row
 * holds: events come in any order, and one sent twice changes nothing the second time.
 */
export function syncStripe(
  db: Queryable,
  programId: string,
  accountId: string,
  fields: { payoutsEnabled: boolean; currentlyDue: string[]; at: number },
  now: number,
): Promise<number> {
  return db.run(
    `UPDATE payout_methods SET stripe_payouts_enabled = ?, stripe_currently_due = ?, stripe_synced_at = ?, updated_at = ?
      WHERE program_id = ? AND stripe_account_id = ? AND stripe_synced_at <= ?`,
    [fields.payoutsEnabled ? 1 : 0, JSON.stringify(fields.currentlyDue), fields.at, now, programId, accountId, fields.at],
  );
}

export function byStripeAccount(db: Queryable, programId: string, accountId: string): Promise<PayoutMethodRow | undefined> {
  return db.get<PayoutMethodRow>('SELECT * FROM payout_methods WHERE program_id = ? AND stripe_account_id = ?', [programId, accountId]);
}

export function settings(db: Queryable, programId: string): Promise<SettingsRow | undefined> {
  return db.get<SettingsRow>('SELECT * FROM payout_method_settings WHERE program_id = ?', [programId]);
}

/** The programs whose payout schedule is on, with their settings. */
export function scheduled(db: Queryable): Promise<SettingsRow[]> {
  return db.all<SettingsRow>("SELECT * FROM payout_method_settings WHERE schedule <> 'off' ORDER BY program_id");
}

export function putSettings(db: Queryable, row: SettingsRow): Promise<number> {
  const set = Object.keys(row)
    .filter((c) => c !== 'program_id')
    .map((c) => `${c} = excluded.${c}`);
  return insertRow(db, 'payout_method_settings', row, `ON CONFLICT (program_id) DO UPDATE SET ${set.join(', ')}`);
}
