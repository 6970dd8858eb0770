// Connecting a program to Stripe: its own webhook URL, and the signing secrets Stripe
// gives for it (several at once: a rotation, live and test mode).

import { fail } from '../../platform/errors.js';
import type { Db } from '../../platform/db/db.js';
import * as programs from '../programs/repo.js';
import * as stripe from './repo.js';
import type { SecretRow } from './repo.js';
import { stripeEndpointId, uuidv7 } from '../../core/ids.js';
import { HANDLERS } from './handlers.js';

/** What to select in Stripe's endpoint settings: every event Tally acts on. */
export const EVENTS_TO_SEND: readonly string[] = Object.keys(HANDLERS);

/** Stripe's signing secrets: whsec_ and base64 (Stripe's are 32 bytes; any length from 16 is taken). */
const SECRET = /^whsec_[A-Za-z0-9+/=]{24,200}$/;
export const MAX_SECRETS = 10;

export interface Connection {
  endpointId: string;
  secrets: SecretRow[];
}

/** The path of the program's webhook, under the collector's public address. */
export const webhookPath = (endpointId: string): string => `/v1/integrations/stripe/webhook/${endpointId}`;

/** The secret as the API and the CLI show it: enough to tell two apart, never enough to sign. */
export const secretHint = (secret: string): string => `whsec_…${secret.slice(-4)}`;

/** The program's endpoint and secrets; a program made before Stripe came gets its endpoint id now, once. */
export async function connection(db: Db, programId: string): Promise<Connection> {
  const program = await programs.get(db, programId);
  const endpointId =
    program?.stripe_endpoint_id ?? (await db.transaction((tx) => programs.ensureStripeEndpoint(tx, programId, stripeEndpointId())));
  return { endpointId, secrets: await stripe.secrets(db, programId) };
}

/** Adds a signing secret, giving the program its endpoint id on the first. */
export async function addSecret(
  db: Db,
  programId: string,
  secret: string,
  label: string,
  now: number,
): Promise<{ endpointId: string; secret: SecretRow }> {
  const clean = secret.trim();
  if (!SECRET.test(clean)) {
    throw fail('invalid_field', "the signing secret must be Stripe's, as its endpoint page shows it: whsec_ and then letters and digits", {
      field: 'secret',
    });
  }
  return db.transaction(async (tx) => {
    const endpointId = await programs.ensureStripeEndpoint(tx, programId, stripeEndpointId());
    const existing = await stripe.secrets(tx, programId);
    if (existing.some((s) => s.secret === clean)) throw fail('conflict', 'this signing secret is set already', { field: 'secret' });
    if (existing.length >= MAX_SECRETS)
      throw fail('conflict', `a program keeps at most ${MAX_SECRETS} signing secrets: remove an old one first`, { field: 'secret' });
    const row: SecretRow = { id: uuidv7(), program_id: programId, secret: clean, label: label.trim() || 'Stripe', created_at: now };
    await stripe.insertSecret(tx, row);
    return { endpointId, secret: row };
  });
}

export async function removeSecret(db: Db, programId: string, id: string): Promise<void> {
  const removed = await db.transaction((tx) => stripe.removeSecret(tx, programId, id));
  if (!removed) throw fail('not_found', `no Stripe signing secret ${id}`);
}
