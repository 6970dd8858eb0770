// The one error type of the service. Every layer throws it by code; the HTTP layer
// turns it into the single JSON:API error shape (design/api.md §3). The catalog keeps
// status and title in one place, so a code always means the same thing everywhere.

const CATALOG = {
  malformed_json: [400, 'Malformed JSON'],
  invalid_parameter: [400, 'Invalid parameter'],
  unknown_parameter: [400, 'Unknown parameter'],
  unauthorized: [401, 'Unauthorized'],
  forbidden: [403, 'Forbidden'],
  origin_not_allowed: [403, 'Origin not allowed'],
  not_found: [404, 'Not found'],
  method_not_allowed: [405, 'Method not allowed'],
  referral_exists: [409, 'Referral exists'],
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
  unknown_partner: [422, 'Unknown partner'],
  unknown_referral: [422, 'Unknown referral'],
  rate_limited: [429, 'Rate limited'],
  internal_error: [500, 'Internal error'],
  unavailable: [503, 'Service unavailable'],
  // The service's edge: a secret token sent by a web page, and what Node's HTTP parser refuses.
  secret_token_in_browser: [403, 'Secret token in a browser'],
  request_timeout: [408, 'Request timeout'],
  headers_too_large: [431, 'Request header fields too large'],
  bad_request: [400, 'Bad request'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof CATALOG;

export interface ErrorSource {
  pointer?: string;
  parameter?: string;
}

export interface ErrorObject {
  status: string;
  code: ErrorCode;
  title: string;
  detail: string;
  source?: ErrorSource;
  meta?: Record<string, unknown>;
}

export interface ErrorOptions {
  pointer?: string;
  parameter?: string;
  meta?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** What failed underneath (a driver's error): for the log, never for the answer. */
  cause?: unknown;
}

export class ApiError extends Error {
  readonly status: number;
  readonly errors: ErrorObject[];
  readonly headers: Record<string, string>;
  /** Expected errors are the client's fault and safe to show; unknown ones are not. */
  readonly expose = true;

  constructor(errors: ErrorObject[], headers: Record<string, string> = {}, cause?: unknown) {
    super(errors[0]?.detail ?? 'error', cause === undefined ? undefined : { cause });
    this.name = 'ApiError';
    this.errors = errors;
    this.status = Number(errors[0]?.status ?? 500);
    this.headers = headers;
  }

  get code(): ErrorCode {
    return this.errors[0]?.code ?? 'internal_error';
  }
}

export function errorObject(code: ErrorCode, detail: string, opts: ErrorOptions = {}): ErrorObject {
  const [status, title] = CATALOG[code];
  const obj: ErrorObject = { status: String(status), code, title, detail };
  if (opts.pointer !== undefined) obj.source = { pointer: opts.pointer };
  else if (opts.parameter !== undefined) obj.source = { parameter: opts.parameter };
  if (opts.meta) obj.meta = opts.meta;
  return obj;
}

/** Build the error to throw: `throw fail('not_found', 'no such partner')`. */
export function fail(code: ErrorCode, detail: string, opts: ErrorOptions = {}): ApiError {
  return new ApiError([errorObject(code, detail, opts)], opts.headers, opts.cause);
}

/** The record, or a 404 naming what was looked for. */
export function found<T>(row: T | undefined, type: string, id: string): T {
  if (row === undefined) throw fail('not_found', `no ${type} ${id}`);
  return row;
}
