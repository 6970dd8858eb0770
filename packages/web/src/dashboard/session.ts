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

/** The signed-in member's role in the program shown: what the page offers them (the API decides). */
export function useRole(): Session['attributes']['programs'][number]['role'] | undefined {
  const { session } = useSession();
  return session.attributes.programs.find((p) => p.id === session.attributes.program_id)?.role;
}
