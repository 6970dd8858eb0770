// A run's payout to a partner's Wise recipient (https://docs.wise.com/api-reference): a quote
// in the payout's own currency (source = target, so the partner gets the amount whole and the
// fee is the program's), a transfer to the recipient under a customerTransactionId of the item
// and its attempt (Wise answers the same transfer for the same id, so a resend never pays
// twice), then its funding from the program's Wise balance. How it ends comes by webhook
// (transfers#state-change), signed by Wise with RSA-SHA256.

import { createHash, createVerify } from 'node:crypto';
import { fail } from '../../platform/errors.js';
import { majorUnits, minorFromDecimal } from '../../core/money.js';
import { obj, str, type Json } from '../billing/facts.js';
import { wiseCall, type WiseReply } from '../payout-methods/wise.js';
import { attemptOf, type ItemRow, type ItemState } from './model.js';

export interface WiseAccount {
  token: string;
  profile: string;
  apiUrl: string | undefined;
}

/** Wise refused the payout itself (a recipient it will not pay, a short balance): the item failed, with Wise's words. */
export type Refused = { failed: string };

/** The state of a transfer Wise has not paid out yet nor given up on: it waits for its funding. */
export const UNFUNDED = 'incoming_payment_waiting';

/**
 * The item's and attempt's customerTransactionId: a UUID (version 8, RFC 9562) from SHA-256,
 * so the same attempt always asks for the same transfer and a retry for a new one.
 */
