// The languages Tally speaks to partners (the portal, the public page, the embed, the
// e-mails), and which one a person gets: the one they chose, else the program's default
// (the web apps put the browser's between them, packages/web/src/common/i18n.ts). The
// owner's dashboard is English.

export const LOCALES = ['en', 'de', 'fr', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/** `de-AT` → `de`; undefined for a language we do not have. */
export function localeOf(tag: string | null | undefined): Locale | undefined {
  const base = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return isLocale(base) ? base : undefined;
}
