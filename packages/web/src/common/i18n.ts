// Translation for the partner-facing apps (the portal, the public page, the embed) with
// i18next: each app passes its catalogues (its own locales/*.ts) and gets `t`. The language
// is the partner's choice, else the browser's, else the program's default; numbers, money
// and dates follow it through format.ts. The owner's dashboard stays English.

import i18next, { type i18n, type TFunction } from 'i18next';

export const LOCALES = ['en', 'de', 'fr', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

/** A catalogue with the same keys as English, each holding its own words. */
export type Catalogue<T> = { [K in keyof T]: T[K] extends string ? string : Catalogue<T[K]> };

const localeOf = (tag: string | null | undefined): Locale | undefined => {
  const base = tag?.toLowerCase().split(/[-_]/)[0];
  return (LOCALES as readonly string[]).includes(base ?? '') ? (base as Locale) : undefined;
};

/** The partner's choice, else the first browser language we have, else the program's. */
export function pickLocale(
  chosen?: string | null,
  programDefault?: string | null,
  browser: readonly string[] = navigator.languages,
): Locale {
  return localeOf(chosen) ?? browser.map(localeOf).find((l) => l !== undefined) ?? localeOf(programDefault) ?? 'en';
}

export interface Translator {
  t: TFunction;
  locale: () => Locale;
  /** Switches every later `t` (the caller re-renders). */
  use(locale: Locale): Promise<void>;
}

export function translator(catalogues: Record<Locale, object>, locale: Locale): Translator {
  const instance: i18n = i18next.createInstance();
  void instance.init({
    lng: locale,
    fallbackLng: 'en',
    initAsync: false,
    resources: Object.fromEntries(LOCALES.map((l) => [l, { translation: catalogues[l] }])),
    interpolation: { escapeValue: false }, // Preact escapes what it renders
  });
  return {
    t: ((...args: Parameters<TFunction>) => instance.t(...args)) as TFunction,
    locale: () => instance.language as Locale,
    use: async (l) => {
      await instance.changeLanguage(l);
      document.documentElement.lang = l;
    },
  };
}
