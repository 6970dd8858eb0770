// The API's one error shape (docs/api.md §7) as a typed error: every helper throws it, and
// `unwrap` turns any call of the typed client into its data or this error.

import type { components } from './api.js';

/** One error of an answer, as /openapi.json describes it. */
export type ErrorObject = components['schemas']['Error']['errors'][number];
/** Every code the API answers with (`referral_exists`, `invalid_email`, …). */
export type ErrorCode = ErrorObject['code'];

export class TallyError extends Error {
  override readonly name = 'TallyError';
  /**
   * The first error's code, title and detail; `errors` has them all. `network_error`: no answer
   * came; `unexpected_answer`: one not in the API's shape (a proxy's page), with its status.
   */
  readonly code: ErrorCode | 'network_error' | 'unexpected_answer';
  readonly title: string;
  readonly detail: string;
  /** The field (`/email`) or query parameter the error is about, when the API names one. */
  readonly pointer: string | undefined;
  readonly parameter: string | undefined;
  /** The error's facts: a duplicate lead's `reason`, a 5xx's `request_id`. */
  readonly meta: Record<string, unknown> | undefined;
  /** Seconds to wait, from `Retry-After` (429, 503). */
  readonly retryAfter: number | undefined;

  constructor(
    /** The HTTP status; 0 when no answer came. */
    readonly status: number,
    readonly errors: readonly ErrorObject[],
    retryAfter?: number,
    cause?: unknown,
  ) {
    const first = errors[0];
    const reason = status === 0 ? `no answer from Tally${cause instanceof Error ? `: ${cause.message}` : ''}` : `HTTP ${status}`;
    super(first ? `${first.code}: ${first.detail}` : reason, { cause });
    this.code = first?.code ?? (status === 0 ? 'network_error' : 'unexpected_answer');
    this.title = first?.title ?? '';
    this.detail = first?.detail ?? '';
    this.pointer = first?.source?.pointer;
    this.parameter = first?.source?.parameter;
    this.meta = first?.meta;
    this.retryAfter = retryAfter;
  }
}

/** The error an answer carries; a body that is not the API's shape (a proxy's page) keeps only the status. */
export function errorOf(response: Response, body: unknown): TallyError {
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  const retryAfter = Number(response.headers.get('retry-after')) || undefined;
  return new TallyError(response.status, Array.isArray(errors) ? (errors as ErrorObject[]) : [], retryAfter);
}

type Result<D> = { data?: D; error?: unknown; response: Response };

/** A call's result and its answer, or a TallyError: status 0 and `network_error` when no answer came (the cause kept). */
export async function answered<D>(call: Promise<Result<D>>): Promise<{ data: D; response: Response }> {
  let result: Result<D>;
  try {
    result = await call;
  } catch (err) {
    throw new TallyError(0, [], undefined, err);
  }
  if (!result.response.ok) throw errorOf(result.response, result.error);
  return { data: result.data as D, response: result.response };
}

/** A call of the typed client: its data when it succeeded, else a TallyError thrown. */
export async function unwrap<D>(call: Promise<Result<D>>): Promise<D> {
  return (await answered(call)).data;
}
