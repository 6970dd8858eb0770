// Structured logs. Request lines carry only ids, route patterns, statuses and times;
// the redact list is a second line of defence should a field ever slip in.

import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * JSON lines to stdout, or to `destination` (tests read what was logged). Stdout is
 * written in 4 KiB chunks off the request path: one write per line cost more than a
 * conversion's SQL (--cpu-prof). A kill -9 can lose the last chunk of log lines, never
 * data; a normal stop flushes it (cli/serve.ts).
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    redact: {
      paths: ['*.email', '*.paypal_email', '*.authorization', '*.token', 'email', 'token', 'authorization'],
      censor: '[redacted]',
    },
  };
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096 }));
}
