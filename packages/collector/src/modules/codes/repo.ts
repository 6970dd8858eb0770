// Discounts and the partners' codes for them.

import type { Queryable } from '../../platform/db/db.js';
import { lister } from '../../platform/db/list.js';
import { insertRow, updateRow } from '../../platform/db/rows.js';
import type { CreditedPartnership } from '../partnerships/model.js';

export interface DiscountRow {
  id: string;
  program_id: string;
  /** The partner group whose codes it is for; null: the whole program's. */
  group_id: string | null;
  name: string;
  /** 'percent' (basis points off) or 'amount' (minor units of currency off). */
  kind: 'percent' | 'amount';
  amount: number;
  currency: string | null;
  duration_kind: 'once' | 'months' | 'forever';
  duration_months: number | null;
  /** Its coupon in Stripe, once a code for it was made there. */
  stripe_coupon_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface CodeRow {
  id: string;
  program_id: string;
  partnership_id: string;
  partner_id: string;
  discount_id: string | null;
  /** As it was made; `code_norm` (lower case) is what is unique and looked up. */
  code: string;
  code_norm: string;
  enabled: number;
  created_by: 'owner' | 'partner' | 'auto';
  /** The Stripe promotion code (promo_…) it is, whose id Stripe's events name. */
  stripe_promotion_code_id: string | null;
  created_at: number;
  updated_at: number;
}

export const discounts = lister<DiscountRow>('discounts', { group_id: 'group_id', created_at: 'created_at' });
export const codes = lister<CodeRow>('discount_codes', {
  partnership_id: 'partnership_id',
  partner_id: 'partner_id',
  discount_id: 'discount_id',
  code: 'code_norm',
  enabled: 'enabled',
  created_at: 'created_at',
});

export function getDiscount(db: Queryable, programId: string, id: string): Promise<DiscountRow | undefined> {
  return db.get<DiscountRow>('SELECT * FROM discounts WHERE program_id = ? AND id = ?', [programId, id]);
}

/** Every discount of the program, newest first. */
export function discountsOf(db: Queryable, programId: string): Promise<DiscountRow[]> {
  return db.all<DiscountRow>('SELECT * FROM discounts WHERE program_id = ? ORDER BY created_at DESC, id DESC', [programId]);
}

export function getCode(db: Queryable, programId: string, id: string): Promise<CodeRow | undefined> {
  return db.get<CodeRow>('SELECT * FROM discount_codes WHERE program_id = ? AND id = ?', [programId, id]);
}

/** A partnership's codes, oldest first. */
export function codesOf(db: Queryable, programId: string, partnershipId: string): Promise<CodeRow[]> {
  return db.all<CodeRow>('SELECT * FROM discount_codes WHERE partnership_id = ? AND program_id = ? ORDER BY created_at, id', [
    partnershipId,
    programId,
  ]);
}

export function codeByNorm(db: Queryable, programId: string, codeNorm: string): Promise<CodeRow | undefined> {
  return db.get<CodeRow>('SELECT * FROM discount_codes WHERE program_id = ? AND code_norm = ?', [programId, codeNorm]);
}

/** A code's partnership, with its partner's addresses (their own code is a self-referral) and the code. */
const CREDITED = `SELECT ps.*, pa.email_norm AS partner_email_norm, pa.paypal_email_norm AS partner_paypal_email_norm, dc.id AS code_id, dc.code
       FROM discount_codes dc
       JOIN partnerships ps ON ps.id = dc.partnership_id
       JOIN partners pa ON pa.id = ps.partner_id`;

/** The partnership an enabled code credits, found by the Stripe promotion codes an event names. */
export function creditedByStripePromotion(db: Queryable, programId: string, promoIds: readonly string[]) {
  if (promoIds.length === 0) return Promise.resolve(undefined);
  return db.get<CreditedPartnership & { code_id: string; code: string }>(
    `${CREDITED} WHERE dc.program_id = ? AND dc.stripe_promotion_code_id IN (${promoIds.map(() => '?').join(', ')}) AND dc.enabled = 1
      ORDER BY dc.id LIMIT 1`,
    [programId, ...promoIds],
  );
}

export function setStripePromotion(db: Queryable, programId: string, id: string, promoId: string | null, now: number): Promise<number> {
  return updateRow(db, 'discount_codes', programId, id, { stripe_promotion_code_id: promoId, updated_at: now });
}

/** The partnership an enabled code credits, with its partner's addresses (a partner's own code is refused as a self-referral). */
export function creditedByCode(
  db: Queryable,
  programId: string,
  codeNorm: string,
): Promise<(CreditedPartnership & { code_id: string }) | undefined> {
  return db.get(`${CREDITED} WHERE dc.program_id = ? AND dc.code_norm = ? AND dc.enabled = 1`, [programId, codeNorm]);
}

export async function insertDiscount(db: Queryable, row: DiscountRow): Promise<void> {
  await insertRow(db, 'discounts', row);
}

export async function updateDiscount(db: Queryable, row: DiscountRow): Promise<void> {
  const { id: _, program_id, created_at: __, ...fields } = row;
  await updateRow(db, 'discounts', program_id, row.id, fields);
}

export function setStripeCoupon(db: Queryable, programId: string, id: string, couponId: string, now: number): Promise<number> {
  return updateRow(db, 'discounts', programId, id, { stripe_coupon_id: couponId, updated_at: now });
}

export async function insertCode(db: Queryable, row: CodeRow): Promise<void> {
  await insertRow(db, 'discount_codes', row);
}

export function setEnabled(db: Queryable, programId: string, id: string, enabled: boolean, now: number): Promise<number> {
  return updateRow(db, 'discount_codes', programId, id, { enabled: enabled ? 1 : 0, updated_at: now });
}
