// The words of the portal's two-step sign-in (its page and its panel in Settings): a part of
// the portal's catalogue with its own (locales/), in the portal's language, loaded with them.

import type { Catalogues } from '../../common/i18n.js';
import { part } from '../language.js';
import en from './locales/en.js';

const CATALOGUES: Catalogues<typeof en> = {
  en,
  de: () => import('./locales/de.js'),
  fr: () => import('./locales/fr.js'),
  es: () => import('./locales/es.js'),
};

export const t = part('security', CATALOGUES);
