// The links module's records as plain types: a partner's links and the program's rules for them.

export const LINK_STATUSES = ['pending_approval', 'active', 'disabled'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

/** The UTM parameters a link carries, by name (utm_source, …); each optional. */
export const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
export type Utm = Partial<Record<(typeof UTM_FIELDS)[number], string>>;

/** Which characters a chosen key may have (compared in lowercase, as every slug). */
export const KEY_CHARACTERS = ['letters_digits', 'letters_digits_dash'] as const;
export type KeyCharacters = (typeof KEY_CHARACTERS)[number];

export interface LinkRow {
  id: string;
  program_id: string;
  partnership_id: string;
  key: string;
  /** An address on one of the program's allowed origins. */
  destination: string;
  /** JSON of Utm: the program's template with what the link filled in. */
  utm: string;
  status: LinkStatus;
  created_by: 'company' | 'partner';
  created_at: number;
  updated_at: number;
}

export interface LinkSettingsRow {
  program_id: string;
  /** JSON of Utm: the program's template; `{key}` in a value is the link's key. */
  utm: string;
  custom_keys: number;
  key_min_length: number;
  key_max_length: number;
  key_characters: KeyCharacters;
  /** JSON array of lowercase keys no partner may choose. */
  reserved_keys: string;
  approval_required: number;
  updated_at: number;
}

export interface LinkStats {
  clicks: number;
  referrals: number;
  /** Referrals that paid (paid, or churned after paying). */
  conversions: number;
}
