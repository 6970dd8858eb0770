// The delivery loop (docs/webhooks.md): beside the requests, each process claims due
// deliveries, a few at a time, sends them signed by the Standard Webhooks scheme, and
// records each attempt with where it leaves the delivery. At least once: a delivery is
// done only when its endpoint answered 2xx, and a process that dies mid-send leaves its
// claims to expire and be sent again. Order is not promised.

import type { Logger } from 'pino';
import { Webhook } from 'standardwebhooks';
import { describeCause } from '../../platform/errors.js';
import type { SendResult } from '../../platform/outbound.js';
import type { Db } from '../../platform/db/db.js';
import * as events from '../../events/repo.js';
import * as webhooks from './repo.js';
import type { DeliveryRow, Outgoing } from './repo.js';
import { EVENTS_KEPT_SECONDS } from '../../events/types.js';
import { uuidv7 } from '../../core/ids.js';

/** Seconds before each retry: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h. */
export const RETRY_SCHEDULE = [5, 300, 1800, 7200, 18_000, 36_000, 36_000] as const;
/** An endpoint failing for this long, without one success, is disabled. */
export const DISABLE_AFTER_SECONDS = 5 * 86_400;
/** The first bytes of an answer kept with its attempt. */
const RESPONSE_KEPT = 512;

export type Send = (url: string, headers: Record<string, string>, body: string) => Promise<SendResult>;

export interface DeliveryOptions {
  db: Db;
  log: Logger;
  /** Unix seconds. */
  now: () => number;
  send: Send;
  /** Requests in flight from this process at most. */
  concurrency: number;
  /** How long a claim holds a delivery: longer than a request may take. */
  leaseSeconds: number;
  /** How often to look for due deliveries. */
  pollMs: number;
  /** Random jitter, a factor around 1 (tests pin it). */
  jitter?: () => number;
}

export interface Delivering {
  /** Looks for due deliveries now instead of at the next poll. */
  kick(): void;
  /** Sends every delivery due now, and those its attempts make due now, then resolves. */
  drain(): Promise<void>;
  /** Stops claiming, and waits for the requests in flight. */
  stop(): Promise<void>;
}

/** The body every endpoint receives: the Standard Webhooks shape, with the event's id. */
export function payloadOf(d: Pick<Outgoing, 'event_id' | 'type' | 'data' | 'event_created_at'>): string {
  return `{"id":${JSON.stringify(d.event_id)},"type":${JSON.stringify(d.type)},"timestamp":${JSON.stringify(
    new Date(Number(d.event_created_at) * 1000).toISOString(),
  )},"data":${d.data}}`;
}

/**
 * The three Standard Webhooks headers. The message id is the event's, the same on every
 * attempt, so a receiver can drop repeats. During a rotation both secrets sign.
 */
export function signedHeaders(
  d: Pick<Outgoing, 'event_id' | 'secret' | 'previous_secret' | 'previous_secret_until'>,
  body: string,
  at: number,
): Record<string, string> {
  const when = new Date(at * 1000);
  const secrets = [d.secret, ...(d.previous_secret && Number(d.previous_secret_until) > at ? [d.previous_secret] : [])];
  return {
    'content-type': 'application/json',
    'user-agent': 'Tally-Webhooks/1',
    'webhook-id': d.event_id,
    'webhook-timestamp': String(at),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(d.event_id, when, body)).join(' '),
  };
}

/** Where an attempt's result leaves its delivery, and whether the endpoint must be disabled. */
export function nextStep(
  d: Pick<DeliveryRow, 'attempts'>,
  result: SendResult,
  at: number,
  jitter: number,
): { state: DeliveryRow['state']; nextAttemptAt: number; gone: boolean } {
  const status = result.status;
  if (status !== undefined && status >= 200 && status < 300) return { state: 'succeeded', nextAttemptAt: at, gone: false };
  if (status === 410) return { state: 'failed', nextAttemptAt: at, gone: true };
  // `attempts` counts those recorded before this one: the first failure waits RETRY_SCHEDULE[0].
  const wait = RETRY_SCHEDULE[d.attempts];
  if (wait === undefined) return { state: 'failed', nextAttemptAt: at, gone: false };
  // Never sooner than the endpoint asked; capped at a day, so a bad header cannot park it for ever.
  // `at` is a whole second and the answer came up to a second after it: one more second
  // covers that (a delivery is due once the clock's whole second reaches next_attempt_at).
  const asked = Math.min(result.retryAfter ?? 0, 86_400);
  return { state: 'pending', nextAttemptAt: at + Math.max(Math.round(wait * jitter), asked + 1), gone: false };
}

function describe(result: SendResult): string | null {
  if (result.error) return result.error;
  if (result.status !== undefined && (result.status < 200 || result.status >= 300)) return `HTTP ${result.status}`;
  return null;
}

