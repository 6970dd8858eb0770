// tally webhooks (docs/webhooks.md): a program's endpoints, as the API and the dashboard's
// settings manage them. A signing secret is printed once, when made or rotated.

import type { Config } from '../../platform/config.js';
import type { Db } from '../../platform/db/db.js';
import type { ProgramRow } from '../programs/model.js';
import { EVENT_TYPES, type EventType } from '../../events/types.js';
import { createEndpoint, deleteEndpoint, rotateSecret, signingSecretHint, updateEndpoint } from './service.js';
import { DEFAULT_OUTBOUND } from '../../platform/outbound.js';
import * as webhooks from './repo.js';
import type { EndpointRow } from './repo.js';
import { iso, now, out, programFor, required, UsageError, withDb, type Command, type Values } from '../../cli/common.js';
import { withAudit } from '../../cli/audit.js';

/** The command's change of the program's endpoint, recorded as the API's `route` would record it. */
async function audited<T>(
  config: Readonly<Config>,
  values: Values,
  command: string,
  route: string,
  id: string | undefined,
  fn: (db: Db, program: ProgramRow) => Promise<T>,
): Promise<T> {
  const program = await withDb(config, (db) => programFor(db, values.program));
  const params = id === undefined ? undefined : { id };
  return withAudit(
    config,
    command,
    async () => [{ route, programId: program.id, params }],
    (db) => fn(db, program),
  );
}

const policyOf = (config: Readonly<Config>) => ({ ...DEFAULT_OUTBOUND, ...config.outbound });

function eventTypes(values: Values): EventType[] | undefined {
  if (typeof values.events !== 'string') return undefined;
  const types = values.events
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const unknown = types.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length > 0) throw new UsageError(`unknown event type ${unknown.join(', ')}; one of ${EVENT_TYPES.join(', ')}`);
  return types as EventType[];
}

function describe(row: EndpointRow): string {
  const types = JSON.parse(row.event_types) as string[];
  const state = Number(row.enabled) === 1 ? 'enabled' : `disabled (${row.disabled_reason ?? 'by its owner'})`;
  return `${row.id}  ${row.url}  ${types.length ? types.join(',') : 'all events'}  ${state}  secret ${signingSecretHint(row.secret)}  since ${iso(Number(row.created_at))}`;
}

function printSecret(row: EndpointRow): void {
  out(`  signing secret: ${row.secret}`);
  out('  It is shown only now; the receiver verifies webhook-signature with it.');
}

/** enable and disable: the same change, either way. */
function switchCommand(enabled: boolean): Command {
  const verb = enabled ? 'enable' : 'disable';
  return {
    usage: `tally webhooks ${verb} ID [--program ID]\n\n${enabled ? 'Sends to the endpoint again (after a 410 or 5 days of failures, say); resend what it missed from the dashboard.' : 'Stops sending to the endpoint; its pending deliveries end as failed.'}`,
    options: { program: { type: 'string' } },
    positionals: ['ID'],
    async run(values, [id], config) {
      const row = await audited(config, values, `webhooks ${verb}`, 'patch /v1/webhook_endpoints/:id', id ?? '', (db, program) =>
        updateEndpoint(db, program.id, id ?? '', { enabled }, policyOf(config), now()),
      );
      out(describe(row));
    },
  };
}

export const webhookCommands: Record<string, Command> = {
  'webhooks add': {
    usage:
      'tally webhooks add [--program ID] --url https://… [--events TYPE,TYPE] [--description TEXT]\n\n' +
      `Sends the program's events to the URL, signed (Standard Webhooks). Every type unless --events names some: ${EVENT_TYPES.join(', ')}.`,
    options: { program: { type: 'string' }, url: { type: 'string' }, events: { type: 'string' }, description: { type: 'string' } },
    async run(values, _positionals, config) {
      const url = required(values, 'url');
      const description = typeof values.description === 'string' ? values.description : undefined;
      const types = eventTypes(values);
      await audited(config, values, 'webhooks add', 'post /v1/webhook_endpoints', undefined, async (db, program) => {
        const row = await createEndpoint(db, program.id, { url, event_types: types, description }, policyOf(config), now());
        out(`Added webhook endpoint ${row.id} to "${program.name}":`);
        printSecret(row);
        return row;
      });
    },
  },
  'webhooks list': {
    usage: "tally webhooks list [--program ID]\n\nThe program's endpoints: URL, event types, enabled or why not, the secret's hint.",
    options: { program: { type: 'string' } },
    async run(values, _positionals, config) {
      await withDb(config, async (db) => {
        const program = await programFor(db, values.program);
        const { rows } = await webhooks.listEndpoints(db, program.id, [], { page: 1, perPage: 50 });
        if (rows.length === 0) return out(`"${program.name}" has no webhook endpoints: tally webhooks add --url https://…`);
        for (const row of rows) out(describe(row));
      });
    },
  },
  'webhooks rotate': {
    usage: 'tally webhooks rotate ID [--program ID]\n\nA new signing secret, printed once; the old one still signs beside it for 24 hours.',
    options: { program: { type: 'string' } },
    positionals: ['ID'],
    async run(values, [id], config) {
      const row = await audited(
        config,
        values,
        'webhooks rotate',
        'post /v1/webhook_endpoints/:id/rotate_secret',
        id ?? '',
        (db, program) => rotateSecret(db, program.id, id ?? '', now()),
      );
      out(`Rotated the signing secret of ${row.id}; the previous one signs too until ${iso(Number(row.previous_secret_until))}.`);
      printSecret(row);
    },
  },
  'webhooks remove': {
    usage: 'tally webhooks remove ID [--program ID]\n\nRemoves the endpoint and its deliveries.',
    options: { program: { type: 'string' } },
    positionals: ['ID'],
    async run(values, [id], config) {
      await audited(config, values, 'webhooks remove', 'delete /v1/webhook_endpoints/:id', id ?? '', (db, program) =>
        deleteEndpoint(db, program.id, id ?? ''),
      );
      out(`Removed webhook endpoint ${id ?? ''}.`);
    },
  },
  'webhooks enable': switchCommand(true),
  'webhooks disable': switchCommand(false),
};
