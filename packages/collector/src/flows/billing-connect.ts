// Connecting a program to a billing platform: its own webhook URL (one endpoint id per
// program, under each platform's path), and the signing secrets the platform gives for it
// (several at once: a rotation, live and test mode).

import { fail } from '../platform/errors.js';
import type { Db } from '../platform/db/db.js';
import * as programs from '../modules/programs/repo.js';
import * as billing from '../modules/billing/repo.js';
import type { SecretRow } from '../modules/billing/repo.js';
import { stripeEndpointId, uuidv7 } from '../core/ids.js';
import type { Credential, Platform } from '../modules/billing/facts.js';

export const MAX_SECRETS = 10;

export interface Connection {
  endpointId: string;
  secrets: SecretRow[];
}

/**
 * Whether a URL names this machine, which no billing platform can post to: localhost and
 * its subdomains, 127.0.0.0/8 and ::1 (the loopback addresses). WHATWG URL gives IPv4 in
 * dotted decimal whatever was written (127.1 is 127.0.0.1) and IPv6 in brackets.
 */
export function isLocalUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]';
}

/** The path of the program's webhook for a platform, under the collector's public address. */
export const webhookPath = (platform: Platform, endpointId: string): string => `/v1/integrations/${platform.name}/webhook/${endpointId}`;

/** The program's endpoint and secrets; a program made before Stripe came gets its endpoint id now, once. */
export async function connection(db: Db, platform: Platform, programId: string): Promise<Connection> {
  const program = await programs.get(db, programId);
  const endpointId =
    program?.stripe_endpoint_id ?? (await db.transaction((tx) => programs.ensureBillingEndpoint(tx, programId, stripeEndpointId())));
  return { endpointId, secrets: await billing.secrets(db, programId, platform.name) };
}

export interface LastEvent {
  received_at: number;
  /** True when its signature matched one of the program's secrets. */
  verified: boolean;
  /** The event's type, when it verified; a refused body is not read. */
  type: string | null;
  /** Why it was refused, when it was. */
  reason: string | null;
}

/** The latest refused delivery since the last verified event, else the newest verified event, or null before any. */
export async function lastEvent(db: Db, platform: Platform, programId: string): Promise<LastEvent | null> {
  const [event, refusal] = await Promise.all([
    billing.lastEvent(db, programId, platform.name),
    billing.lastRefusal(db, programId, platform.name),
  ]);
  const verified = event && { received_at: Number(event.created_at), verified: true, type: event.type, reason: null };
  const refused = refusal && { received_at: Number(refusal.received_at), verified: false, type: null, reason: refusal.reason };
  // A refusal kept is newer than every verified event: a verified one removes it.
  return refused ?? verified ?? null;
}

/** Adds a signing secret, giving the program its endpoint id on the first. */
export async function addSecret(
  db: Db,
  platform: Platform,
  programId: string,
  secret: string,
  label: string,
  now: number,
): Promise<{ endpointId: string; secret: SecretRow }> {
  const clean = secret.trim();
  if (!platform.secret.pattern.test(clean)) throw fail('invalid_field', platform.secret.explain, { field: 'secret' });
  return db.transaction(async (tx) => {
    const endpointId = await programs.ensureBillingEndpoint(tx, programId, stripeEndpointId());
    const existing = await billing.secrets(tx, programId, platform.name);
    if (existing.some((s) => s.secret === clean)) throw fail('conflict', 'this signing secret is set already', { field: 'secret' });
    if (existing.length >= MAX_SECRETS)
      throw fail('conflict', `a program keeps at most ${MAX_SECRETS} signing secrets: remove an old one first`, { field: 'secret' });
    const row: SecretRow = {
      id: uuidv7(),
      program_id: programId,
      platform: platform.name,
      secret: clean,
      label: label.trim() || platform.title,
      created_at: now,
    };
    await billing.insertSecret(tx, row);
    return { endpointId, secret: row };
  });
}

export async function removeSecret(db: Db, platform: Platform, programId: string, id: string): Promise<void> {
  const removed = await db.transaction((tx) => billing.removeSecret(tx, programId, platform.name, id));
  if (!removed) throw fail('not_found', `no ${platform.title} signing secret ${id}`);
}

/** What an owner may read back of a credential: secrets as their last four characters, the rest as set. */
export function credentialHints(platform: Platform, fields: Credential | undefined): Record<string, string> | null {
  if (!platform.credential || !fields) return null;
  return Object.fromEntries(
    platform.credential.fields.map((f) => [f.name, f.secret ? `…${(fields[f.name] ?? '').slice(-4)}` : (fields[f.name] ?? '')]),
  );
}

/** Sets the program's credential for a platform, every field checked; a new one replaces the old whole. */
export async function setCredential(
  db: Db,
  platform: Platform,
  programId: string,
  given: Record<string, string>,
  now: number,
): Promise<Credential> {
  const declared = platform.credential;
  if (!declared) throw fail('not_found', `${platform.title} takes no credential`);
  const fields: Record<string, string> = {};
  for (const f of declared.fields) {
    const value = (given[f.name] ?? '').trim();
    if (value === '') throw fail('missing_field', `${f.name} is required: ${f.label}`, { field: f.name });
    if (!f.pattern.test(value)) throw fail('invalid_field', f.explain, { field: f.name });
    fields[f.name] = value;
  }
  const unknown = Object.keys(given).find((k) => !declared.fields.some((f) => f.name === k));
  if (unknown !== undefined) throw fail('invalid_field', `${unknown} is not a field of ${platform.title}'s credential`, { field: unknown });
  await billing.setCredential(db, programId, platform.name, fields, now);
  return fields;
}

/** Removes it: Tally stops calling the platform's API for the program. */
export async function removeCredential(db: Db, platform: Platform, programId: string): Promise<void> {
  if (!(await billing.removeCredential(db, programId, platform.name))) throw fail('not_found', `no ${platform.title} credential is set`);
}
