// Partners' codes made in the program's Shopify shop too (docs/shopify.md, decision 0400),
// where the owner set the Shopify credential (a shop and an Admin API token) and the code
// has a discount. Outside any transaction: no lock is held while Shopify answers. Nothing
// is stored of it: orders name their codes by text, and Shopify's TAKEN says it is there.

import { fail, ServiceError } from '../platform/errors.js';
import type { Db } from '../platform/db/db.js';
import * as billing from '../modules/billing/repo.js';
import * as codes from '../modules/codes/repo.js';
import { CODE_PATTERN, codeNorm } from '../modules/codes/service.js';
import { createShopifyCode } from '../modules/shopify/admin-api.js';

async function shopOf(db: Db, programId: string) {
  const c = await billing.credential(db, programId, 'shopify');
  return c?.shop && c.access_token ? { shop: c.shop, token: c.access_token } : undefined;
}

/**
 * An owner's code, made in the shop before Tally records it, as Stripe's: what Tally would
 * refuse is refused first, and Shopify's refusal (a token refused, its userErrors) records nothing.
 */
export async function ownerCodeInShopify(
  db: Db,
  programId: string,
  input: { code: string; discount_id?: string | null | undefined },
  now: number,
  apiUrl: string | undefined,
): Promise<void> {
  const shop = input.discount_id ? await shopOf(db, programId) : undefined;
  if (!shop || !input.discount_id) return;
  const code = input.code.trim();
  if (!CODE_PATTERN.test(code) || (await codes.codeByNorm(db, programId, codeNorm(code)))) return;
  const discount = await codes.getDiscount(db, programId, input.discount_id);
  if (!discount) throw fail('not_found', `no discount ${input.discount_id}`);
  await createShopifyCode(shop.shop, shop.token, apiUrl, discount, code, now);
}

/**
 * A partnership's codes with a discount (a partner's own, one made on acceptance), made in
 * the shop once their change committed. Shopify refusing one leaves it as it is: it credits
 * by its text, and the owner can make it in Shopify's Discounts by hand.
 */
export async function partnerCodesInShopify(
  db: Db,
  programId: string,
  partnershipId: string,
  now: number,
  apiUrl: string | undefined,
): Promise<void> {
  const shop = await shopOf(db, programId);
  if (!shop) return;
  for (const code of await codes.codesOf(db, programId, partnershipId)) {
    const discount = code.enabled === 1 && code.discount_id ? await codes.getDiscount(db, programId, code.discount_id) : undefined;
    if (!discount) continue;
    try {
      await createShopifyCode(shop.shop, shop.token, apiUrl, discount, code.code, now);
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
    }
  }
}
