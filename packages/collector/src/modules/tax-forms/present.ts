import type { TaxFormRow } from './model.js';
import type { TaxFormStatus } from './service.js';

/** A taxpayer id as anyone sees it: its last four characters. */
export const maskedTin = (last4: string): string => `•••••${last4}`;

function renderForm(f: TaxFormRow) {
  return {
    id: f.id,
    kind: f.kind,
    name: f.name,
    business_name: f.business_name,
    tax_classification: f.tax_classification,
    country: f.country,
    address: {
      line1: f.address_line1,
      line2: f.address_line2,
      city: f.city,
      region: f.region,
      postal_code: f.postal_code,
      country: f.address_country,
    },
    tin: maskedTin(f.tin_last4),
    date_of_birth: f.date_of_birth,
    signature: { name: f.signature_name, ip: f.signed_ip, signed_at: f.signed_at },
    expires_at: f.expires_at,
  };
}

/** A partner's tax form status in a program, as the portal and the owner see it: the TIN masked. */
export function renderTaxFormStatus(s: TaxFormStatus) {
  return {
    id: s.partnerId,
    type: 'tax_form_status' as const,
    attributes: { status: s.status, form: s.form ? renderForm(s.form) : null },
  };
}
