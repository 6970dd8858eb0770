// Preferences and the one-click unsubscribe. A message's unsubscribe token is random and
// stored only as its hash on the sent row: it can turn off that one kind for that one
// person, and nothing else (no sign-in, no reading).

import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../../platform/db/db.js';
import { fail } from '../../platform/errors.js';
import { hashToken } from '../tokens/service.js';
import { kindsOf, type NotificationKind, type Person } from './kinds.js';
import * as repo from './repo.js';

export const newUnsubscribeToken = (): string => randomBytes(24).toString('base64url');
export const unsubscribeHash = hashToken;

/** The path of a message's one-click unsubscribe, under PUBLIC_URL. */
export const unsubscribePath = (token: string): string => `/v1/notifications/unsubscribe?token=${encodeURIComponent(token)}`;

export interface Unsubscribable {
  kind: NotificationKind;
  program_id: string;
}

/** What a token would unsubscribe from; a 404 for a token that is not one. */
export async function unsubscribeTarget(db: Queryable, token: string): Promise<Unsubscribable> {
  const row = token ? await repo.byUnsubscribeHash(db, unsubscribeHash(token)) : undefined;
  if (!row) throw fail('not_found', 'this unsubscribe link is unknown or has expired');
  return { kind: row.kind as NotificationKind, program_id: row.program_id };
}

/** Turns off the token's kind for its person (RFC 8058 one-click): the same answer when done twice. */
export async function unsubscribe(db: Db, token: string, now: number): Promise<Unsubscribable> {
  return db.transaction(async (tx) => {
    const row = token ? await repo.byUnsubscribeHash(tx, unsubscribeHash(token)) : undefined;
    if (!row || row.recipient_id === null || row.audience === 'owners')
      throw fail('not_found', 'this unsubscribe link is unknown or has expired');
    await repo.optOut(tx, row.audience, row.recipient_id, row.kind, now);
    return { kind: row.kind as NotificationKind, program_id: row.program_id };
  });
}

export type Preferences = Record<NotificationKind, boolean>;

/** Each kind the person gets, on unless they (any of their records) turned it off. */
export async function preferences(db: Queryable, person: Person, ids: readonly string[]): Promise<Partial<Preferences>> {
  const off = await repo.optedOut(db, person, ids);
  return Object.fromEntries(kindsOf(person).map((k) => [k, !off.has(k)]));
}

/** Sets the kinds given, for each of the person's records. */
export async function setPreferences(db: Db, person: Person, ids: readonly string[], changes: Partial<Preferences>, now: number) {
  await db.transaction(async (tx) => {
    for (const [kind, on] of Object.entries(changes) as Array<[NotificationKind, boolean]>) {
      if (!kindsOf(person).includes(kind))
        throw fail('invalid_field', `${kind} is not a kind of message a ${person} gets`, { field: kind });
      for (const id of ids) await (on ? repo.optIn(tx, person, id, kind) : repo.optOut(tx, person, id, kind, now));
    }
  });
  return preferences(db, person, ids);
}
