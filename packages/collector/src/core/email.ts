// E-mail rules of docs/api.md §11, and two of Tally's own: no character that shows
// nothing, and no leading character that makes a spreadsheet cell a formula. Matching and
// uniqueness use the normalized form; the stored attribute keeps what was sent.

export const EMAIL_MAX = 254;

// Whitespace, C0/C1 controls, DEL, and the Unicode line and paragraph separators.
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const FORBIDDEN = /[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

// Anywhere, also where trimming would remove it: a trailing newline is not whitespace to keep.
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

// Characters that show nothing or turn the text's direction (zero-width spaces and
// joiners, U+2060–U+2064, the byte-order mark, bidi marks, embeddings, overrides and
// isolates, the soft hyphen, variation selectors, tags): Unicode's format characters and
// default-ignorable code points. They make two addresses that look alike compare unequal,
// which is how a partner would slip past the self-referral rule.
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

// A payout address ends up in a CSV cell, and a cell that starts with one of these is a
// formula to a spreadsheet (OWASP's CSV injection). A leading @ is refused below anyway.
const FORMULA_START = /^[=+\-@]/;

/** Why the address is refused, in words that follow its field's name; undefined if it is taken. */
export function emailProblem(raw: string): string | undefined {
  const email = raw.trim();
  if (INVISIBLE.test(raw)) return 'must not contain invisible or text-direction characters';
  if (FORMULA_START.test(email)) return 'must not start with =, +, - or @';
  if (email.length === 0 || email.length > EMAIL_MAX || FORBIDDEN.test(email) || CONTROL.test(raw)) {
    return 'must be a valid e-mail address';
  }
  const at = email.indexOf('@');
  return at > 0 && at === email.lastIndexOf('@') && at < email.length - 1 ? undefined : 'must be a valid e-mail address';
}

export function isValidEmail(raw: string): boolean {
  return emailProblem(raw) === undefined;
}

/**
 * Trim, compose to NFC (so that "é" typed as e + U+0301 is the same address as "é"),
 * and lowercase the domain only: the local part may be case-sensitive.
 */
export function normalizeEmail(raw: string): string {
  const email = raw.trim().normalize('NFC');
  const at = email.lastIndexOf('@');
  return at < 0 ? email : email.slice(0, at) + email.slice(at).toLowerCase();
}

/** Whether `raw` reaches one of `addresses` by mailbox: a partner's own address, or their PayPal one, in any spelling. */
export function sameMailboxAsAny(raw: string, addresses: readonly (string | null)[]): boolean {
  const self = mailbox(raw);
  return addresses.some((a) => a !== null && mailbox(a) === self);
}

/**
 * The mailbox an address reaches, for the self-referral rule: case-insensitive throughout
 * and without a "+tag", since ALICE@ and alice+x@ reach alice@ at nearly every provider;
 * Gmail's dots too.
 * Not used for uniqueness, where the local part's case and tags still tell people apart.
 */
export function mailbox(raw: string): string {
  const email = normalizeEmail(raw).toLowerCase();
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  const plus = email.indexOf('+');
  const local = plus > 0 && plus < at ? email.slice(0, plus) : email.slice(0, at);
  const domain = email.slice(at + 1);
  // Gmail ignores dots in the mailbox, and googlemail.com is gmail.com.
  return DOTLESS.has(domain) ? `${local.replaceAll('.', '')}@gmail.com` : `${local}@${domain}`;
}

const DOTLESS: ReadonlySet<string> = new Set(['gmail.com', 'googlemail.com']);

/**
 * An address as a partner may see it: the first letter of the mailbox and of the domain,
 * and the top-level domain, "j•••@e•••.com". A partner learns that a customer came, not who.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${[...email][0]}•••@${[...domain][0] ?? ''}•••${tld}`;
}
