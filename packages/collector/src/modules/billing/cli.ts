// tally <platform> connect / status (docs/billing.md), for every billing platform: the
// same connection the dashboard's settings and the API make. A signing secret is printed
// only as its hint, never whole.

import { publicUrlOf, type Config } from '../../platform/config.js';
import { addSecret, connection, isLocalUrl, webhookPath } from '../../flows/billing-connect.js';
import type { Platform } from './facts.js';
import { PLATFORMS } from '../../platforms.js';
import type { SecretRow } from './repo.js';
import { now, orStdin, out, programFor, required, withDb, type Command } from '../../cli/common.js';
import { withAudit } from '../../cli/audit.js';

/** `--secret -` reads it from stdin, keeping it out of the shell's history and the process list. */
const secretFrom = (raw: string): string => orStdin(raw, 'secret', 'the signing secret');

function printConnection(config: Readonly<Config>, platform: Platform, endpointId: string, secrets: SecretRow[]): void {
  const url = `${publicUrlOf(config, config.port)}${webhookPath(platform, endpointId)}`;
  out(`Endpoint URL (enter it in ${platform.setup}):`);
  out(`  ${url}`);
  // As Settings → Integrations says it: a URL on this machine is one the platform cannot post to.
  if (isLocalUrl(url)) out(`Warning: PUBLIC_URL is local. ${platform.localTest(url, platform.events)}.`);
  out('Events to send:');
  for (const e of platform.events) out(`  ${e}`);
  out(`Signing secrets set: ${secrets.map((s) => `${s.label} ${platform.secret.hint(s.secret)}`).join(', ')}`);
  out(`Test event: ${platform.testEvent}.`);
}

function commands(platform: Platform): Record<string, Command> {
  const { name, title } = platform;
  return {
    [`${name} connect`]: {
      usage:
        `tally ${name} connect [--program ID] --secret SECRET [--label LABEL]\n\n` +
        `Adds the signing secret of a ${title} webhook endpoint (${platform.setup}) and prints\n` +
        'the URL to enter there and the events to select. Add a second secret to rotate, or for test mode beside\n' +
        'live mode; both are accepted until one is removed. --secret - reads the secret from stdin.',
      options: { program: { type: 'string' }, secret: { type: 'string' }, label: { type: 'string' } },
      async run(values, _positionals, config) {
        const secret = secretFrom(required(values, 'secret'));
        const label = typeof values.label === 'string' ? values.label : '';
        const program = await withDb(config, (db) => programFor(db, values.program));
        const change = async () => [{ route: `post /v1/integrations/${name}/secrets`, programId: program.id }];
        await withAudit(config, `${name} connect`, change, async (db) => {
          const { endpointId } = await addSecret(db, platform, program.id, secret, label, now());
          const { secrets } = await connection(db, platform, program.id);
          out(`Connected "${program.name}" to ${title} (secret ${platform.secret.hint(secret.trim())} added).`);
          printConnection(config, platform, endpointId, secrets);
        });
      },
    },
    [`${name} status`]: {
      usage: `tally ${name} status [--program ID]\n\nThe program's ${title} webhook URL, the events to send, and the signing secrets set (by hint).`,
      options: { program: { type: 'string' } },
      async run(values, _positionals, config) {
        await withDb(config, async (db) => {
          const program = await programFor(db, values.program);
          const { endpointId, secrets } = await connection(db, platform, program.id);
          if (secrets.length === 0) {
            return out(`"${program.name}" is not connected to ${title} yet: tally ${name} connect --program ${program.id} --secret …`);
          }
          printConnection(config, platform, endpointId, secrets);
        });
      },
    },
  };
}

export const billingCommands: Record<string, Command> = Object.assign({}, ...PLATFORMS.map(commands));