/** A receiver's bytes as text a database keeps: PostgreSQL refuses U+0000 in text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is what PostgreSQL refuses
const storable = (text: string, max: number): string => text.replace(/\u0000/g, '').slice(0, max);

/** Sends one claimed delivery and records the attempt, in one transaction with its consequences. */
export async function deliverOne(options: DeliveryOptions, d: Outgoing): Promise<void> {
  const { now } = options;
  const at = now();
  const body = payloadOf(d);
  const result = await options.send(d.url, signedHeaders(d, body, at), body);
  const done = now();
  const step = nextStep(d, result, done, options.jitter?.() ?? 0.8 + Math.random() * 0.4);
  const described = describe(result);
  const error = described === null ? null : storable(described, RESPONSE_KEPT);
  // The receiver has it: a database away for a moment (a failover) must not let the claim
  // expire and the delivery go again, so recording is retried while the claim holds.
  const holdsUntil = Date.now() + (d.next_attempt_at - at - 1) * 1000;
  for (;;) {
    try {
      return await record(options, d, { at, done, result, step, error });
    } catch (err) {
      if ((err as { code?: string }).code !== 'unavailable' || Date.now() + RECORD_RETRY_MS >= holdsUntil) throw err;
      await new Promise((resolve) => setTimeout(resolve, RECORD_RETRY_MS));
    }
  }
}

/** How long a recording the database could not take waits before it is tried again. */
const RECORD_RETRY_MS = 250;

interface Attempted {
  at: number;
  done: number;
  result: Awaited<ReturnType<DeliveryOptions['send']>>;
  step: ReturnType<typeof nextStep>;
  error: string | null;
}

/** The attempt and its consequences, in one transaction. */
async function record(options: DeliveryOptions, d: Outgoing, { at, done, result, step, error }: Attempted): Promise<void> {
  const { db } = options;
  await db.transaction(async (tx) => {
    const endpoint = await webhooks.lockEndpoint(tx, d.endpoint_id);
    if (!endpoint) return; // removed meanwhile, and its deliveries with it
    const enabled = Number(endpoint.enabled) === 1;
    // Disabled while this was in flight: what would have been retried ends here.
    const state = step.state === 'pending' && !enabled ? 'failed' : step.state;
    const applied = await webhooks.finishAttempt(
      tx,
      d,
      {
        id: uuidv7(),
        delivery_id: d.id,
        attempted_at: at,
        duration_ms: result.durationMs,
        status: result.status ?? null,
        error,
        response: storable(result.body, RESPONSE_KEPT),
      },
      { state, next_attempt_at: step.nextAttemptAt, last_status: result.status ?? null, last_error: error, updated_at: done },
    );
    if (!applied || !enabled) return; // the claim expired and another took it: its attempt counts, not this one
    if (state === 'succeeded') {
      if (endpoint.failing_since !== null) await webhooks.markAnswering(tx, d.endpoint_id);
    } else if (step.gone) {
      await webhooks.disable(tx, d.endpoint_id, 'it answered 410 Gone', done);
    } else {
      const since = await webhooks.markFailing(tx, d.endpoint_id, done);
      if (done - since >= DISABLE_AFTER_SECONDS) await webhooks.disable(tx, d.endpoint_id, 'it failed every delivery for 5 days', done);
    }
  });
}

/** How often old events are pruned, and how many at a time. */
const PRUNE_EVERY_SECONDS = 3600;
const PRUNE_BATCH = 1000;

async function prune(db: Db, now: number): Promise<void> {
  for (const program of await events.programsWithEvents(db)) {
    while ((await db.transaction((tx) => events.prune(tx, program.id, now - EVENTS_KEPT_SECONDS, PRUNE_BATCH))) === PRUNE_BATCH);
  }
}

/** Starts the loop; it runs until stop(). */
export function startDelivery(options: DeliveryOptions): Delivering {
  const { db, log, now } = options;
  let inFlight = 0;
  let looking = false;
  let stopped = false;
  let prunedAt = 0;
  const running = new Set<Promise<void>>();

  let current: Promise<void> = Promise.resolve();
  const look = (): Promise<void> => {
    if (looking || stopped) return current;
    looking = true;
    current = claimAndSend();
    return current;
  };
  const claimAndSend = async (): Promise<void> => {
    try {
      if (now() - prunedAt >= PRUNE_EVERY_SECONDS) {
        prunedAt = now();
        await prune(db, prunedAt);
      }
      // Claims are made in batches, once half the slots are free: one claiming transaction
      // for several deliveries rather than one for each that finishes.
      while (!stopped && inFlight <= options.concurrency / 2) {
        const t = now();
        // A read first: an idle process looks without writing (SQLite would fsync each claim).
        if (!(await webhooks.anyDue(db, t))) break;
        const claimed = await db.transaction((tx) => webhooks.claimDue(tx, t, t + options.leaseSeconds, options.concurrency - inFlight));
        if (claimed.length === 0) break;
        for (const d of claimed) {
          inFlight++;
          const sending: Promise<void> = deliverOne(options, d)
            .catch((err: unknown) =>
              log.warn(
                { cause: describeCause(err), delivery: d.id },
                'a webhook attempt could not be recorded; its claim expires and it is sent again',
              ),
            )
            .finally(() => {
              inFlight--;
              running.delete(sending);
              if (!stopped) void look();
            });
          running.add(sending);
        }
      }
    } catch (err) {
      log.warn({ cause: describeCause(err) }, 'looking for webhook deliveries failed; the next poll retries');
    } finally {
      looking = false;
    }
  };

  // pollMs 0: nothing runs by itself; drain() sends what is due (tests, on demand).
  const timer = options.pollMs > 0 ? setInterval(() => void look(), options.pollMs) : undefined;
  timer?.unref();
  if (timer) void look();
  return {
    kick: () => void look(),
    async drain() {
      do {
        await look();
        await Promise.all([...running]);
      } while (!stopped && (await webhooks.anyDue(db, now())));
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
      await Promise.all([...running]);
    },
  };
}
