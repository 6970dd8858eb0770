// A program's webhook endpoints (docs/webhooks.md): where its events go, which ones, and
// the secret that signs them, shown once. A URL is checked when saved (https, and no
// address of this machine or its networks) and again by every send.

import { randomBytes } from 'node:crypto';
import { fail, found } from '../../platform/errors.js';
import { checkHost, checkUrlForm, RefusedUrl, type OutboundPolicy } from '../../platform/outbound.js';
import type { Db } from '../../platform/db/db.js';
import * as events from '../../events/repo.js';
import type { EventRow } from '../../events/repo.js';
import * as webhooks from './repo.js';
import type { DeliveryRow, EndpointRow } from './repo.js';
import { newDelivery } from './events.js';
import { EVENT_TYPES, type EventType } from '../../events/types.js';
import { uuidv7 } from '../../core/ids.js';

/** How long the secret before a rotation still signs, beside the new one. */
export const ROTATION_OVERLAP_SECONDS = 86_400;
/** A program's endpoints at most: each event is written once per endpoint that wants it. */
export const MAX_ENDPOINTS = 20;
/** The type of the event the "send test event" button sends, to that endpoint only. */
export const TEST_EVENT = 'webhook.test';

export interface EndpointInput {
  url: string;
  event_types?: readonly EventType[] | undefined;
  description?: string | undefined;
  enabled?: boolean | undefined;
}

/** A secret as Standard Webhooks writes them: whsec_ and 24 random bytes in base64. */
export const newSigningSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** What the API and the dashboard show of a secret: enough to tell two apart. */
export const signingSecretHint = (secret: string): string => `whsec_…${secret.slice(-4)}`;

/** The URL, if it may be saved: its form, and every address its host resolves to now. */
async function checkedUrl(raw: string, policy: OutboundPolicy): Promise<string> {
  try {
    const url = checkUrlForm(raw.trim(), policy);
    // Not resolving yet is fine: the DNS may come later, and every send checks again.
    await checkHost(url, policy, true);
    return url.href;
  } catch (err) {
    if (err instanceof RefusedUrl) throw fail('invalid_field', `the webhook URL ${err.message}`, { field: 'url' });
    throw err;
  }
}

function typesOf(types: readonly EventType[] | undefined): string {
  return JSON.stringify([...new Set(types ?? [])].sort());
}

export async function getEndpoint(db: Db, programId: string, id: string): Promise<EndpointRow> {
  return found(await webhooks.getEndpoint(db, programId, id), 'webhook endpoint', id);
}

export async function createEndpoint(
  db: Db,
  programId: string,
  input: EndpointInput,
  policy: OutboundPolicy,
  now: number,
): Promise<EndpointRow> {
  const url = await checkedUrl(input.url, policy);
  const row: EndpointRow = {
    id: uuidv7(),
    program_id: programId,
    url,
    description: input.description?.trim() ?? '',
    event_types: typesOf(input.event_types),
    enabled: input.enabled === false ? 0 : 1,
    disabled_reason: null,
    secret: newSigningSecret(),
    previous_secret: null,
    previous_secret_until: null,
    failing_since: null,
    created_at: now,
    updated_at: now,
  };
  // The row is the transaction's result: the audit entry (api/audited.ts) takes its id.
  return db.transaction(async (tx) => {
    await tx.lock(`webhook_endpoints:${programId}`);
    const { rows } = await webhooks.listEndpoints(tx, programId, [], { page: 1, perPage: MAX_ENDPOINTS });
    if (rows.length >= MAX_ENDPOINTS) throw fail('conflict', `a program has at most ${MAX_ENDPOINTS} webhook endpoints: remove one first`);
    await webhooks.insertEndpoint(tx, row);
    return row;
  });
}

