// Every event is checked with Stripe's own package before anything reads it: the
// signature over the raw body, by any of the program's secrets, and its age.

import Stripe from 'stripe';
import { fail } from '../../errors.js';

/** Stripe's own default: an event signed more than five minutes ago is refused. */
export const TOLERANCE_SECONDS = 300;

/** What Tally reads of any event: the envelope; `data.object` is read by objects.ts. */
export interface StripeEvent {
  id: string;
  type: string;
  created: number;
  livemode: boolean;
  data: { object: Record<string, unknown> };
}

/**
 * The verified event, or 400 `invalid_signature` saying whether the signature matched no
 * secret or was too old. `now` is unix seconds: the server's clock, which tests move.
 */
export function verifyEvent(payload: string, header: string | undefined, secrets: readonly string[], now: number): StripeEvent {
  if (!header) throw fail('invalid_signature', 'the request has no Stripe-Signature header');
  if (secrets.length === 0) throw fail('invalid_signature', 'no Stripe signing secret is set for this program yet');
  let stale = false;
  for (const secret of secrets) {
    try {
      const event = Stripe.webhooks.constructEvent(payload, header, secret, TOLERANCE_SECONDS, undefined, now * 1000);
      return event as unknown as StripeEvent;
    } catch (err) {
      // Only a match that is too old says "stale"; every other failure is a mismatch.
      if (err instanceof Error && err.message.startsWith('Timestamp outside the tolerance zone')) stale = true;
    }
  }
  throw fail(
    'invalid_signature',
    stale
      ? `the event was signed more than ${TOLERANCE_SECONDS} seconds ago: a replay, or a clock far off`
      : "the Stripe-Signature header matches none of this program's signing secrets",
  );
}
