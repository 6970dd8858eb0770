// The HTTP face of the service's errors: each code's status and title, the JSON:API error
// shape of docs/api.md §7 (a field becomes a JSON pointer), and the headers that go with
// them (Retry-After). The first middleware inside the request context answers every
// failure so; unknown errors are logged with the request id and answered with nothing
// internal.

import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { fail, ServiceError, type ErrorCode, type Problem } from '../errors.js';
import { ConstraintViolation } from '../db/db.js';

const HTTP: Record<ErrorCode, readonly [number, string]> = {
  malformed_json: [400, 'Malformed JSON'],
  invalid_parameter: [400, 'Invalid parameter'],
  unknown_parameter: [400, 'Unknown parameter'],
  bad_request: [400, 'Bad request'],
  unauthorized: [401, 'Unauthorized'],
  invalid_credentials: [401, 'Invalid credentials'],
  forbidden: [403, 'Forbidden'],
  step_up_required: [403, 'Step-up required'],
  two_factor_required: [403, 'Two-factor required'],
  origin_not_allowed: [403, 'Origin not allowed'],
  secret_token_in_browser: [403, 'Secret token in a browser'],
  cross_origin_request: [403, 'Cross-origin request'],
  not_found: [404, 'Not found'],
  method_not_allowed: [405, 'Method not allowed'],
  request_timeout: [408, 'Request timeout'],
  invalid_signature: [400, 'Invalid signature'],
  referral_exists: [409, 'Referral exists'],
  duplicate_lead: [409, 'Duplicate lead'],
  invalid_transition: [409, 'Invalid state transition'],
  idempotency_conflict: [409, 'Idempotency conflict'],
  conflict: [409, 'Conflict'],
  payload_too_large: [413, 'Payload too large'],
  unsupported_media_type: [415, 'Unsupported media type'],
  missing_field: [422, 'Missing field'],
  unknown_field: [422, 'Unknown field'],
  invalid_field: [422, 'Invalid field'],
  invalid_email: [422, 'Invalid e-mail address'],
  unattributed: [422, 'Unattributed conversion'],
  partnership_declined: [422, 'Partnership declined'],
  self_referral: [422, 'Self-referral'],
  self_recruitment: [422, 'Self-recruitment'],
  unknown_partner: [422, 'Unknown partner'],
  unknown_referral: [422, 'Unknown referral'],
  rate_limited: [429, 'Rate limited'],
  account_locked: [429, 'Account locked'],
  headers_too_large: [431, 'Request header fields too large'],
  internal_error: [500, 'Internal error'],
  unavailable: [503, 'Service unavailable'],
};

export interface ErrorObject {
  status: string;
  code: ErrorCode;
  title: string;
  detail: string;
  source?: { pointer: string } | { parameter: string };
  meta?: Record<string, unknown>;
}

export function httpStatus(code: ErrorCode): number {
  return HTTP[code][0];
}

/** One problem in the JSON:API error shape. */
export function errorObject(problem: Problem): ErrorObject {
  const [status, title] = HTTP[problem.code];
  const obj: ErrorObject = { status: String(status), code: problem.code, title, detail: problem.detail };
  if (problem.field !== undefined) obj.source = { pointer: `/${problem.field}` };
  else if (problem.parameter !== undefined) obj.source = { parameter: problem.parameter };
  if (problem.meta) obj.meta = problem.meta;
  return obj;
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: { errors: ErrorObject[] };
}

/** The whole answer for an error: status, headers and body; a 5xx names the request. */
export function errorAnswer(err: ServiceError, requestId: string): HttpAnswer {
  const status = httpStatus(err.code);
  const headers: Record<string, string> = { ...err.headers };
  if (err.retryAfter !== undefined) headers['Retry-After'] = String(err.retryAfter);
  const errors = err.problems.map(errorObject);
  return {
    status,
    headers,
    body: { errors: status >= 500 ? errors.map((e) => ({ ...e, meta: { ...e.meta, request_id: requestId } })) : errors },
  };
}

/** Any error a request ended with, as its answer: a service error as it is, anything else logged and answered without internals. */
export function answerFor(err: unknown, requestId: string, log: Logger): HttpAnswer {
  let known: ServiceError;
  if (err instanceof ServiceError) {
    known = err;
  } else if (err instanceof ConstraintViolation) {
    // A race the domain does not resolve itself (two processes creating the same
    // partnership, say): the database kept its rules, and this request can be retried.
    known = fail('conflict', 'another request made the same record at the same time; read it again');
  } else {
    log.error({ req_id: requestId, err }, 'unhandled error');
    known = fail('internal_error', 'An unexpected error occurred.');
  }
  return errorAnswer(known, requestId);
}

export function errorResponses(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const answer = answerFor(err, String(ctx.state.requestId ?? ''), log);
      ctx.status = answer.status;
      ctx.set(answer.headers);
      ctx.body = answer.body;
    }
  };
}
