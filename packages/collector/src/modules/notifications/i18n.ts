// The e-mails' languages with i18next: one instance for the collector, its catalogues in
// locales/ (English the shape of all), a `t` fixed to the recipient's language. Plain
// text in and out (escapeValue off): template.ts escapes for the HTML part itself.

import i18next, { type TFunction } from 'i18next';
import { LOCALES, type Locale } from '../../core/locale.js';
import de from './locales/de.js';
import en from './locales/en.js';
import es from './locales/es.js';
import fr from './locales/fr.js';

const catalogues: Record<Locale, object> = { en, de, fr, es };

const instance = i18next.createInstance();
void instance.init({
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...LOCALES],
  initAsync: false,
  interpolation: { escapeValue: false },
  resources: Object.fromEntries(LOCALES.map((l) => [l, { translation: catalogues[l] }])),
});

/** `t` in `locale`. */
export const translate = (locale: Locale): TFunction => instance.getFixedT(locale);
