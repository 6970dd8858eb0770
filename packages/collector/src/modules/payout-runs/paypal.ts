// PayPal's REST API as payout runs use it (docs/payouts.md, "PayPal"): an OAuth2 client
// credentials token, one Payouts batch per run, currency and attempt, the batch read back,
// and its webhooks verified by their certificate signature.

import { createVerify, X509Certificate } from 'node:crypto';
import { fail } from '../../platform/errors.js';
import { knownCurrency, minorFromDecimal } from '../../core/money.js';

export interface PaypalCredentials {
  clientId: string;
  clientSecret: string;
}

export interface PaypalItemInput {
  /** Our item's id, PayPal's sender_item_id: how its answers and events name our item. */
  senderItemId: string;
  receiver: string;
  /** Major units as a decimal string, as PayPal takes amounts. */
  value: string;
  currency: string;
  note: string;
}

/** One item of a batch as PayPal shows it. */
export interface PaypalItemStatus {
  payoutItemId: string;
  senderItemId: string;
  payoutBatchId: string;
  /** SUCCESS, FAILED, PENDING, UNCLAIMED, RETURNED, ONHOLD, BLOCKED, REFUNDED, REVERSED, DENIED, NEW. */
  status: string;
  error: string | null;
  /** PayPal's fee for the item (`payout_item_fee`), in minor units: the sender's, recorded apart. */
  fee: number | null;
}

interface PaypalError {
  name?: string;
  message?: string;
  details?: { issue?: string; value?: string }[];
  links?: { href?: string; rel?: string }[];
}

const RETRIES = 3;

/** Seconds to wait before the next attempt after a 429: its Retry-After, 1 without one, at most 5. */
function retryAfter(res: Response): number {
  const s = Number(res.headers.get('retry-after') ?? '1');
  return Math.min(Number.isFinite(s) && s >= 0 ? s : 1, 5);
}

