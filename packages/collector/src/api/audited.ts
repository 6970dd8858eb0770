// The audit log at the route layer (docs/audit.md): app.ts passes every route through
// `audited`, so no write route can be left out by forgetting a line in it. The entry is
// written at the end of the first of the request's transactions that changes a row, in
// that transaction: a 2xx means it is recorded, and a change that fails records nothing.
// A change made outside a transaction (or none: an unchanged PATCH) is recorded once the
// handler has answered 2xx, in a transaction of its own.

import { ServiceError } from '../platform/errors.js';
import type { Db, Tx } from '../platform/db/db.js';
import { recordEntry } from '../modules/audit/service.js';
import type { Actor } from '../modules/audit/model.js';
import { sessionInfo } from '../modules/owners/service.js';
import { tokenLabel } from '../modules/tokens/service.js';
import { getPartner } from '../modules/partners/service.js';
import { reachedPartnership } from '../flows/portal.js';
import { auditPlan, exemption, type AuditPlan } from './audit-plan.js';
import type { Reply, Route, RouteInput } from './route.js';

const UA_MAX = 512;

/** A Db whose every call runs in `tx`: a read route's handler, run for a snapshot inside the change's transaction. */
function inTx(db: Db, tx: Tx): Db {
  return {
    engine: tx.engine,
    settings: tx.settings,
    all: (sql, params) => tx.all(sql, params),
    get: (sql, params) => tx.get(sql, params),
    run: (sql, params) => tx.run(sql, params),
    transaction: (fn) => fn(tx),
    readThenWrite: (fn) => fn(tx),
    stats: () => db.stats(),
    ping: () => db.ping(),
    backup: (dest) => db.backup(dest),
    close: () => db.close(),
  };
}

/** Who is calling, and for which program; undefined when the caller has no program (never on an audited route). */
async function actorOf(input: RouteInput<unknown>): Promise<{ actor: Actor; programId: string }> {
  const { db } = input;
  if (input.session) {
    const info = await sessionInfo(db, input.session);
    return { actor: { kind: 'user', id: input.session.user_id, label: info.user.email }, programId: input.program.id };
  }
  if (input.embed) {
    const partner = await getPartner(db, input.embed.program_id, input.embed.partner_id);
    return { actor: { kind: 'partner', id: partner.id, label: partner.email }, programId: input.embed.program_id };
  }
  if (input.account) {
    const partnership = await reachedPartnership(db, input.account.id, input.params.id ?? '');
    return { actor: { kind: 'partner', id: input.account.id, label: input.account.email }, programId: partnership.program_id };
  }
  const id = input.tokenId ?? null;
  return { actor: { kind: 'token', id, label: id === null ? null : ((await tokenLabel(db, id)) ?? null) }, programId: input.program.id };
}

/** The id a change's result names: a created record's (the row, or its one record among the fields: `{ row }`, `{ data }`, `{ invitation, link }`). */
function idOf(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { id } = value as { id?: unknown };
  if (typeof id === 'string') return id;
  const ids = Object.values(value).flatMap((v) =>
    v !== null && typeof v === 'object' && typeof v.id === 'string' ? [v.id as string] : [],
  );
  return ids.length === 1 ? ids[0] : undefined;
}

