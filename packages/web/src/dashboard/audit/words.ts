// The words of the dashboard's audit log: a part of its catalogue with its own (locales/),
// loaded with the page, in the dashboard's language.

import type { Catalogues } from '../../common/i18n.js';
import { part } from '../language.js';
import en from './locales/en.js';

const CATALOGUES: Catalogues<typeof en> = {
  en,
  de: () => import('./locales/de.js'),
  fr: () => import('./locales/fr.js'),
  es: () => import('./locales/es.js'),
};

/** Fetched with the dashboard's own words (language.ts). */
export const { t, tx } = part('audit', CATALOGUES);