export function paypalClient(baseUrl: string, creds: PaypalCredentials) {
  let token: string | undefined;

  /** A request, retried after PayPal's rate limit (429) a few times; any other answer is the caller's. */
  async function call(path: string, init: RequestInit): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(baseUrl + path, init);
      if (res.status !== 429 || attempt >= RETRIES) return res;
      await res.arrayBuffer();
      await new Promise((r) => setTimeout(r, retryAfter(res) * 1000));
    }
  }

  async function bearer(): Promise<string> {
    if (token) return token;
    const basic = Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64');
    const res = await call('/v1/oauth2/token', {
      method: 'POST',
      headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    const body = (await res.json().catch(() => ({}))) as { access_token?: string; error_description?: string };
    if (!res.ok || !body.access_token)
      throw fail('unavailable', `PayPal refused the credentials (${res.status}): ${body.error_description ?? 'no token'}`);
    token = body.access_token;
    return token;
  }

  async function authed(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = {
      ...(init.headers as Record<string, string>),
      Authorization: `Bearer ${await bearer()}`,
      'Content-Type': 'application/json',
    };
    return call(path, { ...init, headers });
  }

  return {
    /**
     * Sends a batch; resolves to its payout_batch_id. A sender_batch_id PayPal has seen
     * (this batch sent before, its answer lost) is "already sent": the id is read from the
     * error's link to the original batch.
     */
    async createBatch(senderBatchId: string, items: readonly PaypalItemInput[]): Promise<{ payoutBatchId: string; duplicate: boolean }> {
      const res = await authed('/v1/payments/payouts', {
        method: 'POST',
        body: JSON.stringify({
          sender_batch_header: { sender_batch_id: senderBatchId, recipient_type: 'EMAIL', email_subject: 'You have a payout' },
          items: items.map((i) => ({
            recipient_type: 'EMAIL',
            receiver: i.receiver,
            amount: { value: i.value, currency: i.currency },
            note: i.note,
            sender_item_id: i.senderItemId,
          })),
        }),
      });
      const body = (await res.json().catch(() => ({}))) as PaypalError & { batch_header?: { payout_batch_id?: string } };
      if (res.ok && body.batch_header?.payout_batch_id) return { payoutBatchId: body.batch_header.payout_batch_id, duplicate: false };
      const original = duplicateOf(res.status, body, senderBatchId);
      if (original) return { payoutBatchId: original, duplicate: true };
      throw fail('unavailable', `PayPal did not take the payout batch (${res.status} ${body.name ?? ''}): ${body.message ?? 'no message'}`);
    },

    /** The batch's items and their states. */
    async readBatch(payoutBatchId: string): Promise<PaypalItemStatus[]> {
      const res = await authed(`/v1/payments/payouts/${encodeURIComponent(payoutBatchId)}?page_size=1000`);
      const body = (await res.json().catch(() => ({}))) as { items?: RawItem[]; message?: string };
      if (!res.ok) throw fail('unavailable', `PayPal did not show payout batch ${payoutBatchId} (${res.status}): ${body.message ?? ''}`);
      return (body.items ?? []).map(itemStatus);
    },
  };
}

interface RawItem {
  payout_item_id?: string;
  payout_batch_id?: string;
  transaction_status?: string;
  payout_item?: { sender_item_id?: string };
  payout_item_fee?: { currency?: string; value?: string };
  errors?: { name?: string; message?: string };
}

/** A fee PayPal states in an unknown currency or shape is left unknown (null), never guessed. */
function feeOf(fee: RawItem['payout_item_fee']): number | null {
  if (!fee?.currency || typeof fee.value !== 'string') return null;
  const code = knownCurrency(fee.currency);
  return code === undefined ? null : (minorFromDecimal(fee.value, code) ?? null);
}

export function itemStatus(raw: RawItem): PaypalItemStatus {
  return {
    payoutItemId: raw.payout_item_id ?? '',
    senderItemId: raw.payout_item?.sender_item_id ?? '',
    payoutBatchId: raw.payout_batch_id ?? '',
    status: raw.transaction_status ?? '',
    error: raw.errors ? [raw.errors.name, raw.errors.message].filter(Boolean).join(': ') : null,
    fee: feeOf(raw.payout_item_fee),
  };
}

/** The original batch's id when PayPal refused a sender_batch_id it has seen: its answer links to that batch. */
function duplicateOf(status: number, body: PaypalError, senderBatchId: string): string | undefined {
  if (status !== 400) return undefined;
  // PayPal documents the error as naming the duplicate sender_batch_id and linking the original.
  const said = [body.name, body.message, ...(body.details ?? []).flatMap((d) => [d.issue, d.value])].join(' ');
  if (!said.includes(senderBatchId) && !/DUPLICATE|ALREADY/i.test(said)) return undefined;
  for (const link of body.links ?? []) {
    const m = /\/v1\/payments\/payouts\/([^/?#]+)/.exec(link.href ?? '');
    if (m) return decodeURIComponent(m[1]!);
  }
  return undefined;
}

/** Each webhook event type's item status, as the batch read would show it. */
export const EVENT_STATUS: Record<string, string> = {
  'PAYMENT.PAYOUTS-ITEM.SUCCEEDED': 'SUCCESS',
  'PAYMENT.PAYOUTS-ITEM.FAILED': 'FAILED',
  'PAYMENT.PAYOUTS-ITEM.UNCLAIMED': 'UNCLAIMED',
  'PAYMENT.PAYOUTS-ITEM.RETURNED': 'RETURNED',
  'PAYMENT.PAYOUTS-ITEM.BLOCKED': 'BLOCKED',
  'PAYMENT.PAYOUTS-ITEM.DENIED': 'DENIED',
  'PAYMENT.PAYOUTS-ITEM.REFUNDED': 'REFUNDED',
  'PAYMENT.PAYOUTS-ITEM.HELD': 'ONHOLD',
  'PAYMENT.PAYOUTS-ITEM.CANCELED': 'FAILED',
};

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (IEEE) of the bytes, unsigned, as PayPal's signed message has it; zlib.crc32 needs Node 22. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const certs = new Map<string, X509Certificate>();

/**
 * Verifies a webhook as PayPal documents: the transmission id, its time, our webhook id and
 * the body's CRC-32, joined by "|", signed SHA256withRSA with the certificate the headers name.
 * The certificate is fetched only from PayPal's API origin (PAYPAL_API_URL), never from
 * wherever a forged header points, and kept in memory. Throws invalid_signature.
 */
export async function verifyWebhook(
  apiUrl: string,
  webhookId: string,
  raw: string,
  header: (name: string) => string | undefined,
): Promise<void> {
  const id = header('paypal-transmission-id');
  const time = header('paypal-transmission-time');
  const sig = header('paypal-transmission-sig');
  const certUrl = header('paypal-cert-url');
  const algo = header('paypal-auth-algo');
  if (!id || !time || !sig || !certUrl) throw fail('invalid_signature', 'not a PayPal webhook: its transmission headers are missing');
  if (algo !== undefined && algo !== 'SHA256withRSA') throw fail('invalid_signature', `unsupported PayPal signature algorithm ${algo}`);
  let url: URL;
  try {
    url = new URL(certUrl);
  } catch {
    throw fail('invalid_signature', 'the PayPal certificate URL is not a URL');
  }
  if (url.origin !== new URL(apiUrl).origin)
    throw fail('invalid_signature', `the certificate URL is not under PayPal's API (${new URL(apiUrl).origin})`);
  let cert = certs.get(url.href);
  if (!cert) {
    const res = await fetch(url.href, { redirect: 'error' });
    if (!res.ok) throw fail('invalid_signature', `PayPal's certificate could not be fetched (${res.status})`);
    cert = new X509Certificate(await res.text());
    certs.set(url.href, cert);
  }
  const nowMs = Date.now();
  if (nowMs < Date.parse(cert.validFrom) || nowMs > Date.parse(cert.validTo)) {
    throw fail('invalid_signature', 'the PayPal certificate is not valid now');
  }
  const message = `${id}|${time}|${webhookId}|${crc32(Buffer.from(raw, 'utf8'))}`;
  const ok = createVerify('sha256').update(message).verify(cert.publicKey, Buffer.from(sig, 'base64'));
  if (!ok) throw fail('invalid_signature', 'the PayPal webhook signature does not verify');
}
