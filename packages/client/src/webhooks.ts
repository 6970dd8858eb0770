// Verifying what Tally's webhooks send (docs/webhooks.md): the Standard Webhooks scheme,
// an HMAC-SHA256 of `webhook-id.webhook-timestamp.body` keyed by the endpoint's secret
// (`whsec_` + base64), each signature `v1,<base64>`, several in the header during a rotation.
// Checked with node:crypto, in constant time, with every secret the receiver holds.

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { paths } from './api.js';

type EndpointBody = NonNullable<paths['/v1/webhook_endpoints']['post']['requestBody']>['content']['application/json'];
/** Every event type an endpoint can receive, and the test event. */
export type WebhookEventType = NonNullable<EndpointBody['event_types']>[number] | 'webhook.test';

/** The body Tally posts: the event's id (the same on every attempt), its type, when, and the record as the API shows it. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  /** ISO 8601, the event's time. */
  timestamp: string;
  data: { id: string; type: string; attributes: Record<string, unknown>; relationships?: Record<string, unknown> };
}

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

/** Headers as Node's `req.headers` gives them, or a fetch `Headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far the timestamp may be from now, either way: 300 seconds, as the scheme's own libraries take. */
  toleranceSeconds?: number;
  /** Now, in Unix seconds. */
  now?: number;
}

const header = (headers: WebhookHeaders, name: string): string | undefined => {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(' ') : value;
};

function keyOf(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  if (key.length === 0) throw new WebhookVerificationError('the webhook secret is empty');
  return key;
}

/**
 * The event a webhook carries, once its signature is one of `secret`'s (or, during a
 * rotation, of any of the secrets given) and its timestamp within the tolerance; else a
 * WebhookVerificationError. Pass the raw body, before any JSON parser reads it.
 */
export function verifyWebhook(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): WebhookEvent {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d{1,15}$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not Unix seconds');
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(now - Number(timestamp)) > tolerance) {
    throw new WebhookVerificationError(`webhook-timestamp is more than ${tolerance} s from now`);
  }
  const raw = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const given = signatures
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => Buffer.from(s.slice(3), 'base64'));
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new WebhookVerificationError('no webhook secret given');
  const matches = secrets.some((s) => {
    const expected = createHmac('sha256', keyOf(s)).update(`${id}.${timestamp}.`).update(raw).digest();
    // Every signature is compared, whichever matches, so the time taken says nothing of which.
    return given.reduce((found, g) => (g.length === expected.length && timingSafeEqual(g, expected)) || found, false);
  });
  if (!matches) throw new WebhookVerificationError('no signature matches the secret');
  return JSON.parse(raw.toString('utf8')) as WebhookEvent;
}
