// Translation for the partner-facing apps (the portal, the public page, the embed) with
// i18next: each app passes its catalogues (its own locales/*.ts) and gets `t`; the shared
// components (common/locales, through words.ts) follow the same language. The language is
// the partner's choice, else the browser's, else the program's default; numbers, money and
// dates follow it through format.ts. The owner's dashboard stays English and never loads this.

import i18next, { type i18n } from 'i18next';
import { setFormatLocale } from './format.js';
import { LOCALES, type Locale } from './languages.js';
import commonEn from './locales/en.js';
import { type Catalogue, type Key, setSay, type Vars } from './words.js';

export type { Catalogue, Key } from './words.js';
export { LANGUAGE_NAMES, LOCALES, type Locale } from './languages.js';

/**
 * An app's catalogues: English in the bundle, each other language its own chunk, fetched
 * when first spoken (a visitor loads one language, not four).
 */
export type Catalogues<E> = { en: E } & { [L in Exclude<Locale, 'en'>]: () => Promise<{ default: Catalogue<E> }> };

const COMMON: Catalogues<typeof commonEn> = {
  en: commonEn,
  de: () => import('./locales/de.js'),
  fr: () => import('./locales/fr.js'),
  es: () => import('./locales/es.js'),
};

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

export interface Translator<E> {
  /** The app's words by key (tsc checks the key against English). */
  t: (key: Key<E>, vars?: Vars) => string;
  locale: () => Locale;
  /** Fetches the language's words if need be, then switches every later `t`, the shared components' words, formats and `<html lang>` (the caller re-renders). */
  use(locale: Locale): Promise<void>;
  /**
   * The `t` of a part of the app with a catalogue of its own (portal/notifications/locales),
   * under the namespace `ns`, in the app's language: made when its module loads, so each
   * `use` fetches its words with the app's (a page loaded later calls `use` again first).
   */
  part<P extends object>(ns: string, catalogues: Catalogues<P>): (key: Key<P>, vars?: Vars) => string;
}

/** Numbers and dates in the browser's own variant of the language when it has one (de-CH, fr-CA), else the language. */
const formatTag = (l: Locale, browser: readonly string[] = navigator.languages): string => browser.find((tag) => localeOf(tag) === l) ?? l;

/** An i18next of the app's catalogues (namespace `translation`) and the shared components' (`common`), speaking English until `use`. */
export function translator<E extends object>(catalogues: Catalogues<E>): Translator<E> {
  const instance: i18n = i18next.createInstance();
  void instance.init({
    lng: 'en',
    fallbackLng: 'en',
    initAsync: false,
    ns: ['translation', 'common'],
    resources: { en: { translation: catalogues.en, common: COMMON.en } },
    interpolation: { escapeValue: false }, // Preact escapes what it renders
  });
  setSay((key, vars) => instance.t(key, { ...vars, ns: 'common' }));
  // Every namespace's catalogues: the app's, the shared components', and its parts'.
  const namespaces = new Map<string, Catalogues<object>>([
    ['translation', catalogues],
    ['common', COMMON],
  ]);
  return {
    t: (key, vars) => instance.t(key, vars ?? {}),
    locale: () => instance.language as Locale,
    part: (ns, own) => {
      namespaces.set(ns, own);
      instance.addResourceBundle('en', ns, own.en);
      return (key, vars) => instance.t(key, { ...vars, ns });
    },
    use: async (l) => {
      if (l !== 'en') {
        const missing = [...namespaces].filter(([ns]) => !instance.hasResourceBundle(l, ns));
        const loaded = await Promise.all(missing.map(async ([ns, c]) => [ns, (await c[l]()).default] as const));
        for (const [ns, words] of loaded) instance.addResourceBundle(l, ns, words);
      }
      await instance.changeLanguage(l);
      document.documentElement.lang = l;
      setFormatLocale(formatTag(l));
    },
  };
}
