// The shared components' words, by key from common/locales: English, as the dashboard
// shows them, unless an app that speaks the partner's language (the portal, the embed)
// hands its i18next over with `setSay` (i18n.ts does, in `translator`). The English
// fallback is a lookup and `{{name}}` filling, no more, so the dashboard carries no
// i18next (docs/decisions/0300).

import en from './locales/en.js';

type PluralForm = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
type Plain<K extends string> = K extends `${infer B}_${PluralForm}` ? B : K;
/** The dotted keys of a catalogue, i18next's plural forms of a key counted once (`forms.locked`). */
export type Key<T> = {
  [K in keyof T & string]: T[K] extends string ? Plain<K> : `${K}.${Key<T[K]>}`;
}[keyof T & string];

export type Vars = Record<string, string | number>;

type PluralBase<K> = K extends `${infer B}_${PluralForm}` ? B : never;
/**
 * A catalogue with the same keys as English, each holding its own words, and any plural
 * form its grammar has that English lacks (French and Spanish `_many`, for a million).
 */
export type Catalogue<T> = { [K in keyof T]: T[K] extends string ? string : Catalogue<T[K]> } & {
  [K in `${PluralBase<keyof T & string>}_${PluralForm}`]?: string;
};
export type Say = (key: Key<typeof en>, vars?: Vars) => string;

function english(key: string, vars: Vars = {}): string {
  const find = (path: string): unknown => path.split('.').reduce<unknown>((node, k) => (node as Record<string, unknown>)?.[k], en);
  const plural = vars.count === undefined ? undefined : find(`${key}_${new Intl.PluralRules('en').select(Number(vars.count))}`);
  const text = plural ?? find(key);
  return typeof text === 'string' ? text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? '')) : key;
}

let current: Say = english;

/** A shared component's words in the app's language. */
export const say: Say = (key, vars) => current(key, vars);

/** Used by i18n.ts's translator: the shared components speak its language from now on. */
export function setSay(next: Say): void {
  current = next;
}
