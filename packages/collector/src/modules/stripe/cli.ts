// tally stripe connect / status (docs/stripe.md): the same connection the dashboard's
// settings and the API make. A signing secret is printed only as its hint, never whole.

import { publicUrlOf, type Config } from '../../platform/config.js';
import { addSecret, connection, EVENTS_TO_SEND, secretHint, webhookPath } from './connect.js';
import { io, now, out, programFor, required, UsageError, withDb, type Command } from '../../cli/common.js';

/** `--secret -` reads it from stdin, keeping it out of the shell's history and the process list. */
function secretFrom(raw: string): string {
  if (raw !== '-') return raw;
  const line = io().stdin().split(/\r?\n/)[0]?.trim() ?? '';
  if (line === '') throw new UsageError('--secret - reads the signing secret from stdin, which was empty');
  return line;
}

function printConnection(config: Readonly<Config>, endpointId: string, hints: string[]): void {
  out(`Endpoint URL (enter it in Stripe: Developers → Webhooks → Add endpoint):`);
  out(`  ${publicUrlOf(config, config.port)}${webhookPath(endpointId)}`);
  out('Events to send:');
  for (const e of EVENTS_TO_SEND) out(`  ${e}`);
  out(`Signing secrets set: ${hints.join(', ')}`);
}

export const stripeCommands: Record<string, Command> = {
  'stripe connect': {
    usage:
      'tally stripe connect [--program ID] --secret whsec_… [--label LABEL]\n\n' +
      "Adds the signing secret of a Stripe webhook endpoint (Stripe shows it on the endpoint's page) and prints\n" +
      'the URL to enter there and the events to select. Add a second secret to rotate, or for test mode beside\n' +
      'live mode; both are accepted until one is removed. --secret - reads the secret from stdin.',
    options: { program: { type: 'string' }, secret: { type: 'string' }, label: { type: 'string' } },
    async run(values, _positionals, config) {
      const secret = secretFrom(required(values, 'secret'));
      const label = typeof values.label === 'string' ? values.label : '';
      await withDb(config, async (db) => {
        const program = await programFor(db, values.program);
        const { endpointId } = await addSecret(db, program.id, secret, label, now());
        const { secrets } = await connection(db, program.id);
        out(`Connected "${program.name}" to Stripe (secret ${secretHint(secret.trim())} added).`);
        printConnection(
          config,
          endpointId,
          secrets.map((s) => `${s.label} ${secretHint(s.secret)}`),
        );
      });
    },
  },
  'stripe status': {
    usage:
      "tally stripe status [--program ID]\n\nThe program's Stripe webhook URL, the events to send, and the signing secrets set (by hint).",
    options: { program: { type: 'string' } },
    async run(values, _positionals, config) {
      await withDb(config, async (db) => {
        const program = await programFor(db, values.program);
        const { endpointId, secrets } = await connection(db, program.id);
        if (secrets.length === 0) {
          return out(`"${program.name}" is not connected to Stripe yet: tally stripe connect --program ${program.id} --secret whsec_…`);
        }
        printConnection(
          config,
          endpointId,
          secrets.map((s) => `${s.label} ${secretHint(s.secret)}`),
        );
      });
    },
  },
};
