// Every event is checked with Stripe's own package before anything reads it: the
// signature over the raw body, by any of the program's secrets, and its age. Only then is
// the body parsed, with the depth limit every JSON body has.

import { fail } from '../../platform/errors.js';
import { parseJsonObject } from '../../platform/json.js';
import { obj, type Verified } from '../billing/facts.js';
import { stripeLibrary } from './client.js';

/** Stripe's own default: an event signed more than five minutes ago is refused. */
export const TOLERANCE_SECONDS = 300;

/** What Tally reads of any event: the envelope; `data.object` is read by objects.ts. */
interface StripeEvent {
  id: unknown;
  type: unknown;
  created: unknown;
  livemode: unknown;
  data?: { object?: unknown };
}

/**
 * The verified event, or 400 `invalid_signature` saying whether the signature matched no
 * secret or was too old; a verified body that is not a JSON object (or is nested too
 * deep) is 400 `malformed_json`. `now` is unix seconds: the server's clock, which tests move.
 */
export async function verifyEvent(payload: string, header: string | undefined, secrets: readonly string[], now: number): Promise<Verified> {
  if (!header) throw fail('invalid_signature', 'the request has no Stripe-Signature header');
  if (secrets.length === 0) throw fail('invalid_signature', 'no Stripe signing secret is set for this program yet');
  // constructEvent would parse with no depth limit: the HMAC alone here, the parse below.
  const signature = (await stripeLibrary()).webhooks.signature;
  if (!signature) throw new Error('the stripe package has no webhook signature check in this runtime');
  let stale = false;
  const verified = secrets.some((secret) => {
    try {
      return signature.verifyHeader(payload, header, secret, TOLERANCE_SECONDS, undefined, now * 1000);
    } catch (err) {
      // Only a match that is too old says "stale"; every other failure is a mismatch.
      if (err instanceof Error && err.message.startsWith('Timestamp outside the tolerance zone')) stale = true;
      return false;
    }
  });
  if (verified) return envelope(parseJsonObject(payload) as unknown as StripeEvent, now);
  throw fail(
    'invalid_signature',
    stale
      ? `the event was signed more than ${TOLERANCE_SECONDS} seconds ago: a replay, or a clock far off`
      : "the Stripe-Signature header matches none of this program's signing secrets",
  );
}

/** The envelope every event has; `typeof null` and an array's are 'object' too, so the object is checked as one. */
function envelope(event: StripeEvent, now: number): Verified {
  const object = obj(event.data?.object);
  if (typeof event.id !== 'string' || typeof event.type !== 'string' || !object) {
    throw fail('invalid_field', 'the event has no id, type or data.object');
  }
  return {
    id: event.id,
    type: event.type,
    created: Number.isSafeInteger(event.created) ? (event.created as number) : now,
    livemode: event.livemode === true,
    body: event as unknown as Record<string, unknown>,
  };
}
