// Emitting an event: its row in the outbox (events/repo.ts), written in the transaction of
// the change it describes, with whatever its subscribers write beside it. A committed change
// therefore always has its event, its webhook deliveries and its e-mails, and a rolled-back
// one has none. Modules emit; they never call what reacts. What reacts subscribes, once, at
// the composition root (src/subscribers.ts), so a module knows nothing of webhooks or e-mail.

import type { Queryable, Tx } from '../platform/db/db.js';
import { type Insert, insertOne } from '../platform/db/rows.js';
import { uuidv7 } from '../core/ids.js';
import { type EventRow, eventInsert, insert } from './repo.js';
import type { DomainEvent, EventPayloads, EventType, Known } from './types.js';

/** Rows to write beside an event (webhook deliveries, e-mails): pure of writes, so they also join a one-statement batch. */
export type Subscriber = (db: Queryable, event: DomainEvent, known: Known) => Promise<Insert[]>;

/**
 * A reaction that changes the domain (a move rule, an automatic code), run at the end of the
 * event's transaction: `wants` is asked first and must be cheap (settings in memory), so an
 * event nobody reacts to costs no statement.
 */
export interface Reaction {
  wants(db: Queryable, event: DomainEvent): Promise<boolean>;
  run(tx: Tx, event: DomainEvent): Promise<void>;
}

const subscribers = new Map<string, Subscriber>();
const reactions = new Map<string, Reaction>();

/** Registers (or replaces, by name) what writes rows beside every event. */
export function subscribe(name: string, subscriber: Subscriber): void {
  subscribers.set(name, subscriber);
}

/** Registers (or replaces, by name) what reacts to events by changing the domain. */
export function react(name: string, reaction: Reaction): void {
  reactions.set(name, reaction);
}

function newEvent<T extends EventType>(programId: string, type: T, data: EventPayloads[T], now: number): DomainEvent {
  return { id: uuidv7(), programId, type, data, at: now } as DomainEvent;
}

const rowOf = (e: DomainEvent): EventRow => ({
  id: e.id,
  program_id: e.programId,
  type: e.type,
  data: JSON.stringify(e.data),
  created_at: e.at,
});

async function followers(db: Queryable, event: DomainEvent, known: Known): Promise<Insert[]> {
  const rows: Insert[] = [];
  for (const subscriber of subscribers.values()) rows.push(...(await subscriber(db, event, known)));
  return rows;
}

/** Records that `data` changed as `type` says, with its subscribers' rows and reactions, in the caller's transaction. */
export async function emit<T extends EventType>(
  tx: Tx,
  programId: string,
  type: T,
  data: EventPayloads[T],
  now: number,
  known: Known = {},
): Promise<EventRow> {
  const event = newEvent(programId, type, data, now);
  const row = rowOf(event);
  await insert(tx, row);
  for (const follower of await followers(tx, event, known)) await insertOne(tx, follower);
  // Reactions weigh the whole change (a payment's commission with the payment it belongs to): at the transaction's end.
  const react = () => reactTo(tx, [event], (run) => run(tx));
  if (tx.atEnd) tx.atEnd(react);
  else await react();
  return row;
}

/**
 * The same rows, for a caller that writes them in one statement with its change (the
 * conversion), which may know more (`known`); it hands `events` to reactTo once written.
 */
export async function eventInserts<T extends EventType>(
  db: Queryable,
  programId: string,
  type: T,
  data: EventPayloads[T],
  now: number,
  known: Known = {},
): Promise<{ rows: Insert[]; event: DomainEvent }> {
  const event = newEvent(programId, type, data, now);
  return { rows: [eventInsert(rowOf(event)), ...(await followers(db, event, known))], event };
}

/** The reactions to events already written; `inTransaction` runs them in a transaction, asked only when a reaction wants one of them. */
export async function reactTo(
  db: Queryable,
  events: readonly DomainEvent[],
  inTransaction: (run: (tx: Tx) => Promise<void>) => Promise<void>,
): Promise<void> {
  const wanted: Array<[Reaction, DomainEvent]> = [];
  for (const event of events) for (const r of reactions.values()) if (await r.wants(db, event)) wanted.push([r, event]);
  if (!wanted.length) return;
  await inTransaction(async (tx) => {
    for (const [r, event] of wanted) await r.run(tx, event);
  });
}
