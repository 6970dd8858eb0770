// The embed's words (locales/*.ts) through the web apps' translator (common/i18n.ts) and the
// portal's language switch (common/app-language.ts): the partner's choice, else the
// browser's, else the program's default. English is in the bundle; another language is
// fetched once, when first spoken.

import { appLanguage } from '../common/app-language.js';
import { translator } from '../common/i18n.js';
import en from './locales/en.js';

const embed = translator<typeof en>({
  en,
  de: () => import('./locales/de.js'),
  fr: () => import('./locales/fr.js'),
  es: () => import('./locales/es.js'),
});

export const t = embed.t;
/** A part with a catalogue of its own (the payout panels, common/payment/). */
export const part = embed.part;

/** Speaks `locale` from now on (the last asked for wins; the caller renders again once it resolves); `asked`: the language last asked for. */
export const { speak, asked } = appLanguage(embed, 'title');
