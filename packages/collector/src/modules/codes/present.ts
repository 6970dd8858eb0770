// Discounts and codes as the API and the events show them.

import type { Resource } from '../../platform/resource.js';
import type { CodeRow, DiscountRow } from './repo.js';
import type { CodePayload } from '../../events/types.js';

/** What a discount gives: how much off, and for how long. */
export function discountTerms(row: DiscountRow) {
  return {
    name: row.name,
    kind: row.kind,
    amount: Number(row.amount),
    currency: row.currency,
    duration: row.duration_kind === 'months' ? { kind: 'months', months: Number(row.duration_months) } : { kind: row.duration_kind },
  };
}

export function renderDiscount(row: DiscountRow): Resource {
  return {
    id: row.id,
    type: 'discount',
    attributes: { ...discountTerms(row), group_id: row.group_id, created_at: row.created_at, updated_at: row.updated_at },
  };
}

export function renderCode(row: CodeRow): CodePayload {
  return {
    id: row.id,
    type: 'discount_code',
    attributes: {
      code: row.code,
      partnership_id: row.partnership_id,
      partner_id: row.partner_id,
      discount_id: row.discount_id,
      enabled: row.enabled === 1,
      created_by: row.created_by,
      stripe_promotion_code_id: row.stripe_promotion_code_id,
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
  };
}
