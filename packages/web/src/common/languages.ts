// The languages partners read Tally in (core/locale.ts on the server), each named in
// itself for a select. Apart from i18n.ts, so the dashboard's program settings name them
// without loading i18next.

export const LOCALES = ['en', 'de', 'fr', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

export const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español' };
