// Structured logs. Request lines carry only ids, route patterns, statuses and times;
// the redact list is a second line of defence should a field ever slip in.

import pino, { type DestinationStream, type Logger } from 'pino';

/** JSON lines to stdout, or to `destination` (tests read what was logged). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    redact: {
      paths: ['*.email', '*.paypal_email', '*.authorization', '*.token', 'email', 'token', 'authorization'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
