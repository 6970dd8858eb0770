// The one way the web apps talk to the collector: the /v1 API, with the session cookie
// (same origin), typed from /openapi.json (api.d.ts, generated) through openapi-fetch,
// which fills in path parameters and query strings, each encoded, so no caller builds a
// URL by hand. An error answer becomes an ApiError carrying the API's own sentence; a lost
// session sends the person to sign in.

import createClient, {
  createFinalURL,
  createQuerySerializer,
  defaultPathSerializer,
  type ClientPathsWithMethod,
  type MaybeOptionalInit,
} from 'openapi-fetch';
import type { paths } from '../api.js';
import { say } from './words.js';

type Method = 'get' | 'post' | 'patch' | 'delete';
type Content<R> = R extends { content: { 'application/json': infer T } } ? T : undefined;
/** The JSON of an operation's success answer, whichever 2xx it documents. */
type Success<Op> = Op extends { responses: infer R }
  ? Content<R extends { 200: infer A } ? A : R extends { 201: infer A } ? A : R extends { 202: infer A } ? A : never>
  : never;
type Body<Op> = Op extends { requestBody: { content: { 'application/json': infer B } } } ? B : undefined;

const client = createClient<paths>({ credentials: 'same-origin' });

export type Path = keyof paths;
/** The routes that answer `method`. */
export type PathOf<M extends Method> = ClientPathsWithMethod<typeof client, M>;
export type Answer<P extends Path, M extends Method = 'get'> = Success<paths[P][M]>;
export type RequestBody<P extends Path, M extends Method> = Body<paths[P][M]>;
/** A call's options as openapi-fetch types them: `params.path`, `params.query`, `body`, and fetch's own (`signal`). */
type Init<P extends Path, M extends Method> = MaybeOptionalInit<paths[P], M>;
/** The options may be left out when the route needs neither parameters nor a body. */
type Args<I> = undefined extends I ? [init?: I] : [init: I];

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly retryAfter?: number,
    /** The error's facts (a duplicate lead's `reason`), as the API gives them. */
    readonly meta?: Record<string, unknown>,
  ) {
    super(message);
  }
}

let onSignedOut: () => void = () => {};
/**
 * What happens when the API says the session is gone (the app's shell sends the person to
 * sign in); the function returned stops it, so a shell that is gone sends nobody anywhere.
 */
export function whenSignedOut(handler: () => void): () => void {
  onSignedOut = handler;
  return () => {
    if (onSignedOut === handler) onSignedOut = () => {};
  };
}

let onRefused: ((error: { code?: string; meta?: Record<string, unknown> }) => Promise<boolean>) | undefined;
/** Who may settle a refusal, the call then made once more: the step-up prompt (403 step_up_required), which knows its code (the embed carries no such words). */
export const whenRefused = (handler: typeof onRefused): void => {
  onRefused = handler;
};

/** A 401: the session is missing or gone. */
export const isSignedOut = (err: unknown): boolean => err instanceof ApiError && err.status === 401;

type ErrorAnswer =
  | { errors?: Array<{ code: string; detail: string; source?: { pointer?: string; parameter?: string }; meta?: Record<string, unknown> }> }
  | undefined;

async function call(method: Method, path: string, init: { signal?: AbortSignal | null } | undefined): Promise<unknown> {
  let result: { data?: unknown; error?: unknown; response: Response };
  try {
    result = await client.request(method, path as never, init as never);
  } catch (err) {
    // Given up on by its caller (the page changed): passed on as it is, for the caller to ignore.
    if (init?.signal?.aborted) throw err;
    throw new ApiError(0, 'network', say('api.unreachable'));
  }
  const { data, error, response: res } = result;
  if (res.ok) return data;
  const first = typeof error === 'object' ? (error as ErrorAnswer)?.errors?.[0] : undefined;
  // A wrong password, code or a used link is not a lost session.
  if (
    res.status === 401 &&
    first?.code !== 'invalid_credentials' &&
    !/\/auth\/(sign_in|redeem)$/.test(path) &&
    !path.startsWith('/v1/public/')
  )
    onSignedOut();
  if (first && (await onRefused?.(first))) return call(method, path, init);
  const field = first?.source?.pointer?.slice(1) ?? first?.source?.parameter;
  const retry = Number(res.headers.get('retry-after')) || undefined;
  throw new ApiError(
    res.status,
    first?.code ?? 'error',
    first?.detail ?? say('api.answered', { status: res.status }),
    field,
    retry,
    first?.meta,
  );
}

const method =
  <M extends Method>(m: M) =>
  <P extends PathOf<M>>(path: P, ...init: Args<Init<P, M>>): Promise<Answer<P, M>> =>
    call(m, path, init[0] as { signal?: AbortSignal } | undefined) as Promise<Answer<P, M>>;

/**
 * The API, one function per method, as openapi-fetch's client names them: the route's
 * template, then its parameters and body, e.g.
 * `api.PATCH('/v1/members/{id}', { params: { path: { id } }, body: { role } })`.
 * Each resolves to the answer's JSON, or rejects with an ApiError.
 */
export const api = { GET: method('get'), POST: method('post'), PATCH: method('patch'), DELETE: method('delete') };

/** The address of a GET route, for a link the browser follows itself (a file to download), encoded as calls are. */
export const apiHref = <P extends PathOf<'get'>>(path: P, params: NonNullable<Init<P, 'get'>>['params']): string =>
  createFinalURL(path, {
    baseUrl: '',
    params: params ?? {},
    querySerializer: createQuerySerializer(),
    pathSerializer: defaultPathSerializer,
  });

/** A message for a person, from whatever was thrown. */
export function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  // The API's sentences start lower-case, to fit inside a longer one; shown alone, each starts a sentence.
  return text.charAt(0).toUpperCase() + text.slice(1);
}
