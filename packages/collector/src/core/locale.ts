// The languages Tally speaks to partners (the portal, the public page, the embed, the
// e-mails), and which one a person gets: the one they chose, else the first their browser
// asks for that we have, else the program's default. The owner's dashboard is English.

export const LOCALES = ['en', 'de', 'fr', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/** `de-AT` → `de`; undefined for a language we do not have. */
export function localeOf(tag: string | null | undefined): Locale | undefined {
  const base = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return isLocale(base) ? base : undefined;
}

/** The languages of an `Accept-Language` header we have, best first (RFC 9110 §12.5.4 weights). */
export function fromAcceptLanguage(header: string | undefined): Locale[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { locale: localeOf(tag), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((l): l is { locale: Locale; q: number; i: number } => l.locale !== undefined && l.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((l) => l.locale);
}

/** The partner's choice, else the browser's, else the program's. */
export function pickLocale(
  chosen: string | null | undefined,
  acceptLanguage: string | undefined,
  programDefault: string | null | undefined,
): Locale {
  return localeOf(chosen) ?? fromAcceptLanguage(acceptLanguage)[0] ?? localeOf(programDefault) ?? 'en';
}
