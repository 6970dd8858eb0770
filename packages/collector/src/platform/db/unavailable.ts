// "Not now" rather than "not this": the answer of every driver when the database cannot
// take the request yet (held, full, read-only, gone, or too much already waiting). The
// client may retry the same request; Retry-After says when.

import { fail } from '../errors.js';

/** `cause`, the driver's own error, travels along for the log and the CLI; never to a client. */
export const unavailable = (cause?: unknown) =>
  fail('unavailable', 'The database is unavailable; try again shortly.', { retryAfter: 1, cause });
