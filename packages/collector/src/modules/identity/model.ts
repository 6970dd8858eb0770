// Sign-in's realms and records as plain types, shared by identity's repository and the modules that sign people in.

export interface Realm {
  readonly kind: 'owner' | 'partner';
  readonly accounts: string;
  readonly sessions: string;
  readonly links: string;
  /** The column of sessions and links that names the account. */
  readonly fk: string;
  /** Second factors, recovery codes and sign-in challenges (migration 0051). */
  readonly factors: string;
  readonly recoveryCodes: string;
  readonly challenges: string;
}

export const OWNERS: Realm = {
  kind: 'owner',
  accounts: 'users',
  sessions: 'sessions',
  links: 'sign_in_links',
  fk: 'user_id',
  factors: 'user_factors',
  recoveryCodes: 'user_recovery_codes',
  challenges: 'user_challenges',
};

export const PARTNERS: Realm = {
  kind: 'partner',
  accounts: 'partner_accounts',
  sessions: 'partner_sessions',
  links: 'partner_links',
  fk: 'account_id',
  factors: 'partner_factors',
  recoveryCodes: 'partner_recovery_codes',
  challenges: 'partner_challenges',
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

/** What an account's address is told of (docs/security.md): its factors' changes, and each step-up action done. */
export type SecurityEvent =
  | 'totp_enabled'
  | 'passkey_added'
  | 'factor_disabled'
  | 'recovery_code_used'
  | 'recovery_codes_renewed'
  | 'payout_method_changed'
  | 'payout_run_approved'
  | 'secret_token_created'
  | 'team_changed';
