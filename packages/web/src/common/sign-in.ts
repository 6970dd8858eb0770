// Where a signed-out person is sent, and where signing in takes them back: the page they
// wanted, if it is one of the app's own pages behind sign-in. Never the sign-in page itself
// or a one-time link's page (without its token in the fragment, that one is useless).

import { useEffect } from 'preact/hooks';
import { whenSignedOut } from './api.js';

const OUTSIDE = ['/sign-in', '/welcome', '/reset'];

/** `target` (a path with its query) is a page of the app under `base` that needs a session. */
function behindSignIn(base: string, target: string | undefined): target is string {
  if (!target?.startsWith(`${base}/`)) return false;
  const path = target.split(/[?#]/, 1)[0];
  return !OUTSIDE.some((p) => path === `${base}${p}`);
}

/** The sign-in page, with `next` the page the person wanted when there is one to go back to. */
export const signInHref = (base: string, wanted: string): string =>
  behindSignIn(base, wanted) ? `${base}/sign-in?next=${encodeURIComponent(wanted)}` : `${base}/sign-in`;

/** Where signing in leads: `next` when it is a page behind sign-in, else `home`. */
export const afterSignIn = (base: string, next: string | undefined, home: string): string => (behindSignIn(base, next) ? next : home);

/**
 * While the signed-in shell is up: a 401 from any call (a session that ended) sends the
 * person to sign in once, and back here afterwards. Several calls fail together; the
 * first one's redirect must not be followed by others made from the sign-in page.
 */
export function useLostSession(base: string, route: (url: string, replace?: boolean) => void): void {
  useEffect(() => {
    let sent = false;
    return whenSignedOut(() => {
      if (sent) return;
      sent = true;
      route(signInHref(base, location.pathname + location.search));
    });
  }, []);
}
