// Promotion codes (docs/codes.md): a discount belongs to a partner group or to the program,
// and each partner may have codes for it. A code is unique in its program whatever its case
// and credits its partner's sales where no link did, while its partnership is accepted and
// it is enabled.

import { uuidv7 } from '../../core/ids.js';
import { currencyCode } from '../../core/money.js';
import type { Queryable, Tx } from '../../platform/db/db.js';
import { UniqueViolation } from '../../platform/db/db.js';
import { fail, found } from '../../platform/errors.js';
import * as partnerships from '../partnerships/repo.js';
import * as groups from '../rewards/groups-repo.js';
import { emit } from '../webhooks/events.js';
import { renderCode } from './present.js';
import * as codes from './repo.js';
import type { CodeRow, DiscountRow } from './repo.js';

/** ASCII letters, digits, `-` and `_`: what a person can say aloud and type into any checkout. */
export const CODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;

/** The form codes are compared in: ASCII lower case (`toLowerCase` would also fold non-ASCII). */
export const codeNorm = (code: string): string => code.trim().replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));

export interface DiscountInput {
  name: string;
  group_id?: string | null | undefined;
  kind: DiscountRow['kind'];
  amount: number;
  currency?: string | null | undefined;
  duration: { kind: 'once' } | { kind: 'months'; months: number } | { kind: 'forever' };
}

export async function createDiscount(tx: Tx, programId: string, input: DiscountInput, now: number): Promise<DiscountRow> {
  if (input.group_id) found(await groups.get(tx, programId, input.group_id), 'group', input.group_id);
  if (input.kind === 'percent' && (input.amount < 1 || input.amount > 10_000)) {
    throw fail('invalid_field', 'a percent off is 1 to 10000 basis points', { field: 'amount' });
  }
  if (input.kind === 'amount' && !input.currency) throw fail('missing_field', 'an amount off needs its currency', { field: 'currency' });
  const row: DiscountRow = {
    id: uuidv7(),
    program_id: programId,
    group_id: input.group_id ?? null,
    name: input.name.trim(),
    kind: input.kind,
    amount: input.amount,
    currency: input.kind === 'amount' ? currencyCode(input.currency!) : null,
    duration_kind: input.duration.kind,
    duration_months: input.duration.kind === 'months' ? input.duration.months : null,
    created_at: now,
    updated_at: now,
  };
  await codes.insertDiscount(tx, row);
  return row;
}

export interface CodeInput {
  partnership_id: string;
  code: string;
  discount_id?: string | null | undefined;
}

/** A code for one partnership; refused when the program has it already, in any case. */
export async function createCode(tx: Tx, programId: string, input: CodeInput, by: CodeRow['created_by'], now: number): Promise<CodeRow> {
  const code = input.code.trim();
  if (!CODE_PATTERN.test(code)) {
    throw fail('invalid_field', 'a code is 3 to 32 ASCII letters, digits, - or _', { field: 'code' });
  }
  const partnership = await partnerships.get(tx, programId, input.partnership_id);
  if (!partnership) throw fail('invalid_field', `no partnership ${input.partnership_id}`, { field: 'partnership_id' });
  if (input.discount_id) found(await codes.getDiscount(tx, programId, input.discount_id), 'discount', input.discount_id);
  const row: CodeRow = {
    id: uuidv7(),
    program_id: programId,
    partnership_id: partnership.id,
    partner_id: partnership.partner_id,
    discount_id: input.discount_id ?? null,
    code,
    code_norm: codeNorm(code),
    enabled: 1,
    created_by: by,
    created_at: now,
    updated_at: now,
  };
  if (await codes.codeByNorm(tx, programId, row.code_norm)) throw taken();
  try {
    await codes.insertCode(tx, row);
  } catch (err) {
    // Made by another request meanwhile.
    if (err instanceof UniqueViolation) throw taken();
    throw err;
  }
  await emit(tx, programId, 'discount_code.created', renderCode(row), now);
  return row;
}

const taken = () => fail('conflict', 'this code is taken in this program (codes are the same whatever their case)', { field: 'code' });

/** Disables or enables a code: a disabled one credits nothing. */
export async function setCodeEnabled(tx: Tx, programId: string, id: string, enabled: boolean, now: number): Promise<CodeRow> {
  const row = found(await codes.getCode(tx, programId, id), 'discount_code', id);
  if ((row.enabled === 1) === enabled) return row;
  await codes.setEnabled(tx, programId, id, enabled, now);
  const after = { ...row, enabled: enabled ? 1 : 0, updated_at: now };
  await emit(tx, programId, enabled ? 'discount_code.enabled' : 'discount_code.disabled', renderCode(after), now);
  return after;
}

/** A partnership a code credits, with its partner's addresses and the code's id. */
export type CodeCredit = NonNullable<Awaited<ReturnType<typeof codes.creditedByCode>>>;

/** The partnership a code credits now, if any: an enabled code of an accepted partnership. */
export async function creditedByCode(db: Queryable, programId: string, code: string | undefined): Promise<CodeCredit | undefined> {
  if (!code || !CODE_PATTERN.test(code.trim())) return undefined;
  const credited = await codes.creditedByCode(db, programId, codeNorm(code));
  return credited?.state === 'accepted' ? credited : undefined;
}

/** Tells the program's webhooks that a code credited a payment. */
export async function codeUsed(tx: Tx, programId: string, codeId: string, now: number): Promise<void> {
  const row = await codes.getCode(tx, programId, codeId);
  if (row) await emit(tx, programId, 'discount_code.used', renderCode(row), now);
}
