// The payout-method and tax-form panels' words, a part of each app's catalogue (the portal's
// and the embed's `part('payout', PAYOUT_WORDS)`), in the app's language.

import type { Catalogues } from '../i18n.js';
import en from './locales/en.js';

export const PAYOUT_WORDS: Catalogues<typeof en> = {
  en,
  de: () => import('./locales/de.js'),
  fr: () => import('./locales/fr.js'),
  es: () => import('./locales/es.js'),
};
