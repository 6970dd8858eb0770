// Who a statement is on behalf of, for reads from a replica that still see the caller's own
// writes (postgres.ts, docs/scaling.md): the API runs each authenticated request's handler
// in a scope naming its caller (a token or a session) and whether its reads may go to a
// replica (lists and statistics). The driver reads the scope; nothing else does.

import { AsyncLocalStorage } from 'node:async_hooks';

export interface CallerScope {
  /** A token's id or a session's, as the API names them. */
  caller: string;
  /** The request only reads (a list, the statistics): a replica may answer it. */
  replica: boolean;
}

const scope = new AsyncLocalStorage<CallerScope>();

export function asCaller<T>(caller: string | undefined, replica: boolean, fn: () => Promise<T>): Promise<T> {
  return caller === undefined ? fn() : scope.run({ caller, replica }, fn);
}

export const currentCaller = (): CallerScope | undefined => scope.getStore();
