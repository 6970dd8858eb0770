// Promotion codes (docs/codes.md): a discount belongs to a partner group or to the program,
// and each partner may have codes for it. A code is unique in its program whatever its case
// and credits its partner's sales where no link did, while its partnership is accepted and
// it is enabled.

import { uuidv7 } from '../../core/ids.js';
import { currencyCode } from '../../core/money.js';
import type { Db, Queryable, Tx } from '../../platform/db/db.js';
import { UniqueViolation } from '../../platform/db/db.js';
import { remembered } from '../../platform/db/remembered.js';
import { ServiceError, fail, found } from '../../platform/errors.js';
import { findPartnership } from '../partnerships/service.js';
import type { ProgramRow } from '../programs/model.js';
import { findGroup } from '../rewards/service.js';
import { emit } from '../../events/emit.js';
import { renderCode } from './present.js';
import { type StripeCodes, stripeCodes } from './stripe-api.js';
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
  if (input.group_id) found(await findGroup(tx, programId, input.group_id), 'group', input.group_id);
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
    stripe_coupon_id: null,
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
  /** The Stripe promotion code (promo_…) it is, when the program's checkout is Stripe's. */
  stripe_promotion_code_id?: string | null | undefined;
}

/** A code for one partnership; refused when the program has it already, in any case. */
export async function createCode(tx: Tx, programId: string, input: CodeInput, by: CodeRow['created_by'], now: number): Promise<CodeRow> {
  const code = input.code.trim();
  if (!CODE_PATTERN.test(code)) {
    throw fail('invalid_field', 'a code is 3 to 32 ASCII letters, digits, - or _', { field: 'code' });
  }
  const partnership = await findPartnership(tx, programId, input.partnership_id);
  if (!partnership) throw fail('invalid_field', `no partnership ${input.partnership_id}`, { field: 'partnership_id' });
  if (input.discount_id) found(await codes.getDiscount(tx, programId, input.discount_id), 'discount', input.discount_id);
  // A partner's own code, and one made on acceptance, give the discount of the partner's group.
  const discountId =
    input.discount_id ?? (by === 'owner' ? null : ((await discountOfGroup(tx, programId, partnership.group_id))?.id ?? null));
  const row: CodeRow = {
    id: uuidv7(),
    program_id: programId,
    partnership_id: partnership.id,
    partner_id: partnership.partner_id,
    discount_id: discountId,
    code,
    code_norm: codeNorm(code),
    enabled: 1,
    created_by: by,
    stripe_promotion_code_id: input.stripe_promotion_code_id ?? null,
    created_at: now,
    updated_at: now,
  };
  if (await codes.codeByNorm(tx, programId, row.code_norm)) throw taken();
  if (row.stripe_promotion_code_id && (await codes.creditedByStripePromotion(tx, programId, [row.stripe_promotion_code_id]))) {
    throw fail('conflict', 'another code of this program is this Stripe promotion code', { field: 'stripe_promotion_code_id' });
  }
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

const taken = () =>
  fail('conflict', 'this code is taken in this program (codes are the same whatever their case): choose another', { field: 'code' });

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

/** Links a code to the Stripe promotion code it is (or unlinks it, with null). */
export async function linkStripePromotion(tx: Tx, programId: string, id: string, promoId: string | null, now: number): Promise<CodeRow> {
  const row = found(await codes.getCode(tx, programId, id), 'discount_code', id);
  try {
    await codes.setStripePromotion(tx, programId, id, promoId, now);
  } catch (err) {
    if (err instanceof UniqueViolation)
      throw fail('conflict', 'another code of this program is this Stripe promotion code', { field: 'stripe_promotion_code_id' });
    throw err;
  }
  return { ...row, stripe_promotion_code_id: promoId, updated_at: now };
}

/** The partnership the Stripe promotion codes of an event credit: an enabled code of an accepted partnership. */
export async function creditedByStripe(
  db: Queryable,
  programId: string,
  promoIds: readonly string[],
): Promise<(CodeCredit & { code: string }) | undefined> {
  const credited = await codes.creditedByStripePromotion(db, programId, promoIds);
  return credited?.state === 'accepted' ? credited : undefined;
}

/** The partnership a code credits now, if any: an enabled code of an accepted partnership. */
export async function creditedByCode(db: Queryable, programId: string, code: string | undefined): Promise<CodeCredit | undefined> {
  if (!code || !CODE_PATTERN.test(code.trim())) return undefined;
  const credited = await codes.creditedByCode(db, programId, codeNorm(code));
  return credited?.state === 'accepted' ? credited : undefined;
}

/**
 * The partnership a billing platform's payment credits by its codes: a Stripe promotion
 * code by its id first, then a code typed at checkout by its name.
 */
export async function creditedByCheckout(
  db: Queryable,
  programId: string,
  used: { promotionCodes?: readonly string[] | undefined; codes?: readonly string[] | undefined },
): Promise<(CodeCredit & { code: string }) | undefined> {
  const promoted = await creditedByStripe(db, programId, used.promotionCodes ?? []);
  if (promoted) return promoted;
  for (const code of used.codes ?? []) {
    const credited = await creditedByCode(db, programId, code);
    if (credited) return { ...credited, code: code.trim() };
  }
  return undefined;
}

/**
 * The discount a partner's link brings, for the page to show ("20 % off, thanks to Maya"):
 * the newest of their group's, else the newest of the program's own. Discounts are
 * settings, kept in memory: a click pays no query for them.
 */
export async function discountOfGroup(db: Queryable, programId: string, groupId: string | null): Promise<DiscountRow | undefined> {
  const all = await remembered(db, `discounts:${programId}`, () => codes.discountsOf(db, programId));
  return all.find((d) => groupId !== null && d.group_id === groupId) ?? all.find((d) => d.group_id === null);
}

/** Tells the program's webhooks that a code credited a payment. */
export async function codeUsed(tx: Tx, programId: string, codeId: string, now: number): Promise<void> {
  const row = await codes.getCode(tx, programId, codeId);
  if (row) await emit(tx, programId, 'discount_code.used', renderCode(row), now);
}

/** Codes a partner may make for one partnership of theirs. */
export const PARTNER_CODES_MAX = 5;

/**
 * A code a partner makes in the portal, within the program's rules: partners' own codes
 * allowed, the prefix first, at most the length, a few per partnership.
 */
export async function createPartnerCode(tx: Tx, program: ProgramRow, partnershipId: string, code: string, now: number): Promise<CodeRow> {
  if (program.partner_codes !== 1) throw fail('forbidden', 'this program makes its codes itself: ask the company for one');
  const wanted = code.trim();
  if (program.code_prefix && !codeNorm(wanted).startsWith(codeNorm(program.code_prefix))) {
    throw fail('invalid_field', `a code of this program begins with ${program.code_prefix}`, { field: 'code' });
  }
  if (wanted.length > program.code_max_length) {
    throw fail('invalid_field', `a code of this program is at most ${program.code_max_length} characters`, { field: 'code' });
  }
  // Counted and written under one lock, or parallel requests each count four and make a sixth.
  await tx.lock(`partner-codes:${partnershipId}`);
  const mine = (await codes.codesOf(tx, program.id, partnershipId)).filter((c) => c.created_by === 'partner');
  if (mine.length >= PARTNER_CODES_MAX) throw fail('conflict', `a partnership has at most ${PARTNER_CODES_MAX} codes of its own making`);
  return createCode(tx, program.id, { partnership_id: partnershipId, code: wanted }, 'partner', now);
}

/**
 * The code a partnership gets when it is accepted, where the program gives one: its key in
 * capitals after the prefix (MAYA, or PRE-MAYA), then -2, -3… until one is free. Once: a
 * partnership accepted again, or with a code already, gets none.
 */
export async function autoCode(
  tx: Tx,
  program: ProgramRow,
  partnership: { id: string; key: string },
  now: number,
): Promise<CodeRow | undefined> {
  if (program.auto_codes !== 1) return undefined;
  if ((await codes.codesOf(tx, program.id, partnership.id)).length > 0) return undefined;
  const base = `${program.code_prefix}${partnership.key.replace(/[^A-Za-z0-9_-]/g, '')}`.toUpperCase().slice(0, 28);
  for (let n = 1; n < 100; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (CODE_PATTERN.test(candidate) && !(await codes.codeByNorm(tx, program.id, codeNorm(candidate)))) {
      return createCode(tx, program.id, { partnership_id: partnership.id, code: candidate }, 'auto', now);
    }
  }
  return undefined;
}

/**
 * A code the owner makes. With the program's Stripe API key and a discount, it is made in
 * Stripe first (the discount's coupon once, then the promotion code), outside any database
 * transaction, and recorded with Stripe's id; a refusal by Stripe records nothing. Made
 * meanwhile by another request, the promotion code is turned off again.
 */
export async function makeCode(
  db: Db,
  program: ProgramRow,
  input: CodeInput,
  now: number,
  stripeApiUrl: string | undefined,
): Promise<CodeRow> {
  const inStripe = program.stripe_api_key && input.discount_id && !input.stripe_promotion_code_id;
  if (!inStripe) return db.transaction((tx) => createCode(tx, program.id, input, 'owner', now));
  // Everything Tally would refuse is refused before Stripe is asked.
  if (!CODE_PATTERN.test(input.code.trim()))
    throw fail('invalid_field', 'a code is 3 to 32 ASCII letters, digits, - or _', { field: 'code' });
  if (await codes.codeByNorm(db, program.id, codeNorm(input.code))) throw taken();
  if (!(await findPartnership(db, program.id, input.partnership_id)))
    throw fail('invalid_field', `no partnership ${input.partnership_id}`, { field: 'partnership_id' });
  const discount = found(await codes.getDiscount(db, program.id, input.discount_id!), 'discount', input.discount_id!);
  const stripe = stripeCodes(program.stripe_api_key!, stripeApiUrl);
  const promo = await stripe.promotionCode(await couponOf(db, stripe, discount, now), input.code.trim());
  try {
    return await db.transaction((tx) => createCode(tx, program.id, { ...input, stripe_promotion_code_id: promo }, 'owner', now));
  } catch (err) {
    await stripe.setActive(promo, false).catch(() => undefined);
    throw err;
  }
}

/** The discount's coupon in Stripe, made there once and kept. */
async function couponOf(db: Db, stripe: StripeCodes, discount: DiscountRow, now: number): Promise<string> {
  if (discount.stripe_coupon_id) return discount.stripe_coupon_id;
  const made = await stripe.coupon(discount);
  await db.transaction((tx) => codes.setStripeCoupon(tx, discount.program_id, discount.id, made, now));
  return made;
}

/**
 * The codes of a partnership that were made without Stripe (a partner's own, one made on
 * acceptance) get their promotion code in Stripe once their change committed, where the
 * program has a key and the code a discount. Stripe refusing one leaves it as it is: it
 * credits through Tally's own routes, and the owner can link a promotion code by hand.
 */
export async function promoteCodes(
  db: Db,
  program: ProgramRow,
  partnershipId: string,
  now: number,
  stripeApiUrl: string | undefined,
): Promise<void> {
  if (!program.stripe_api_key) return;
  const stripe = stripeCodes(program.stripe_api_key, stripeApiUrl);
  for (const code of await codes.codesOf(db, program.id, partnershipId)) {
    if (code.enabled !== 1 || !code.discount_id || code.stripe_promotion_code_id) continue;
    const discount = await codes.getDiscount(db, program.id, code.discount_id);
    if (!discount) continue;
    try {
      const promo = await stripe.promotionCode(await couponOf(db, stripe, discount, now), code.code);
      await db.transaction((tx) => codes.setStripePromotion(tx, program.id, code.id, promo, now));
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
    }
  }
}

/** Disables or enables a code, in Stripe first when it is a Stripe promotion code of a program with a key. */
export async function switchCode(
  db: Db,
  program: ProgramRow,
  id: string,
  enabled: boolean,
  now: number,
  stripeApiUrl: string | undefined,
): Promise<CodeRow> {
  const row = found(await codes.getCode(db, program.id, id), 'discount_code', id);
  if (program.stripe_api_key && row.stripe_promotion_code_id && (row.enabled === 1) !== enabled) {
    await stripeCodes(program.stripe_api_key, stripeApiUrl).setActive(row.stripe_promotion_code_id, enabled);
  }
  return db.transaction((tx) => setCodeEnabled(tx, program.id, id, enabled, now));
}

/**
 * A partnership declined: each of its enabled codes is disabled, and turned off in Stripe
 * too when it is a promotion code of a program with a key. After the partnership's own
 * change committed: Stripe not answering does not undo it, nor fail its answer (the code
 * credits nothing in Tally anyway; the owner can turn it off in Stripe).
 */
export async function codesEnded(
  db: Db,
  program: ProgramRow,
  partnershipId: string,
  now: number,
  stripeApiUrl: string | undefined,
): Promise<void> {
  const stripe = program.stripe_api_key ? stripeCodes(program.stripe_api_key, stripeApiUrl) : undefined;
  for (const code of await codes.codesOf(db, program.id, partnershipId)) {
    if (code.enabled !== 1) continue;
    if (stripe && code.stripe_promotion_code_id) await stripe.setActive(code.stripe_promotion_code_id, false).catch(() => undefined);
    await db.transaction((tx) => setCodeEnabled(tx, program.id, code.id, false, now));
  }
}
