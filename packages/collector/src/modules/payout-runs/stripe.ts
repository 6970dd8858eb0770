// A run's payout to a partner's Stripe Connect account: one Transfer from the program's
// balance (https://docs.stripe.com/api/transfers/create), which Stripe takes or refuses at
// once. The Idempotency-Key is the item's and its attempt's, so a resend whose answer was
// lost gets the first answer back instead of a second transfer.

import { fail } from '../../platform/errors.js';
import { stripeClient, stripeErrors } from '../stripe/client.js';
import { attemptOf, type ItemRow } from './model.js';

export type TransferAnswer = { paid: true; transferId: string } | { paid: false; reason: string };

/** The item's and its attempt's: a resend of the attempt is the same transfer, a retry a new one. */
export const transferKey = (item: Pick<ItemRow, 'id' | 'sender_batch_id'>): string => `tally-transfer-${item.id}-${attemptOf(item)}`;

/**
 * Sends the item as a Transfer. Stripe's refusal of the transfer itself (4xx: an account
 * that cannot take transfers, a short balance) is an answer: the item failed. A key Stripe
 * refuses, or no answer, throws: the item stays processing and a resend asks again.
 */
export async function transfer(apiKey: string, apiUrl: string | undefined, item: ItemRow): Promise<TransferAnswer> {
  try {
    const made = await (await stripeClient(apiKey, apiUrl)).transfers.create(
      {
        amount: item.amount,
        currency: item.currency.toLowerCase(),
        destination: item.address,
        transfer_group: item.run_id,
        description: `Commission payout ${item.id}`,
        metadata: { tally_payout_item_id: item.id },
      },
      { idempotencyKey: transferKey(item) },
    );
    return { paid: true, transferId: made.id };
  } catch (err) {
    const errors = stripeErrors();
    if (errors && (err instanceof errors.StripeInvalidRequestError || err instanceof errors.StripeCardError)) {
      return { paid: false, reason: err.code ? `${err.code}: ${err.message}` : err.message };
    }
    if (errors && (err instanceof errors.StripeAuthenticationError || err instanceof errors.StripePermissionError))
      throw fail('conflict', `Stripe refused the program's API key: ${err.message}; the payout was not sent`);
    throw fail('unavailable', 'Stripe did not answer; the payout stays processing: send the run again to resume it');
  }
}