export async function updateEndpoint(
  db: Db,
  programId: string,
  id: string,
  changes: Partial<EndpointInput>,
  policy: OutboundPolicy,
  now: number,
): Promise<EndpointRow> {
  const url = changes.url === undefined ? undefined : await checkedUrl(changes.url, policy);
  return db.transaction(async (tx) => {
    const row = found(await webhooks.getEndpoint(tx, programId, id), 'webhook endpoint', id);
    const next: EndpointRow = { ...row, updated_at: now };
    if (url !== undefined) next.url = url;
    if (changes.description !== undefined) next.description = changes.description.trim();
    if (changes.event_types !== undefined) next.event_types = typesOf(changes.event_types);
    if (changes.enabled !== undefined) {
      next.enabled = changes.enabled ? 1 : 0;
      // Enabled again by its owner: a fresh start, without the old reason or run of failures.
      if (changes.enabled) Object.assign(next, { disabled_reason: null, failing_since: null });
    }
    const { url: u, description, event_types, enabled, disabled_reason, failing_since, updated_at } = next;
    await webhooks.updateEndpoint(tx, programId, id, {
      url: u,
      description,
      event_types,
      enabled,
      disabled_reason,
      failing_since,
      updated_at,
    });
    if (row.enabled === 1 && next.enabled === 0) await webhooks.failPending(tx, id, 'the endpoint was disabled by its owner', now);
    return next;
  });
}

/** A new secret, shown once; the old one signs beside it for ROTATION_OVERLAP_SECONDS. */
export async function rotateSecret(db: Db, programId: string, id: string, now: number): Promise<EndpointRow> {
  return db.transaction(async (tx) => {
    const row = found(await webhooks.getEndpoint(tx, programId, id), 'webhook endpoint', id);
    const rotated = {
      secret: newSigningSecret(),
      previous_secret: row.secret,
      previous_secret_until: now + ROTATION_OVERLAP_SECONDS,
      updated_at: now,
    };
    await webhooks.updateEndpoint(tx, programId, id, rotated);
    return { ...row, ...rotated };
  });
}

export async function deleteEndpoint(db: Db, programId: string, id: string): Promise<void> {
  if (!(await db.transaction((tx) => webhooks.deleteEndpoint(tx, programId, id)))) {
    throw fail('not_found', `no webhook endpoint ${id}`);
  }
}

/**
 * The "send test event" button: an event of its own type, delivered to this endpoint
 * only (enabled or not: testing a disabled endpoint is how its owner finds out it works).
 */
export async function sendTestEvent(db: Db, programId: string, id: string, now: number): Promise<DeliveryRow> {
  return db.transaction(async (tx) => {
    const endpoint = found(await webhooks.getEndpoint(tx, programId, id), 'webhook endpoint', id);
    const data = { id: endpoint.id, type: 'webhook_endpoint', attributes: { url: endpoint.url, message: 'a test event from Tally' } };
    const event: EventRow = { id: uuidv7(), program_id: programId, type: TEST_EVENT, data: JSON.stringify(data), created_at: now };
    await events.insert(tx, event);
    const delivery = newDelivery(event, endpoint.id, now);
    await webhooks.insertDelivery(tx, delivery);
    return delivery;
  });
}

/** Sends a delivery's event again to its endpoint, as a new delivery beside the old. */
export async function resend(db: Db, programId: string, deliveryId: string, now: number): Promise<DeliveryRow> {
  return db.transaction(async (tx) => {
    const old = found(await webhooks.getDelivery(tx, programId, deliveryId), 'webhook delivery', deliveryId);
    const endpoint = await webhooks.getEndpoint(tx, programId, old.endpoint_id);
    if (endpoint && Number(endpoint.enabled) !== 1) {
      throw fail(
        'conflict',
        'its endpoint is disabled: enable it first, then resend (a test event reaches a disabled endpoint, to try it)',
      );
    }
    const delivery = newDelivery({ id: old.event_id, program_id: programId, type: old.event_type }, old.endpoint_id, now);
    await webhooks.insertDelivery(tx, delivery);
    return delivery;
  });
}

export const ALL_EVENT_TYPES: readonly string[] = [...EVENT_TYPES, TEST_EVENT];
