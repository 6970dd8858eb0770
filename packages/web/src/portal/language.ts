// The portal's words (locales/*.ts) and which language it speaks: the partner's choice,
// else the browser's, else the program's default (docs/languages.md). `t` reads the words;
// `tx` puts elements (a link, a bold name) where a sentence names them; `useLanguage`
// switches the language once the partner or the program is known, and re-renders
// (common/app-language.ts, shared with the embed).

import { appLanguage } from '../common/app-language.js';
import { pickLocale, type Key, translator } from '../common/i18n.js';
import en from './locales/en.js';

export type PortalKey = Key<typeof en>;

const portal = translator<typeof en>({
  en,
  de: () => import('./locales/de.js'),
  fr: () => import('./locales/fr.js'),
  es: () => import('./locales/es.js'),
});

export const t = portal.t;
/** A part of the portal with a catalogue of its own: `part('notifications', { en, de: () => import(…), … })` gives its `t`. */
export const part = portal.part;

/** A state in words: `key` names it in the catalogue (a template such as referralState.<state>, which marks referralState.* used); else the API's word. */
export const stateWord = (key: string, state: string): string => t(key as PortalKey, { defaultValue: state });

const language = appLanguage(portal, 'app.title');
export const { speak, tx, useLanguage } = language;

/**
 * A page loaded later (app.tsx's lazy pages) brings parts of its own: their words in the
 * language last asked for (a switch may be under way, its list of parts made without them), before it renders.
 */
export const withItsWords = <C>(page: C): Promise<C> => speak(language.asked()).then(() => page);

/** The browser's language before anything else is known: main.tsx renders once it is loaded (every part's module has loaded by then). */
export const start = (): Promise<void> => speak(pickLocale()).catch(() => undefined);
