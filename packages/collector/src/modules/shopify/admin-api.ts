// Shopify's GraphQL Admin API, for the one thing Tally makes there: a partner's code as an
// amount-off code discount (discountCodeBasicCreate), with the shop's Admin API access token
// (docs/shopify.md). GraphQL rather than REST price rules, which Shopify deprecated for new
// apps (decision 0400); plain fetch, as the one mutation needs no client library.

import { majorUnits } from '../../core/money.js';
import { fail } from '../../platform/errors.js';

/** The version every call names: Shopify keeps each for a year at least. */
export const SHOPIFY_API_VERSION = '2026-01';
const TIMEOUT_MS = 10_000;

/** A shop's own address, as its admin shows it. */
export const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]{0,60}\.myshopify\.com$/;

/** What the code gives, as Tally's discount says it (modules/codes). */
export interface DiscountTerms {
  name: string;
  kind: 'percent' | 'amount';
  /** Basis points off, or minor units of `currency` off. */
  amount: number;
  currency: string | null;
  duration_kind: 'once' | 'months' | 'forever';
  duration_months: number | null;
}

const MUTATION = `mutation TallyCode($basicCodeDiscount: DiscountCodeBasicInput!) {
  discountCodeBasicCreate(basicCodeDiscount: $basicCodeDiscount) {
    codeDiscountNode { id }
    userErrors { field code message }
  }
}`;

/** The mutation's input: the whole order's items, every buyer; a subscription's cycles as the discount's duration. */
function input(terms: DiscountTerms, code: string, now: number) {
  const value =
    terms.kind === 'percent'
      ? { percentage: terms.amount / 10_000 }
      : { discountAmount: { amount: majorUnits(terms.amount, terms.currency ?? ''), appliesOnEachItem: false } };
  const cycles = terms.duration_kind === 'once' ? 1 : terms.duration_kind === 'months' ? (terms.duration_months ?? 1) : 0;
  return {
    title: `${terms.name} (${code})`.slice(0, 255),
    code,
    startsAt: new Date(now * 1000).toISOString(),
    context: { all: 'ALL' },
    customerGets: { value, items: { all: true } },
    recurringCycleLimit: cycles,
  };
}

interface Answer {
  data?: { discountCodeBasicCreate?: { codeDiscountNode?: { id?: string } | null; userErrors?: { code?: string; message?: string }[] } };
  errors?: unknown;
}

/**
 * Makes `code` a code discount in the shop; its id (gid://shopify/DiscountCodeNode/…), or
 * `exists` when the shop has the code already (made before, or by hand: it credits the same
 * partner, by its text). A token refused, Shopify's own refusal and no answer are the API's
 * errors, saying what Shopify said.
 */
export async function createShopifyCode(
  shop: string,
  token: string,
  apiUrl: string | undefined,
  terms: DiscountTerms,
  code: string,
  now: number,
): Promise<string | 'exists'> {
  const url = new URL(`/admin/api/${SHOPIFY_API_VERSION}/graphql.json`, apiUrl ?? `https://${shop}`);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-shopify-access-token': token },
      body: JSON.stringify({ query: MUTATION, variables: { basicCodeDiscount: input(terms, code, now) } }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw fail('unavailable', "Shopify's Admin API did not answer for the code; nothing was made there: try again");
  }
  if (res.status === 401 || res.status === 403) {
    throw fail('invalid_field', `Shopify refused the Admin API access token (${res.status}): it needs the write_discounts scope`, {
      field: 'credential',
    });
  }
  if (res.status === 429 || res.status >= 500 || !res.ok) {
    throw fail('unavailable', `Shopify's Admin API answered ${res.status} for the code; nothing was made there: try again`);
  }
  const body = (await res.json().catch(() => ({}))) as Answer;
  const made = body.data?.discountCodeBasicCreate;
  const errors = made?.userErrors ?? [];
  if (errors.some((e) => e.code === 'TAKEN')) return 'exists';
  if (errors.length > 0 || !made?.codeDiscountNode?.id) {
    const said =
      errors
        .map((e) => e.message)
        .filter(Boolean)
        .join('; ') || 'no discount in its answer';
    throw fail('invalid_field', `Shopify refused the code: ${said}`, { field: 'code' });
  }
  return made.codeDiscountNode.id;
}
