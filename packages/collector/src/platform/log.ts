// Structured logs. Request lines carry only ids, route patterns, statuses and times;
// the redact list is a second line of defence should a field ever slip in.

import pino, { type DestinationStream, type Logger } from 'pino';

/** How long a log line may wait in the buffer before it is written anyway. */
export const FLUSH_AFTER_MS = 100;

/**
 * JSON lines to stdout, or to `destination` (tests read what was logged). Stdout is
 * written in 4 KiB chunks off the request path: one write per line cost more than a
 * conversion's SQL (--cpu-prof). A quiet server would keep its lines in that buffer
 * indefinitely, so the first line after a write also arms a timer that flushes within
 * FLUSH_AFTER_MS: under load the buffer fills first and the timer finds little to do.
 * A kill -9 can lose the last 100 ms of log lines, never data; a normal stop flushes
 * them (cli/serve.ts).
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
  return pino(options, destination ?? bufferedStdout());
}

function bufferedStdout(): DestinationStream {
  const stream = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  let pending = false;
  const flush = () => {
    pending = false;
    try {
      stream.flush();
    } catch {
      // closed at a stop, which flushed what it had
    }
  };
  const write = stream.write.bind(stream);
  stream.write = (line: string) => {
    // unref: a pending flush never keeps the process alive; a stop flushes explicitly.
    if (!pending) {
      pending = true;
      setTimeout(flush, FLUSH_AFTER_MS).unref();
    }
    return write(line);
  };
  return stream;
}
