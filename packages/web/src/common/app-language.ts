// The language switch of an app that speaks the partner's language (the portal, the embed),
// over its translator (i18n.ts): `speak` (the last language asked for wins, even when an
// earlier one finishes loading later), `useLanguage` to re-render on a switch, and `tx` for
// a sentence with elements in it.

import { Fragment, type ComponentChildren, h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { pickLocale, type Key, type Locale, type Translator } from './i18n.js';
import type { Vars } from './words.js';

const MARK = '\u0001';

export interface AppLanguage<E> {
  /** Speaks `locale` from now on, titling the page in it; every mounted `useLanguage` re-renders its tree. */
  speak(locale: Locale): Promise<void>;
  /** The language last asked for (a switch may be under way), else the one spoken. */
  asked(): Locale;
  /** A sentence with elements in it (a link, a bold name): each slot's element where its `{{name}}` is. */
  tx(key: Key<E>, slots: Record<string, ComponentChildren>): ComponentChildren;
  /**
   * The language for a partner's choice (`chosen`) and a program's default: switched to once
   * either is known. Resolves to the language spoken, so the component re-renders when it changes.
   */
  useLanguage(chosen?: string | null, programDefault?: string | null): Locale;
}

/** A sentence of `say`'s with elements in it: each slot's element where its `{{name}}` is (a part's `tx`, from its own `t`). */
export function sentence<K>(say: (key: K, vars?: Vars) => string, key: K, slots: Record<string, ComponentChildren>): ComponentChildren {
  const marked = say(key, Object.fromEntries(Object.keys(slots).map((name) => [name, `${MARK}${name}${MARK}`])));
  return h(
    Fragment,
    null,
    marked.split(MARK).map((part, i) => (i % 2 === 1 ? slots[part] : part)),
  );
}

export function appLanguage<E extends object>(words: Translator<E>, titleKey: Key<E>): AppLanguage<E> {
  const listeners = new Set<() => void>();
  let asked: Locale | undefined;
  const speak = async (locale: Locale): Promise<void> => {
    asked = locale;
    await words.use(locale);
    // A later call that finished first had switched already: it has the last word.
    if (asked !== locale) await words.use(asked);
    document.title = words.t(titleKey);
    for (const listener of listeners) listener();
  };
  return {
    speak,
    asked: () => asked ?? words.locale(),
    tx: (key, slots) => sentence(words.t, key, slots),
    useLanguage: (chosen, programDefault) => {
      const [spoken, setSpoken] = useState(words.locale());
      useEffect(() => {
        const heard = () => setSpoken(words.locale());
        listeners.add(heard);
        return () => void listeners.delete(heard);
      }, []);
      useEffect(() => {
        // A language whose words cannot be fetched (a deploy since the page loaded) leaves the one spoken.
        if (chosen !== undefined || programDefault !== undefined) speak(pickLocale(chosen, programDefault)).catch(() => undefined);
      }, [chosen, programDefault]);
      return spoken;
    },
  };
}
