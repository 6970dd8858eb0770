// The tax forms module's records as plain types, shared by its repository and the flows that read them.

export const FORM_KINDS = ['w9', 'w8ben', 'w8bene'] as const;
export type FormKind = (typeof FORM_KINDS)[number];

/** A form as given; the latest of a partner's counts. */
export interface TaxFormRow {
  id: string;
  program_id: string;
  partner_id: string;
  kind: FormKind;
  /** The person's name (W-9 line 1, W-8BEN), or the organization's (W-8BEN-E). */
  name: string;
  /** W-9 line 2: a business or disregarded entity's name. */
  business_name: string | null;
  /** W-9 line 3a. */
  tax_classification: string | null;
  /** W-8BEN: country of citizenship; W-8BEN-E: of incorporation (ISO 3166 alpha-2). */
  country: string | null;
  address_line1: string;
  address_line2: string | null;
  city: string;
  /** A US state's code on a W-9, else a province or region. */
  region: string | null;
  postal_code: string | null;
  address_country: string;
  /** The taxpayer id (W-9: SSN or EIN; W-8: the foreign TIN), sealed by platform/keyring.ts with the form's id as context. */
  tin_ciphertext: string;
  tin_key_id: string;
  /** Its last four characters: the masked display needs no key. */
  tin_last4: string;
  /** W-8BEN: YYYY-MM-DD. */
  date_of_birth: string | null;
  /** The electronic signature: the name typed, from which address, when. */
  signature_name: string;
  signed_ip: string;
  signed_at: number;
  /** A W-8's end (exclusive): the first second after the third calendar year after signing; null for a W-9. */
  expires_at: number | null;
  created_at: number;
}
