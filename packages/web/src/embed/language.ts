// The embed's words (locales/*.ts) through the web apps' translator (common/i18n.ts): the
// partner's choice, else the browser's, else the program's default. English is in the
// bundle; another language is fetched once, when first spoken.

import { type Locale, translator } from '../common/i18n.js';
import en from './locales/en.js';

const embed = translator<typeof en>({
  en,
  de: () => import('./locales/de.js'),
  fr: () => import('./locales/fr.js'),
  es: () => import('./locales/es.js'),
});

export const t = embed.t;
export const spoken = embed.locale;

/** Speaks `locale` from now on (the caller renders again once it resolves). */
export async function speak(locale: Locale): Promise<void> {
  await embed.use(locale);
  document.title = t('title');
}
