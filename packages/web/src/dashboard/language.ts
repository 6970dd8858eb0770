// The dashboard's words (locales/*.ts) and which language it speaks: the owner's choice,
// saved on their account, else the browser's, else English (docs/languages.md). The same
// translator and switch as the portal's (common/i18n.ts, common/app-language.ts); a page
// loaded later brings its words as a part (`part('groups', …)`, fetched with the page).

import type { ComponentChildren } from 'preact';
import { appLanguage, sentence } from '../common/app-language.js';
import { type Catalogues, pickLocale, type Key, translator } from '../common/i18n.js';
import en from './locales/en.js';

export type DashboardKey = Key<typeof en>;

const dashboard = translator<typeof en>({
  en,
  de: () => import('./locales/de.js'),
  fr: () => import('./locales/fr.js'),
  es: () => import('./locales/es.js'),
});

export const t = dashboard.t;

/**
 * A part of the dashboard with a catalogue of its own (a page loaded later, its words in its
 * chunk): its `t` and `tx`, in the dashboard's language.
 */
export function part<P extends object>(ns: string, catalogues: Catalogues<P>) {
  const say = dashboard.part(ns, catalogues);
  return { t: say, tx: (key: Key<P>, slots: Record<string, ComponentChildren>) => sentence(say, key, slots) };
}

/** A state in words: `key` names it (a template such as `state.${s}`, which marks state.* used); else the API's word. */
export const stateWord = (key: string, state: string): string => t(key as DashboardKey, { defaultValue: state });

const language = appLanguage(dashboard, 'app.title');
export const { speak, tx, useLanguage } = language;

/** A page loaded later: its part's words in the language last asked for, before it renders. */
export const withItsWords = <C>(page: C): Promise<C> => speak(language.asked()).then(() => page);

/** The browser's language before the owner is known: main.tsx renders once it is loaded. */
export const start = (): Promise<void> => speak(pickLocale()).catch(() => undefined);
