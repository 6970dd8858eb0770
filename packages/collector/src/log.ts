// Structured logs. Request lines carry only ids, route patterns, statuses and times;
// the redact list is a second line of defence should a field ever slip in.

import pino, { type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ['*.email', '*.paypal_email', '*.authorization', '*.token', 'email', 'token', 'authorization'],
      censor: '[redacted]',
    },
  });
}
