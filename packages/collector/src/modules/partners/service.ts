// Partners: the people or companies who refer customers to a program.

import { fail, found } from '../../platform/errors.js';
import { UniqueViolation, type Db, type Queryable } from '../../platform/db/db.js';
import * as partners from './repo.js';
import type { PartnerRow } from './repo.js';
import { normalizeEmail } from '../../core/email.js';
import { uuidv7 } from '../../core/ids.js';
import { BILLING_FIELDS } from '../../core/billing.js';

export interface PartnerInput {
  name: string;
  email: string;
  paypal_email?: string | null;
  /** The language the person chose (their account's, when they join another program from the portal). */
  locale?: string | null;
  /** The partner's side of invoices; null clears one. */
  billing_name?: string | null;
  billing_address?: string | null;
  billing_vat_id?: string | null;
}

export async function getPartner(db: Queryable, programId: string, id: string): Promise<PartnerRow> {
  return found(await partners.get(db, programId, id), 'partner', id);
}

function duplicateEmail(): Error {
  return fail('conflict', 'another partner of this program has that email: GET /v1/partners?email_eq=… finds them', { field: 'email' });
}

/** Partner emails are unique per program; the unique index has the last word under races. */
async function write(op: () => Promise<void>): Promise<void> {
  try {
    await op();
  } catch (err) {
    throw err instanceof UniqueViolation ? duplicateEmail() : err;
  }
}

export async function createPartner(
  db: Queryable,
  programId: string,
  input: PartnerInput,
  now: number,
  accountId: string | null = null,
): Promise<PartnerRow> {
  const row: PartnerRow = {
    id: uuidv7(),
    program_id: programId,
    name: input.name,
    email: input.email,
    email_norm: normalizeEmail(input.email),
    paypal_email: input.paypal_email ?? null,
    paypal_email_norm: input.paypal_email ? normalizeEmail(input.paypal_email) : null,
    account_id: accountId,
    locale: input.locale ?? null,
    billing_name: input.billing_name ?? null,
    billing_address: input.billing_address ?? null,
    billing_vat_id: input.billing_vat_id ?? null,
    created_at: now,
    updated_at: now,
  };
  await write(() => partners.insert(db, row));
  return row;
}

export async function updatePartner(
  db: Db,
  programId: string,
  id: string,
  changes: Partial<PartnerInput>,
  now: number,
): Promise<PartnerRow> {
  return db.transaction(async (tx) => {
    const row = { ...(await getPartner(tx, programId, id)) };
    if (changes.name !== undefined) row.name = changes.name;
    if (changes.email !== undefined) {
      row.email = changes.email;
      row.email_norm = normalizeEmail(changes.email);
    }
    if (changes.paypal_email !== undefined) {
      row.paypal_email = changes.paypal_email;
      row.paypal_email_norm = changes.paypal_email === null ? null : normalizeEmail(changes.paypal_email);
    }
    // The owner's route takes no language; the embedded portal's partner sets theirs (modules/embed).
    if (changes.locale !== undefined) row.locale = changes.locale;
    for (const field of BILLING_FIELDS) {
      if (changes[field] !== undefined) row[field] = changes[field];
    }
    row.updated_at = now;
    await write(() => partners.update(tx, row));
    return row;
  });
}

/**
 * Deletes a partner with no referrals or commissions, in `tx` (flows/erasure.ts); resolves to
 * the ids that named them: theirs, their portal account's, their partnerships' and leads'.
 */
export async function deletePartnerIn(tx: Queryable, programId: string, id: string): Promise<string[]> {
  const row = await getPartner(tx, programId, id);
  if (await partners.hasHistory(tx, programId, id)) {
    throw fail('conflict', 'a partner with referrals or commissions cannot be deleted');
  }
  const gone = await partners.remove(tx, programId, id);
  return [id, ...(row.account_id ? [row.account_id] : []), ...gone];
}