export function customerTransactionId(item: Pick<ItemRow, 'id' | 'sender_batch_id'>): string {
  const b = createHash('sha256')
    .update(`tally-wise-${item.id}-${attemptOf(item)}`)
    .digest()
    .subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x80;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** An answer, or Wise's refusal of the payout; no answer, or a token refused, throws and leaves the item processing. */
function answered(res: WiseReply | undefined): { body: Json } | Refused {
  if (!res || res.status === 429 || res.status >= 500) {
    throw fail('unavailable', 'Wise did not answer; the payout stays processing: send the run again to resume it');
  }
  if (res.status === 401 || res.status === 403) {
    throw fail('conflict', "Wise refused the program's API token; the payout was not sent: set a valid one in the payout settings");
  }
  const json = obj(res.json) ?? {};
  if (res.ok) return { body: json };
  const first = obj(Array.isArray(json.errors) ? json.errors[0] : undefined);
  return { failed: str(first?.message) ?? str(first?.code) ?? `Wise answered ${res.status}` };
}

const call = (a: WiseAccount, method: 'GET' | 'POST', path: string, body?: unknown) =>
  wiseCall(a.token, a.apiUrl, method, path, body).then(answered);

/** POST /v3/profiles/{id}/quotes: the payout's amount as the target, and what Wise charges on top, in minor units. */
export async function quote(a: WiseAccount, item: ItemRow): Promise<{ quoteId: string; fee: number | null } | Refused> {
  const answer = await call(a, 'POST', `/v3/profiles/${a.profile}/quotes`, {
    sourceCurrency: item.currency,
    targetCurrency: item.currency,
    targetAmount: Number(majorUnits(item.amount, item.currency)),
    payOut: 'BALANCE',
  });
  if ('failed' in answer) return answer;
  const made = answer.body;
  const id = str(made.id);
  if (!id) throw fail('unavailable', 'Wise answered a quote without an id; the payout stays processing: send the run again');
  const options = Array.isArray(made.paymentOptions) ? made.paymentOptions.map(obj) : [];
  const balance = options.find((o) => o?.payIn === 'BALANCE' && o.disabled !== true);
  const total = obj(balance?.fee)?.total;
  // Not priced for the balance (or in more digits than the currency has): unknown, not zero.
  const fee = typeof total === 'number' ? (minorFromDecimal(String(total), item.currency) ?? null) : null;
  return { quoteId: id, fee };
}

/** POST /v1/transfers to the recipient; Wise gives the first transfer back for a customerTransactionId it has seen. */
export async function createTransfer(
  a: WiseAccount,
  item: ItemRow,
  quoteId: string,
): Promise<{ transferId: string; status: string } | Refused> {
  const made = await call(a, 'POST', '/v1/transfers', {
    targetAccount: Number(item.address),
    quoteUuid: quoteId,
    customerTransactionId: customerTransactionId(item),
    details: { reference: `Commission ${item.id.slice(-8)}` },
  });
  return 'failed' in made ? made : transferOf(made.body);
}

function transferOf(t: Json): { transferId: string; status: string } {
  if (typeof t.id !== 'number' && typeof t.id !== 'string')
    throw fail('unavailable', 'Wise answered a transfer without an id; send the run again');
  return { transferId: String(t.id), status: str(t.status) ?? UNFUNDED };
}

/** GET /v1/transfers/{id}: where the transfer is now. */
export async function transferState(a: WiseAccount, transferId: string): Promise<string> {
  const t = await call(a, 'GET', `/v1/transfers/${transferId}`);
  if ('failed' in t) throw fail('unavailable', `Wise would not show transfer ${transferId}: ${t.failed}`);
  return transferOf(t.body).status;
}

/** POST /v3/profiles/{id}/transfers/{transfer}/payments: funds it from the balance; REJECTED (a short balance) is Wise's refusal. */
export async function fund(a: WiseAccount, transferId: string): Promise<true | Refused> {
  const paid = await call(a, 'POST', `/v3/profiles/${a.profile}/transfers/${transferId}/payments`, { type: 'BALANCE' });
  if ('failed' in paid) return paid;
  if (paid.body.status === 'COMPLETED') return true;
  return { failed: str(paid.body.errorCode) ?? `funding ${str(paid.body.status) ?? 'refused'}` };
}

/** What a Wise transfer state makes of our item, from the state it is in; undefined: no move. */
export function wiseMove(state: string, from: ItemState): ItemState | undefined {
  if (state === 'outgoing_payment_sent') return from === 'processing' ? 'paid' : undefined;
  // The money came back to the program: before we counted it paid, it failed; after, it was returned.
  if (['funds_refunded', 'bounced_back', 'cancelled', 'charged_back'].includes(state)) {
    return from === 'processing' ? 'failed' : from === 'paid' ? 'returned' : undefined;
  }
  return undefined;
}

/** Throws invalid_signature unless X-Signature-SHA256 is Wise's RSA-SHA256 signature of the raw body. */
export function verifyWiseSignature(publicKey: string | undefined, raw: string, signature: string | undefined): void {
  if (!publicKey) throw fail('invalid_signature', "Wise's webhook public key is not configured (WISE_WEBHOOK_PUBLIC_KEY)");
  if (!signature) throw fail('invalid_signature', 'not a Wise webhook: it has no X-Signature-SHA256 header');
  if (!createVerify('RSA-SHA256').update(raw).verify(publicKey, signature, 'base64')) {
    throw fail('invalid_signature', "the X-Signature-SHA256 signature is not Wise's");
  }
}

export interface StateChange {
  transferId: string;
  state: string;
}

/** A transfers#state-change event's transfer and new state; undefined for other event types. */
export function stateChangeOf(raw: string): StateChange | undefined {
  let event: Json | undefined;
  try {
    event = obj(JSON.parse(raw));
  } catch {
    throw fail('invalid_field', 'a Wise event is JSON');
  }
  if (event?.event_type !== 'transfers#state-change') return undefined;
  const data = obj(event.data);
  const id = obj(data?.resource)?.id;
  const state = str(data?.current_state);
  if ((typeof id !== 'number' && typeof id !== 'string') || !state) {
    throw fail('invalid_field', 'a transfers#state-change event has data.resource.id and data.current_state');
  }
  return { transferId: String(id), state };
}
