// Referral slugs: a partnership's key and its competitor slugs (docs/api.md §15).

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9_-]{1,63}$/;

/** Slugs are matched in lowercase, so `?red=Alice` and `?red=alice` credit the same partner. */
export function normalizeSlug(raw: string): string {
  return raw.trim().toLowerCase();
}

/** A key made from a partner's name: "Zoë O'Brien" becomes "zoe-o-brien". */
export function slugFromName(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 56)
    .replace(/-+$/, '');
  return base.length >= 2 ? base : `partner${base ? `-${base}` : ''}`;
}
