// The billing details a program (its owner) or a partner gives for invoices
// (docs/payouts.md#invoices): a legal name, an address and a VAT ID, each optional.

export const BILLING_FIELDS = ['billing_name', 'billing_address', 'billing_vat_id'] as const;

export type BillingField = (typeof BILLING_FIELDS)[number];
export type BillingFields = Record<BillingField, string | null>;

/** The given billing fields of a record, absent ones left out as every optional attribute is. */
export function renderBilling(row: BillingFields): Partial<Record<BillingField, string>> {
  const out: Partial<Record<BillingField, string>> = {};
  for (const key of BILLING_FIELDS) {
    const value = row[key];
    if (value !== null) out[key] = value;
  }
  return out;
}

/** The billing fields a request body gave (null included: it clears). */
export function billingOf(body: Partial<Record<BillingField, string | null | undefined>>): Partial<BillingFields> {
  const out: Partial<BillingFields> = {};
  for (const key of BILLING_FIELDS) {
    const value = body[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
