// The audit log's records as plain types (docs/audit.md).

/** Who made a change: a member of the team (owner, admin), a partner (portal, embed), an API token, a `tally` command (the OS user), or Tally itself. */
export const ACTOR_KINDS = ['user', 'partner', 'token', 'cli', 'system'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

export interface Actor {
  kind: ActorKind;
  /** The user's, partner account's, partner's (embed) or token's id. */
  id: string | null;
  /** What the dashboard shows: the user's or partner's e-mail, the token's label. */
  label: string | null;
}

/** One entry as written: what happened, to what, and from where. */
export interface AuditEntry {
  programId: string;
  actor: Actor;
  /** `<target type>.<verb>`: partner.update, payout_run.approve. */
  action: string;
  targetType: string;
  targetId: string | null;
  /** The target as its read route showed it before and after, secrets redacted; null where there is none. */
  before: unknown;
  after: unknown;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  createdAt: number;
}

export interface AuditRow {
  id: string;
  program_id: string;
  actor_kind: ActorKind;
  actor_id: string | null;
  actor_label: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  before_data: string | null;
  after_data: string | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  created_at: number;
  erased_at: number | null;
}
