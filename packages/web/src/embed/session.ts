// The embed's session: the one-time token in the page's address is traded for a bearer
// session kept in this module's memory only. No cookie: inside another site's iframe the
// browser would not send one (third-party cookies are blocked), and no storage either, so
// the session ends with the page. The token leaves the address bar as soon as it is read.

import { type Answer, api } from '../common/api.js';

export type Partnership = Answer<'/v1/embed/partnership'>['data'];
export type Account = Answer<'/v1/embed/account'>['data'];

let bearer: string | undefined;

/** The token of the page's address, taken out of it (a reload cannot use it twice anyway). */
export function takeToken(): string | undefined {
  const url = new URL(location.href);
  const token = url.searchParams.get('token') ?? undefined;
  if (token) {
    url.searchParams.delete('token');
    history.replaceState(history.state, '', url);
  }
  return token;
}

/** Trades the token for the session; rejects (401) when it is unknown, used or expired. */
export async function openSession(token: string): Promise<void> {
  const made = await api.POST('/v1/embed/sessions', { body: { token } });
  bearer = made.data.attributes.token;
}

/** The session's header, for every call of the embed's routes. */
export const auth = (): { headers: { Authorization: string } } => ({ headers: { Authorization: `Bearer ${bearer ?? ''}` } });
