// The words of the dashboard's payouts: the Payouts page and its runs, and the PayPal app and
// payout methods under Settings → Integrations (settings.tsx, shown there, kept with the
// payouts). A part of its catalogue with its own (locales/), loaded with either page.

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
export const { t, tx } = part('payouts', CATALOGUES);
