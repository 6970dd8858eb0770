// E-mail rules of design/api.md §6. Matching and uniqueness use the normalized form;
// the stored attribute keeps what was sent.

export const EMAIL_MAX = 254;

// Whitespace, C0/C1 controls, DEL, and the Unicode line and paragraph separators.
const FORBIDDEN = /[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

// Anywhere, also where trimming would remove it: a trailing newline is not whitespace to keep.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export function isValidEmail(raw: string): boolean {
  const email = raw.trim();
  if (email.length === 0 || email.length > EMAIL_MAX || FORBIDDEN.test(email) || CONTROL.test(raw)) return false;
  const at = email.indexOf('@');
  return at > 0 && at === email.lastIndexOf('@') && at < email.length - 1;
}

/** Trim, and lowercase the domain only: the local part may be case-sensitive. */
export function normalizeEmail(raw: string): string {
  const email = raw.trim();
  const at = email.lastIndexOf('@');
  return at < 0 ? email : email.slice(0, at) + email.slice(at).toLowerCase();
}