export function recorder(plan: AuditPlan, input: RouteInput<unknown>, who: { actor: Actor; programId: string }) {
  let before: unknown;
  let targetId = plan.targetParam === undefined ? undefined : input.params[plan.targetParam];
  const read = async (tx: Tx): Promise<unknown> => {
    if (!plan.read || (plan.readsCreated && targetId === undefined)) return null;
    const params = plan.readsCreated ? { ...input.params, id: targetId ?? '' } : input.params;
    try {
      const reply = await plan.read.handle({
        ...input,
        db: inTx(input.db, tx),
        params,
        list: { page: { page: 1, perPage: 0 }, filters: [] },
      });
      return (reply.body as { data?: unknown } | undefined)?.data ?? null;
    } catch (err) {
      // No record there (yet, or any more): nothing to show, not a failed change.
      if (err instanceof ServiceError) return null;
      throw err;
    }
  };
  return {
    /** At a transaction's start: the first of the request, or a rerun of one (PostgreSQL's serialization retry), reads `before`. */
    async start(tx: Tx, rerun: boolean): Promise<void> {
      if (before === undefined || rerun) before = plan.readsCreated ? null : await read(tx);
    },
    async write(tx: Tx, result: unknown): Promise<void> {
      targetId ??= idOf(result);
      await recordEntry(tx, {
        programId: who.programId,
        actor: who.actor,
        action: plan.action,
        targetType: plan.targetType,
        targetId: targetId ?? null,
        before: before ?? null,
        after: await read(tx),
        ip: input.clientIp || null,
        userAgent: input.header('user-agent')?.slice(0, UA_MAX) ?? null,
        requestId: input.requestId || null,
        createdAt: input.now,
      });
    },
  };
}

/** What writes one entry: `start` at each transaction's start, `write` at the end of the first that changed a row. */
export type Recorder = ReturnType<typeof recorder>;

/**
 * `base` for a change whose entries `plan` names at its first transaction's start (and again
 * on a rerun): each is written at the end of the first transaction that changes a row, in it.
 * `recorded()` says whether one has been.
 */
export function recordingDb(base: Db, plan: (tx: Tx) => Promise<readonly Recorder[]>): { db: Db; recorded(): boolean } {
  let recorded = false;
  let entries: readonly Recorder[] | undefined;
  const db: Db = {
    engine: base.engine,
    settings: base.settings,
    all: (sql, params) => base.all(sql, params),
    get: (sql, params) => base.get(sql, params),
    run: (sql, params) => base.run(sql, params),
    readThenWrite: (fn) => base.readThenWrite(fn),
    stats: () => base.stats(),
    ping: () => base.ping(),
    backup: (dest) => base.backup(dest),
    close: () => base.close(),
    async transaction(fn) {
      if (recorded) return base.transaction(fn);
      let changed = 0;
      let attempts = 0;
      const value = await base.transaction(async (tx) => {
        // A rerun starts again from nothing changed.
        changed = 0;
        const rerun = attempts++ > 0;
        if (entries === undefined || rerun) entries = await plan(tx);
        for (const entry of entries) await entry.start(tx, rerun);
        const counting: Tx = {
          ...tx,
          run: async (sql, params) => {
            const n = await tx.run(sql, params);
            changed += n;
            return n;
          },
        };
        const result = await fn(counting);
        // At the end, after the reactions (Tx.atEnd), so that `after` is the whole change.
        if (changed > 0) {
          const write = async () => {
            for (const entry of entries ?? []) await entry.write(tx, result);
          };
          if (tx.atEnd) tx.atEnd(write);
          else await write();
        }
        return result;
      });
      if (changed > 0) recorded = true;
      return value;
    },
  };
  return { db, recorded: () => recorded };
}

/** `r` with its changes recorded in the audit log, or `r` itself when it is exempt (audit-plan.ts). */
export function audited<B, Q>(r: Route<B, Q>, routes: readonly Route[]): Route<B, Q> {
  if (exemption(r as Route) !== undefined) return r;
  const plan = auditPlan(r as Route, routes);
  return {
    ...r,
    async handle(input: RouteInput<B, Q>): Promise<Reply> {
      const entry = recorder(plan, input as RouteInput<unknown>, await actorOf(input as RouteInput<unknown>));
      const recording = recordingDb(input.db, async () => [entry]);
      const reply = await r.handle({ ...input, db: recording.db });
      if (!recording.recorded() && reply.status < 300) {
        // No transaction changed a row: what was there before is not known, only what is now.
        await input.db.transaction((tx) => entry.write(tx, reply.body));
      }
      return reply;
    },
  };
}
