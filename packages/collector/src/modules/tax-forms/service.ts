// Tax forms: a partner gives a W-9 (a US person) or a W-8BEN / W-8BEN-E (anyone else) to a
// program, signed electronically; its taxpayer id is sealed with the configured key
// (platform/keyring.ts) and shown only by its last four characters. A W-8 lasts until the
// end of the third calendar year after the year it was signed; a W-9 until replaced.
// What the payouts ask: taxFormValid. docs/payouts.md#tax-forms.

import { uuidv7 } from '../../core/ids.js';
import { fail } from '../../platform/errors.js';
import type { Db, Queryable } from '../../platform/db/db.js';
import type { Keyring } from '../../platform/keyring.js';
import type { FormKind, TaxFormRow } from './model.js';
import * as repo from './repo.js';

export interface FormAddress {
  line1: string;
  line2?: string | null | undefined;
  city: string;
  region?: string | null | undefined;
  postal_code?: string | null | undefined;
  country: string;
}

/** A form as the partner fills it in; the routes' schemas have checked each field's shape. */
export interface FormInput {
  kind: FormKind;
  name: string;
  business_name?: string | null | undefined;
  tax_classification?: string | null | undefined;
  country?: string | null | undefined;
  address: FormAddress;
  /** W-9: the SSN or EIN, digits only; W-8: the foreign TIN. */
  tin: string;
  date_of_birth?: string | null | undefined;
  /** The signer's name, typed: the electronic signature. */
  signature: string;
}

export interface Signer {
  ip: string;
  now: number;
}

export type Validity = 'valid' | 'expired' | 'missing';

export interface TaxFormStatus {
  partnerId: string;
  status: Validity;
  form: TaxFormRow | undefined;
}

/** The keys, or the refusal every tax form meets on a collector without them. */
export function keysOrRefuse(keys: Keyring | undefined): Keyring {
  if (!keys) {
    throw fail(
      'unavailable',
      'tax forms are turned off on this server: it has no TAX_FORM_KEY to encrypt taxpayer ids with (docs/payouts.md#tax-forms)',
    );
  }
  return keys;
}

/** The first second after the third calendar year after the one `signedAt` falls in (UTC). */
export function w8ExpiresAt(signedAt: number): number {
  const year = new Date(signedAt * 1000).getUTCFullYear();
  return Date.UTC(year + 4, 0, 1) / 1000;
}

export function validity(form: TaxFormRow | undefined, now: number): Validity {
  if (!form) return 'missing';
  return form.expires_at !== null && now >= form.expires_at ? 'expired' : 'valid';
}

/** Records the partner's form in the program; the latest given counts. */
export async function giveTaxForm(
  db: Db,
  keys: Keyring | undefined,
  programId: string,
  partnerId: string,
  input: FormInput,
  signer: Signer,
): Promise<TaxFormStatus> {
  const ring = keysOrRefuse(keys);
  const id = uuidv7();
  const sealed = ring.seal(input.tin, id);
  const row: TaxFormRow = {
    id,
    program_id: programId,
    partner_id: partnerId,
    kind: input.kind,
    name: input.name,
    business_name: input.business_name ?? null,
    tax_classification: input.tax_classification ?? null,
    country: input.country ?? null,
    address_line1: input.address.line1,
    address_line2: input.address.line2 ?? null,
    city: input.address.city,
    region: input.address.region ?? null,
    postal_code: input.address.postal_code ?? null,
    address_country: input.address.country,
    tin_ciphertext: sealed.ciphertext,
    tin_key_id: sealed.keyId,
    tin_last4: input.tin.slice(-4),
    date_of_birth: input.date_of_birth ?? null,
    signature_name: input.signature,
    signed_ip: signer.ip,
    signed_at: signer.now,
    expires_at: input.kind === 'w9' ? null : w8ExpiresAt(signer.now),
    created_at: signer.now,
  };
  await repo.insert(db, row);
  return { partnerId, status: validity(row, signer.now), form: row };
}

export async function taxFormStatus(db: Queryable, programId: string, partnerId: string, now: number): Promise<TaxFormStatus> {
  const form = await repo.latest(db, programId, partnerId);
  return { partnerId, status: validity(form, now), form };
}

/** Every partner's latest form in the program, by partner id. */
export async function programForms(db: Queryable, programId: string): Promise<Map<string, TaxFormRow>> {
  return new Map((await repo.latestOfProgram(db, programId)).map((f) => [f.partner_id, f]));
}

export const taxFormRequired = (db: Queryable, programId: string): Promise<boolean> => repo.required(db, programId);

export async function setTaxFormRequired(db: Db, programId: string, required: boolean, now: number): Promise<boolean> {
  await repo.setRequired(db, programId, required, now);
  return required;
}

/**
 * Whether the partner may be paid as far as tax forms go: the program does not require a
 * form (tax_form_required, off by default), or the partner's latest form is valid at `now`.
 */
export async function taxFormValid(db: Queryable, programId: string, partnerId: string, now: number): Promise<boolean> {
  if (!(await repo.required(db, programId))) return true;
  return validity(await repo.latest(db, programId, partnerId), now) === 'valid';
}

/** The form's taxpayer id in full: for the 1099 export alone. */
export function revealTin(keys: Keyring, form: TaxFormRow): string {
  return keys.open({ ciphertext: form.tin_ciphertext, keyId: form.tin_key_id }, form.id);
}

/**
 * Seals every form's taxpayer id with the current key, in pages, so that older keys can be
 * removed from TAX_FORM_OLD_KEYS; resolves to how many it re-encrypted.
 */
export async function resealTaxForms(db: Db, keys: Keyring): Promise<number> {
  let count = 0;
  for (;;) {
    const page = await repo.sealedWithOther(db, keys.currentId, 100);
    if (page.length === 0) return count;
    for (const form of page) {
      const sealed = keys.seal(revealTin(keys, form), form.id);
      // Conditional on the old key id: another process resealing at once changes it once.
      if (await repo.reseal(db, form.id, form.tin_key_id, sealed.ciphertext, sealed.keyId)) count++;
    }
  }
}
