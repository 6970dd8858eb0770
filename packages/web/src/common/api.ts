// The one way the web apps talk to the collector: the /v1 API, with the session cookie
// (same origin), typed from /openapi.json (api.d.ts, generated). An error answer becomes
// an ApiError carrying the API's own sentence; a lost session sends the person to sign in.

import type { paths } from '../api.js';

type Method = 'get' | 'post' | 'patch' | 'delete';
type Content<R> = R extends { content: { 'application/json': infer T } } ? T : undefined;
/** The JSON of an operation's success answer, whichever 2xx it documents. */
type Success<Op> = Op extends { responses: infer R }
  ? Content<R extends { 200: infer A } ? A : R extends { 201: infer A } ? A : R extends { 202: infer A } ? A : never>
  : never;
type Body<Op> = Op extends { requestBody: { content: { 'application/json': infer B } } } ? B : undefined;

export type Path = keyof paths;
export type Answer<P extends Path, M extends Method = 'get'> = Success<paths[P][M]>;
export type RequestBody<P extends Path, M extends Method> = Body<paths[P][M]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly retryAfter?: number,
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

/** A 401: the session is missing or gone. */
export const isSignedOut = (err: unknown): boolean => err instanceof ApiError && err.status === 401;

/** `path` may carry a query string: the template's parameters are filled in by the caller. */
export async function api<P extends Path, M extends Method = 'get'>(
  method: M,
  template: P,
  path: string = template,
  body?: RequestBody<P, M>,
): Promise<Answer<P, M>> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: method.toUpperCase(),
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network', 'The collector could not be reached. Check the connection and try again.');
  }
  if (res.status === 204) return undefined as Answer<P, M>;
  const json = (await res.json().catch(() => undefined)) as
    | { errors?: Array<{ code: string; detail: string; source?: { pointer?: string; parameter?: string } }> }
    | undefined;
  if (!res.ok) {
    const first = json?.errors?.[0];
    // A wrong password or a used link is not a lost session.
    if (res.status === 401 && !/\/auth\/(sign_in|redeem)$/.test(path) && !path.startsWith('/v1/public/')) onSignedOut();
    const field = first?.source?.pointer?.slice(1) ?? first?.source?.parameter;
    const retry = Number(res.headers.get('retry-after')) || undefined;
    throw new ApiError(res.status, first?.code ?? 'error', first?.detail ?? `The collector answered ${res.status}.`, field, retry);
  }
  return json as Answer<P, M>;
}

/** A message for a person, from whatever was thrown. */
export function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  // The API's sentences start lower-case, to fit inside a longer one; shown alone, each starts a sentence.
  return text.charAt(0).toUpperCase() + text.slice(1);
}
