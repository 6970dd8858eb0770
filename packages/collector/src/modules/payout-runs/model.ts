// A payout run and its items (docs/payouts.md, "Payout runs"): plain records.

/** draft: made, waiting for an owner's approval; approved: may be sent; sent: handed to the provider at least once. */
export type RunState = 'draft' | 'approved' | 'sent';
/** An item's life: pending → processing → paid | failed | returned; a retry takes failed back to pending. */
export type ItemState = 'pending' | 'processing' | 'paid' | 'failed' | 'returned';

export interface RunRow {
  id: string;
  program_id: string;
  provider: string;
  state: RunState;
  /** How many times the run was sent: part of each PayPal sender_batch_id, so a retry is a new batch and a resend the same one. */
  attempt: number;
  created_by: string;
  approved_by: string | null;
  created_at: number;
  approved_at: number | null;
  sent_at: number | null;
}

/** One partner's payout in one currency; its id is also its payout_batches row's, which holds its commissions. */
export interface ItemRow {
  id: string;
  run_id: string;
  program_id: string;
  partner_id: string;
  currency: string;
  /** Minor units: the sum of its commissions. */
  amount: number;
  method: string;
  address: string;
  state: ItemState;
  sender_batch_id: string | null;
  provider_batch_id: string | null;
  provider_item_id: string | null;
  /** Why it failed or came back, as the provider said. */
  reason: string | null;
  /** What the provider charges the program for it (Wise's quote), in the item's minor units; never taken from `amount`. */
  provider_fee: number | null;
  /** Minor units the provider took back after paying it (Stripe's partial reversals); the whole amount once returned by a reversal. */
  amount_reversed: number;
  /** When its Wise transfer was funded from the program's balance; null until then (and for other providers). */
  funded_at: number | null;
  state_set_at: number;
  created_at: number;
}

/** The attempt an item was last sent in: the end of its sender_batch_id (`<run>-<currency>-<attempt>`). */
export const attemptOf = (item: Pick<ItemRow, 'sender_batch_id'>): string =>
  item.sender_batch_id?.slice(item.sender_batch_id.lastIndexOf('-') + 1) ?? '0';

/** One reversal of a paid item's transfer, recorded once by the provider's id, and the commission that owes its amount again. */
export interface ReversalRow {
  item_id: string;
  reversal_id: string;
  program_id: string;
  amount: number;
  commission_id: string | null;
  created_at: number;
}

export interface PaypalAccountRow {
  program_id: string;
  client_id: string;
  client_secret: string;
  webhook_id: string | null;
  updated_at: number;
}
