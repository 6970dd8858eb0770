// The first middleware inside the request context: every failure leaves the service in
// the one error shape of design/api.md §3. Unknown errors are logged with the request id
// and answered with nothing internal.

import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { ApiError, errorObject } from '../errors.js';
import { ConstraintViolation } from '../store/db.js';

export function errorResponses(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const requestId = String(ctx.state.requestId ?? '');
      let apiError: ApiError;
      if (err instanceof ApiError) {
        apiError = err;
      } else if (err instanceof ConstraintViolation) {
        // A race the domain does not resolve itself (two processes creating the same
        // partnership, say): the database kept its rules, and this request can be retried.
        apiError = new ApiError([errorObject('conflict', 'another request made the same record at the same time; read it again')]);
      } else {
        log.error({ req_id: requestId, err }, 'unhandled error');
        apiError = new ApiError([errorObject('internal_error', 'An unexpected error occurred.')]);
      }
      ctx.status = apiError.status;
      ctx.set(apiError.headers);
      const errors =
        apiError.status >= 500
          ? apiError.errors.map((e) => ({ ...e, meta: { ...e.meta, request_id: requestId } }))
          : apiError.errors;
      ctx.body = { errors };
    }
  };
}
