// "Not now" rather than "not this": the answer of every driver when the database cannot
// take the request yet (held, full, read-only, gone, or too much already waiting). The
// client may retry the same request; Retry-After says when.

import { fail, ServiceError } from '../errors.js';

/** `cause`, the driver's own error, travels along for the log and the CLI; never to a client. */
export const unavailable = (cause?: unknown) =>
  fail('unavailable', 'The database is unavailable; try again shortly.', { retryAfter: 1, cause });

/**
 * One line for a person or the log: each error's code and message down the cause chain.
 * Only "not now" errors come here (connections, locks, disks), whose messages name hosts,
 * files and roles, never a row's values.
 */
interface Cause {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

export function describeCause(err: unknown): string {
  const parts: string[] = [];
  let e = err as Cause | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    // A connection to a name with several addresses fails as one AggregateError of each.
    const one: Cause = e instanceof AggregateError && e.errors.length > 0 ? (e.errors[0] as Cause) : e;
    if (!(one instanceof ServiceError)) {
      const message = typeof one.message === 'string' ? one.message : '';
      const code = typeof one.code === 'string' && !message.includes(one.code) ? one.code : '';
      parts.push([code, message].filter(Boolean).join(' '));
    }
    e = one.cause as Cause | undefined;
  }
  return parts.filter(Boolean).join(': ') || 'no cause given';
}
