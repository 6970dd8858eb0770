// Tax forms as the owner reads them: every partner's status (partners and their forms), and
// the year's 1099-NEC file (forms and what the payouts paid). docs/payouts.md#tax-forms.

import { formatCsv } from '../platform/csv.js';
import type { Queryable } from '../platform/db/db.js';
import type { Page, PageRequest } from '../platform/db/list.js';
import type { Keyring } from '../platform/keyring.js';
import { majorUnits } from '../core/money.js';
import * as partners from '../modules/partners/repo.js';
import { getPartner } from '../modules/partners/service.js';
import type { ProgramRow } from '../modules/programs/model.js';
import { paidThroughBatches } from '../modules/payouts/repo.js';
import { keysOrRefuse, programForms, revealTin, type TaxFormStatus, taxFormStatus, validity } from '../modules/tax-forms/service.js';

/** The program's partners, a page at a time as every list, each with their form's status. */
export async function ownerTaxForms(db: Queryable, programId: string, page: PageRequest, now: number): Promise<Page<TaxFormStatus>> {
  const found = await partners.list(db, programId, [], page);
  const forms = await programForms(db, programId);
  const rows = found.rows.map((p) => {
    const form = forms.get(p.id);
    return { partnerId: p.id, status: validity(form, now), form };
  });
  return { ...found, rows };
}

/** One partner's status; a 404 for an id that is not a partner of the program. */
export async function ownerTaxForm(db: Queryable, programId: string, partnerId: string, now: number): Promise<TaxFormStatus> {
  await getPartner(db, programId, partnerId);
  return taxFormStatus(db, programId, partnerId, now);
}

/** $600, the threshold of box 1 (IRS instructions for Form 1099-NEC). */
export const NEC_THRESHOLD = 60_000;
/** Third-party settlement networks: they report what they paid on Form 1099-K (decision 0360). */
export const NETWORK_METHODS = ['paypal', 'stripe_connect'] as const;

/** The columns in the order of Form 1099-NEC's boxes, payer first. */
export const NEC_COLUMNS = [
  'payer_name',
  'payer_address',
  'payer_tin',
  'recipient_tin',
  'recipient_name',
  'recipient_name_2',
  'recipient_street',
  'recipient_city_state_zip',
  'recipient_country',
  'account_number',
  'box1_nonemployee_compensation',
] as const;

export interface NecPayer {
  year: number;
  payer_name?: string | null | undefined;
  payer_address?: string | null | undefined;
  payer_tin?: string | null | undefined;
}

/**
 * One row per US payee (their latest form is a W-9) paid at least $600 in USD in the
 * calendar year (UTC). Paid means a payout batch marked paid that year: today every batch
 * is a file paid outside Tally, counted as a payment outside card and third-party networks
 * (what a provider's network pays and reports on 1099-K is left out when payouts go
 * through one; docs/payouts.md#the-1099-nec-export).
 */
export async function necRows(db: Queryable, keys: Keyring | undefined, program: ProgramRow, payer: NecPayer): Promise<string[][]> {
  const ring = keysOrRefuse(keys);
  const from = Date.UTC(payer.year, 0, 1) / 1000;
  const to = Date.UTC(payer.year + 1, 0, 1) / 1000;
  const forms = await programForms(db, program.id);
  const rows: string[][] = [];
  for (const paid of await paidThroughBatches(db, program.id, 'USD', from, to, NETWORK_METHODS)) {
    const form = forms.get(paid.partner_id);
    if (form?.kind !== 'w9' || Number(paid.amount) < NEC_THRESHOLD) continue;
    rows.push([
      payer.payer_name ?? program.name,
      payer.payer_address ?? '',
      payer.payer_tin ?? '',
      revealTin(ring, form),
      form.name,
      form.business_name ?? '',
      [form.address_line1, form.address_line2].filter(Boolean).join(', '),
      `${form.city}, ${[form.region, form.postal_code].filter(Boolean).join(' ')}`,
      form.address_country,
      paid.partner_id,
      majorUnits(Number(paid.amount), 'USD'),
    ]);
  }
  return rows;
}

export async function necCsv(db: Queryable, keys: Keyring | undefined, program: ProgramRow, payer: NecPayer): Promise<string> {
  return formatCsv([[...NEC_COLUMNS], ...(await necRows(db, keys, program, payer))]);
}
