// The one error type of the service, in the service's own words: a code that names what
// went wrong, a sentence for a person, and where it went wrong (a field of the input, or
// a query parameter). Every layer throws it; only the HTTP layer (platform/http/errors.ts) turns
// it into a status, a JSON pointer and headers, so the domain and the store speak of
// records and rules, never of HTTP.

/** What kind of failure each code is: the CLI's exit code is decided by it. */
const KINDS = {
  // The request could not be read, or named something the service does not take.
  malformed_json: 'request',
  invalid_parameter: 'request',
  unknown_parameter: 'request',
  payload_too_large: 'request',
  unsupported_media_type: 'request',
  method_not_allowed: 'request',
  bad_request: 'request',
  request_timeout: 'request',
  headers_too_large: 'request',
  // A webhook whose signature does not check out: not from the sender it claims, or too old.
  invalid_signature: 'request',
  // Who is asking: no valid credential, or one that may not do this.
  unauthorized: 'access',
  forbidden: 'access',
  origin_not_allowed: 'access',
  secret_token_in_browser: 'access',
  invalid_credentials: 'access',
  cross_origin_request: 'access',
  // A session must prove its holder again (a code or the password) before this (docs/security.md).
  step_up_required: 'access',
  // The program requires a second factor of its team, and this account has none yet.
  two_factor_required: 'access',
  not_found: 'absent',
  // The input was read, and a rule refused it.
  missing_field: 'rule',
  unknown_field: 'rule',
  invalid_field: 'rule',
  invalid_email: 'rule',
  unattributed: 'rule',
  partnership_declined: 'rule',
  self_referral: 'rule',
  self_recruitment: 'rule',
  unknown_partner: 'rule',
  unknown_referral: 'rule',
  // The records as they are now do not allow it.
  referral_exists: 'conflict',
  // A lead whose person or company the program already has (docs/leads.md): meta.reason says which.
  duplicate_lead: 'conflict',
  invalid_transition: 'conflict',
  idempotency_conflict: 'conflict',
  conflict: 'conflict',
  // Not now: try again later.
  rate_limited: 'later',
  account_locked: 'later',
  unavailable: 'later',
  internal_error: 'internal',
} as const satisfies Record<string, string>;

export type ErrorCode = keyof typeof KINDS;
export type ErrorKind = (typeof KINDS)[ErrorCode];
/** Every code an error answer may carry: /openapi.json lists them, so clients can switch on them. */
export const ERROR_CODES = Object.keys(KINDS) as ErrorCode[];

export function kindOf(code: ErrorCode): ErrorKind {
  return KINDS[code];
}

/** One thing that went wrong. */
export interface Problem {
  code: ErrorCode;
  detail: string;
  /** The input field, as a path: `email`, `allowed_origins/2`. */
  field?: string;
  /** The query parameter. */
  parameter?: string;
  meta?: Record<string, unknown>;
}

export interface FailOptions {
  field?: string;
  parameter?: string;
  meta?: Record<string, unknown>;
  /** Seconds after which the same request may succeed (a held database, a rate limit). */
  retryAfter?: number;
  /** What failed underneath (a driver's error): for the log, never for the answer. */
  cause?: unknown;
  /** Protocol headers the HTTP layer's own refusals carry (Allow, WWW-Authenticate, RateLimit-*). */
  headers?: Record<string, string>;
}

export class ServiceError extends Error {
  readonly problems: readonly Problem[];
  readonly retryAfter: number | undefined;
  readonly headers: Readonly<Record<string, string>>;
  /** Expected errors are the caller's to fix and safe to show (Koa reads this). */
  readonly expose = true;

  constructor(problems: readonly Problem[], opts: Pick<FailOptions, 'retryAfter' | 'cause' | 'headers'> = {}) {
    super(problems[0]?.detail ?? 'error', opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'ServiceError';
    this.problems = problems;
    this.retryAfter = opts.retryAfter;
    this.headers = opts.headers ?? {};
  }

  get code(): ErrorCode {
    return this.problems[0]?.code ?? 'internal_error';
  }

  get kind(): ErrorKind {
    return kindOf(this.code);
  }
}

/** Build the error to throw: `throw fail('not_found', 'no such partner')`. */
export function fail(code: ErrorCode, detail: string, opts: FailOptions = {}): ServiceError {
  const problem: Problem = { code, detail };
  if (opts.field !== undefined) problem.field = opts.field;
  if (opts.parameter !== undefined) problem.parameter = opts.parameter;
  if (opts.meta) problem.meta = opts.meta;
  return new ServiceError([problem], opts);
}

/** The record, or `not_found` naming what was looked for. */
export function found<T>(row: T | undefined, type: string, id: string): T {
  if (row === undefined) throw fail('not_found', `no ${type} ${id}`);
  return row;
}

interface Cause {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

/**
 * One line for a person or the log: each error's code and message down the cause chain.
 * Only "not now" errors come here (connections, locks, disks), whose messages name hosts,
 * files and roles, never a row's values.
 */
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
