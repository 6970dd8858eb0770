// Sign-in's realms and records as plain types, shared by identity's repository and the modules that sign people in.

export interface Realm {
  readonly kind: 'owner' | 'partner';
  readonly accounts: string;
  readonly sessions: string;
  readonly links: string;
  /** The column of sessions and links that names the account. */
  readonly fk: string;
}

export const OWNERS: Realm = { kind: 'owner', accounts: 'users', sessions: 'sessions', links: 'sign_in_links', fk: 'user_id' };

export const PARTNERS: Realm = {
  kind: 'partner',
  accounts: 'partner_accounts',
  sessions: 'partner_sessions',
  links: 'partner_links',
  fk: 'account_id',
};

export const REALMS: readonly Realm[] = [OWNERS, PARTNERS];

/** What both kinds of account hold for signing in. */
export interface Credentials {
  id: string;
  email: string | null;
  email_norm: string | null;
  password_hash: string | null;
  /** Failed or unfinished password checks since the last good one. */
  failed_count: number;
  locked_until: number | null;
}
