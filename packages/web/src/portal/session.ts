// The signed-in partner, their partnerships, and which one the pages show (?p= in the URL).

import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Answer } from '../common/api.js';

/** The signed-in partner (the route answers `data: null` to a signed-out browser). */
export type Account = NonNullable<Answer<'/v1/portal/account'>['data']>;
export type Partnership = Answer<'/v1/portal/partnerships'>['data'][number];

export interface PortalSession {
  account: Account;
  partnerships: Partnership[];
  /** The partnership the pages show. */
  current: Partnership | undefined;
  refresh: () => void;
}

export const PortalContext = createContext<PortalSession | null>(null);

export function usePortal(): PortalSession {
  const value = useContext(PortalContext);
  if (!value) throw new Error('usePortal outside the signed-in shell');
  return value;
}

export const BASE = '/portal';
/** A portal path, keeping the partnership shown. */
export const href = (path: string, partnership?: string): string =>
  `${BASE}${path}${partnership ? `?p=${encodeURIComponent(partnership)}` : ''}`;
