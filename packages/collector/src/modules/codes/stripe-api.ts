// Codes made in Stripe (docs/codes.md): with a program's restricted API key, a discount
// becomes a Stripe coupon and each code a promotion code for it, through Stripe's own
// library. Stripe's refusals become the API's own errors, saying what Stripe said.

import { fail } from '../../platform/errors.js';
import type { DiscountRow } from './repo.js';
import { stripeClient, stripeErrors } from '../stripe/client.js';

export interface StripeCodes {
  /** The coupon a discount is in Stripe. */
  coupon(discount: DiscountRow): Promise<string>;
  /** A promotion code for the coupon; Stripe's id (promo_…). */
  promotionCode(couponId: string, code: string): Promise<string>;
  /** Turns a promotion code on or off: a disabled code is refused at Stripe's checkout too. */
  setActive(promotionCodeId: string, active: boolean): Promise<void>;
}

/** A restricted key (rk_) or a secret one (sk_), test or live mode. */
export const STRIPE_API_KEY = /^(rk|sk)_(test|live)_[A-Za-z0-9]{10,200}$/;

export function stripeCodes(apiKey: string, apiUrl: string | undefined): StripeCodes {
  // Made once, at the first call: the library loads then.
  let made: ReturnType<typeof stripeClient> | undefined;
  const stripe = () => (made ??= stripeClient(apiKey, apiUrl));
  const calling = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (err) {
      throw refused(what, err);
    }
  };
  return {
    coupon: (d) =>
      calling('the coupon', async () => {
        const off =
          d.kind === 'percent'
            ? { percent_off: Number(d.amount) / 100 }
            : { amount_off: Number(d.amount), currency: (d.currency ?? '').toLowerCase() };
        const duration =
          d.duration_kind === 'months'
            ? { duration: 'repeating' as const, duration_in_months: Number(d.duration_months) }
            : { duration: d.duration_kind };
        return (
          await (await stripe()).coupons.create({ name: d.name.slice(0, 40), ...off, ...duration, metadata: { tally_discount_id: d.id } })
        ).id;
      }),
    promotionCode: (couponId, code) =>
      calling(
        'the promotion code',
        async () => (await (await stripe()).promotionCodes.create({ promotion: { type: 'coupon', coupon: couponId }, code })).id,
      ),
    setActive: (id, active) =>
      calling('the promotion code', async () => {
        await (await stripe()).promotionCodes.update(id, { active });
      }),
  };
}

/** Stripe's refusal as the API's error: the owner reads what Stripe said. */
function refused(what: string, err: unknown): Error {
  const errors = stripeErrors();
  if (!errors || !(err instanceof errors.StripeError)) return err instanceof Error ? err : new Error(String(err));
  const said = `Stripe refused ${what}: ${err.message}`;
  if (err instanceof errors.StripeAuthenticationError || err instanceof errors.StripePermissionError) {
    return fail('invalid_field', `${said} (the program's Stripe API key needs write access to coupons and promotion codes)`, {
      field: 'stripe_api_key',
    });
  }
  if (err instanceof errors.StripeConnectionError || err instanceof errors.StripeAPIError || err instanceof errors.StripeRateLimitError) {
    return fail('unavailable', `Stripe did not answer for ${what}; nothing was made: try again`);
  }
  if (err.code === 'resource_already_exists' || /already exists/i.test(err.message)) return fail('conflict', said, { field: 'code' });
  return fail('invalid_field', said, { field: 'code' });
}
