// The portal's words (locales/*.ts) and which language it speaks: the partner's choice,
// else the browser's, else the program's default (docs/languages.md). `t` reads the words;
// `tx` puts elements (a link, a bold name) where a sentence names them; `useLanguage`
// switches the language once the partner or the program is known, and re-renders.

import { Fragment, type ComponentChildren, h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { pickLocale, type Key, type Locale, translator } from '../common/i18n.js';
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

const MARK = '\u0001';

/** A sentence with elements in it: `tx('home.group', { group: <strong>…</strong> })`, each slot where its `{{name}}` is. */
export function tx(key: PortalKey, slots: Record<string, ComponentChildren>): ComponentChildren {
  const marked = t(key, Object.fromEntries(Object.keys(slots).map((name) => [name, `${MARK}${name}${MARK}`])));
  return h(
    Fragment,
    null,
    marked.split(MARK).map((part, i) => (i % 2 === 1 ? slots[part] : part)),
  );
}

const listeners = new Set<() => void>();

let asked: Locale | undefined;

/** Speaks `locale` from now on (the last asked for wins); every mounted `useLanguage` re-renders its tree. */
export async function speak(locale: Locale): Promise<void> {
  asked = locale;
  await portal.use(locale);
  // A later call that finished first had switched already: it has the last word.
  if (asked !== locale) await portal.use(asked);
  document.title = t('app.title');
  for (const listener of listeners) listener();
}

/**
 * A page loaded later (app.tsx's lazy pages) brings parts of its own: their words in the
 * language last asked for (a switch may be under way, its list of parts made without them), before it renders.
 */
export const withItsWords = <C>(page: C): Promise<C> => speak(asked ?? portal.locale()).then(() => page);

/** The browser's language before anything else is known: main.tsx renders once it is loaded (every part's module has loaded by then). */
export const start = (): Promise<void> => speak(pickLocale()).catch(() => undefined);

/**
 * The language for a partner's choice (`chosen`) and a program's default: switched to once
 * either is known (each page that knows them calls this). Resolves to the language spoken,
 * so the component re-renders when it changes.
 */
export function useLanguage(chosen?: string | null, programDefault?: string | null): Locale {
  const [spoken, setSpoken] = useState(portal.locale());
  useEffect(() => {
    const heard = () => setSpoken(portal.locale());
    listeners.add(heard);
    return () => void listeners.delete(heard);
  }, []);
  useEffect(() => {
    // A language whose words cannot be fetched (a deploy since the page loaded) leaves the one spoken.
    if (chosen !== undefined || programDefault !== undefined) speak(pickLocale(chosen, programDefault)).catch(() => undefined);
  }, [chosen, programDefault]);
  return spoken;
}
