// tally serve: the collector, as npm start runs it.

import { createLogger } from '../platform/log.js';
import { startServer } from '../server.js';
import { note, printTokens, type Command } from './common.js';

export const serveCommands: Record<string, Command> = {
  serve: {
    usage: 'tally serve\n\nRuns the collector on HOST:PORT with the database at DATABASE_URL (same as npm start).',
    options: {},
    async run(_values, _positionals, config) {
      const log = createLogger(config.logLevel);
      const running = await startServer(config, log);
      // The banner goes to stderr: stdout carries the JSON logs, which log shippers collect,
      // and a secret token must never travel with them.
      if (running.firstProgram) {
        const { program, tokens: t } = running.firstProgram;
        note(`First start: created program "${program.name}" (${program.id}).`);
        printTokens(t.secret, t.publishable, note);
        if (running.firstSignInLink) {
          note(`Sign in to the dashboard (once, within 24 hours): ${running.firstSignInLink}`);
        }
      }
      note(`Tally collector listening on ${running.url}`);
      const stop = (signal: string): void => {
        log.info({ signal }, 'shutting down');
        void running.close().then(() => log.flush(() => process.exit(0)));
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
      await new Promise(() => undefined); // run until a signal
    },
  },
};
