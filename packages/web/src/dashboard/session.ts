// Who is signed in, and for which program: read once, shared by every page.

import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Answer } from '../common/api.js';

/** The signed-in session (the route answers `data: null` to a signed-out browser). */
export type Session = NonNullable<Answer<'/v1/auth/session'>['data']>;

export const SessionContext = createContext<{ session: Session; refresh: () => void } | null>(null);

export function useSession(): { session: Session; refresh: () => void } {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside the signed-in shell');
  return value;
}

/** The app's own paths, under /dashboard. */
export const BASE = '/dashboard';
export const href = (path: string): string => `${BASE}${path}`;
