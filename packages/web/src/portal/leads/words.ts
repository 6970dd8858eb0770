// The words of the partner's leads page: a part of the portal's catalogue with its own (locales/), in the portal's language.

import type { Catalogues } from '../../common/i18n.js';
import { part } from '../language.js';
import en from './locales/en.js';

const CATALOGUES: Catalogues<typeof en> = {
  en,
  de: () => import('./locales/de.js'),
  fr: () => import('./locales/fr.js'),
  es: () => import('./locales/es.js'),
};

/** Fetched with the portal's own words (language.ts). */
export const t = part('leads', CATALOGUES);
