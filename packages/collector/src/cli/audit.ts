// The audit log of the command line (docs/audit.md, "From the command line"): a command that
// changes a program records the entry the API's route making the same change would, by actor
// kind `cli` (the OS user), in the change's own transaction (api/audited.ts's recordingDb).

import { userInfo } from 'node:os';
import { ROUTES } from '../app.js';
import { auditPlan } from '../api/audit-plan.js';
import { recorder, recordingDb, type Recorder } from '../api/audited.js';
import type { RouteInput } from '../api/route.js';
import type { Actor } from '../modules/audit/model.js';
import { getProgram } from '../modules/programs/service.js';
import { publicUrlOf, type Config } from '../platform/config.js';
import type { Db, Queryable, Tx } from '../platform/db/db.js';
import { io, now, withDb } from './common.js';

/** One entry a command writes: the API route of the same change, its program and path parameters. */
export interface CommandChange {
  /** `patch /v1/program`: its action and read route (api/audit-plan.ts) are the entry's. */
  route: string;
  programId: string;
  params?: Record<string, string>;
  /** For a command that makes several records in one transaction: their ids in its result, one entry each. */
  created?: (result: unknown) => string[];
}

/** Who ran the command: the OS user when the environment or the system names one. */
export function cliActor(): Actor {
  const env = io().env;
  let label = env.USER ?? env.LOGNAME ?? null;
  try {
    label ??= userInfo().username;
  } catch {
    // A container's uid without a passwd entry: nobody to name.
  }
  return { kind: 'cli', id: null, label };
}

/** The route input a read route's handler needs for the snapshot: the program, the parameters, the time. */
async function inputFor(q: Queryable, config: Readonly<Config>, command: string, change: CommandChange): Promise<RouteInput<unknown>> {
  const found = await getProgram(q, change.programId);
  const header = (name: string) => (name === 'user-agent' ? `tally ${command}` : undefined);
  return {
    db: q as Db,
    now: now(),
    program: found?.program,
    caller: 'secret',
    params: change.params ?? {},
    publicUrl: publicUrlOf(config, config.port),
    taxFormKeys: config.taxFormKeys,
    requestId: '',
    clientIp: '',
    header,
  } as unknown as RouteInput<unknown>;
}

function routeOf(key: string) {
  const r = ROUTES.find((g) => `${g.method} ${g.path}` === key);
  if (!r) throw new Error(`no route ${key} for the audit entry`);
  return auditPlan(r, ROUTES);
}

/** The entries of `change`: one, or one per record it made (written with that record's id as the result). */
async function recordersOf(q: Queryable, config: Readonly<Config>, command: string, change: CommandChange): Promise<Recorder[]> {
  const plan = routeOf(change.route);
  const input = await inputFor(q, config, command, change);
  const who = { actor: cliActor(), programId: change.programId };
  const one = recorder(plan, input, who);
  const { created } = change;
  if (!created) return [one];
  return [
    {
      start: one.start,
      async write(tx: Tx, result: unknown) {
        for (const id of created(result)) await recorder(plan, input, who).write(tx, { id });
      },
    },
  ];
}

/**
 * Runs a command's change on the configured database with its entries recorded: `changes`
 * is asked inside the change's first transaction (what it will change, as it is then). A
 * change made outside a transaction, or none, is recorded once the command succeeded.
 */
export function withAudit<T>(
  config: Readonly<Config>,
  command: string,
  changes: (tx: Tx) => Promise<readonly CommandChange[]>,
  fn: (db: Db) => Promise<T>,
): Promise<T> {
  return withDb(config, async (base) => {
    // One after another: a transaction's statements go in turn on its one connection.
    const plan = async (tx: Tx) => {
      const recorders: Recorder[] = [];
      for (const change of await changes(tx)) recorders.push(...(await recordersOf(tx, config, command, change)));
      return recorders;
    };
    const recording = recordingDb(base, plan);
    const value = await fn(recording.db);
    if (!recording.recorded()) {
      await base.transaction(async (tx) => {
        for (const entry of await plan(tx)) await entry.write(tx, value);
      });
    }
    return value;
  });
}
