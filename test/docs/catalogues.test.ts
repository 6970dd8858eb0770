// The message catalogues (docs/languages.md): every `locales/en.ts` under packages/, with
// its de.ts, fr.ts and es.ts beside it. Each language has every key of English and no
// other, every plural form its grammar has (French and Spanish `_many`), and no `{{name}}`
// English does not fill in; every English key is used by code under the catalogue's parent
// folder; every literal key code there asks for exists. Keys are used as literal strings
// ('home.title'); a template that begins with a key's prefix (`referralState.${state}`)
// uses every key under it. The last block feeds the checks bad catalogues, so none of
// them passes vacuously.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../packages/collector/src/core/locale.js';

const ROOT = join(import.meta.dirname, '..', '..');
const PLURAL = /_(zero|one|two|few|many|other)$/;

type Tree = { [key: string]: string | Tree };
type Catalogues = Record<string, Tree>;

/** Every leaf as `a.b.c` → its text. */
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out.set(prefix + k, v);
    else for (const [kk, vv] of flatten(v, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}

/** A key as code names it: `page.months_one` and `page.months_other` are `page.months`. */
const base = (key: string) => key.replace(PLURAL, '');
const variables = (text: string) => new Set([...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]));

/** What is wrong between English and the other languages of one folder's catalogues, each naming its file and key. */
function checkLanguages(dir: string, catalogues: Catalogues): string[] {
  const problems: string[] = [];
  const en = flatten(catalogues.en!);
  const englishKeys = new Set([...en.keys()].map(base));
  for (const lang of LOCALES) {
    const file = `${dir}/${lang}.ts`;
    const mine = flatten(catalogues[lang] ?? {});
    const keys = new Set([...mine.keys()].map(base));
    for (const k of englishKeys) if (!keys.has(k)) problems.push(`${file}: no "${k}" (en.ts has it)`);
    for (const k of keys) if (!englishKeys.has(k)) problems.push(`${file}: "${k}" is not in en.ts`);
    // A plural key needs every form the language's grammar has, or i18next shows the key itself.
    const forms = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const k of new Set([...en.keys()].filter((key) => PLURAL.test(key)).map(base))) {
      for (const form of forms) if (keys.has(k) && !mine.has(`${k}_${form}`)) problems.push(`${file}: "${k}" has no _${form} form`);
    }
    for (const [key, text] of mine) {
      if (!englishKeys.has(base(key))) continue;
      const given = new Set([...en].filter(([k]) => base(k) === base(key)).flatMap(([, t]) => [...variables(t)]));
      for (const v of variables(text)) if (!given.has(v)) problems.push(`${file}: "${key}" fills {{${v}}}, which en.ts never gives`);
    }
  }
  return problems;
}

interface Code {
  file: string;
  text: string;
}

const keysOf = (en: Tree) => new Set([...flatten(en).keys()].map(base));

/** English keys no code under the catalogue's parent folder names (literally, or under a template's prefix). */
function unusedKeys(dir: string, en: Tree, code: readonly Code[]): string[] {
  const literals = new Set(code.flatMap(({ text }) => [...text.matchAll(/(['"`])([\w.-]+)\1/g)].map((m) => m[2]!)));
  const prefixes = code.flatMap(({ text }) => [...text.matchAll(/`([\w-]+(?:\.[\w-]+)*\.)\$\{/g)].map((m) => m[1]!));
  return [...keysOf(en)]
    .filter((k) => !literals.has(k) && !prefixes.some((p) => k.startsWith(p)))
    .map((k) => `${dir}/en.ts: "${k}" is used by no code under ${dirname(dir)}`);
}

/** Literal keys code asks for (`t('x')`, `tx('x', …)`, `say('x')`) that none of its catalogues (`dirs`: its folder's and those above) has. */
function unknownKeys(code: readonly Code[], dirs: readonly string[], keys: ReadonlySet<string>): string[] {
  return code.flatMap(({ file, text }) =>
    [...text.matchAll(/\b(?:t|tx|say)\(\s*(['"`])([\w.-]+)\1/g)]
      .filter((m) => !keys.has(m[2]!))
      .map((m) => `${file}: t('${m[2]}') is not in ${dirs.map((d) => `${d}/en.ts`).join(' or ')}`),
  );
}

/** Every `.ts`/`.tsx` file under `folder`, without the catalogues themselves. */
function codeUnder(folder: string): Code[] {
  return (readdirSync(join(ROOT, folder), { recursive: true }) as string[])
    .filter((f) => /\.tsx?$/.test(f) && !f.split(/[\\/]/).includes('locales') && !f.split(/[\\/]/).includes('node_modules'))
    .map((f) => ({ file: join(folder, f), text: readFileSync(join(ROOT, folder, f), 'utf8') }));
}

/** Code outside a catalogue's folder that speaks its words: the e-mails' letters are a flow, above the module. */
const ALSO_USED_BY: Record<string, readonly string[]> = {
  'packages/collector/src/modules/notifications/locales': ['packages/collector/src/flows/notification-letters.ts'],
};

const found = (readdirSync(join(ROOT, 'packages'), { recursive: true }) as string[])
  .filter((f) => /(^|[\\/])locales[\\/]en\.ts$/.test(f) && !f.includes('node_modules') && !f.includes('dist'))
  .map((f) => relative(ROOT, join(ROOT, 'packages', dirname(f))).replace(/\\/g, '/'))
  .sort();

async function load(dir: string): Promise<Catalogues> {
  const entries = await Promise.all(
    LOCALES.map(async (l) => [l, (await import(pathToFileURL(join(ROOT, dir, `${l}.ts`)).href)).default as Tree] as const),
  );
  return Object.fromEntries(entries);
}

describe('the catalogues', () => {
  it("are found: the portal's, the dashboard's and the shared components' at least", () => {
    expect(found).toEqual(
      expect.arrayContaining(['packages/web/src/common/locales', 'packages/web/src/portal/locales', 'packages/web/src/dashboard/locales']),
    );
  });

  // One test per folder: its languages against English, its keys against the code beside it.
  for (const dir of found) {
    it(`${dir}: every language has English's keys and plural forms, no others; every key is used, and every key used is there`, async () => {
      const catalogues = await load(dir);
      const parent = dirname(dir);
      const code = [
        ...codeUnder(parent),
        ...(ALSO_USED_BY[dir] ?? []).map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') })),
      ];
      // A file under a nested catalogue's folder (portal/notifications/) is checked for keys with that one, which adds its own to ours.
      const nested = found.filter((d) => d !== dir && d.startsWith(`${parent}/`)).map((d) => `${dirname(d)}/`);
      const governing = found.filter((d) => `${parent}/`.startsWith(`${dirname(d)}/`));
      const keys = new Set((await Promise.all(governing.map(async (d) => [...keysOf((await load(d)).en!)]))).flat());
      expect([
        ...checkLanguages(dir, catalogues),
        ...unusedKeys(dir, catalogues.en!, code),
        ...unknownKeys(
          code.filter(({ file }) => !nested.some((n) => file.startsWith(n))),
          governing,
          keys,
        ),
      ]).toEqual([]);
    });
  }
});

describe('the checks catch each fault (bad catalogues made here)', () => {
  const en = { home: { title: 'Home', months_one: '{{count}} month', months_other: '{{count}} months' }, state: { paid: 'paid' } };
  const good = {
    en,
    de: { home: { title: 'Start', months_one: '{{count}} Monat', months_other: '{{count}} Monate' }, state: { paid: 'bezahlt' } },
    fr: {
      home: { title: 'Accueil', months_one: '{{count}} mois', months_many: '{{count}} de mois', months_other: '{{count}} mois' },
      state: { paid: 'payé' },
    },
    es: {
      home: { title: 'Inicio', months_one: '{{count}} mes', months_many: '{{count}} de meses', months_other: '{{count}} meses' },
      state: { paid: 'pagado' },
    },
  };
  // biome-ignore lint/suspicious/noTemplateCurlyInString: code as text, its template included
  const code = [{ file: 'x/page.tsx', text: "t('home.title'); t('home.months', { count }); t(`state.${s}`);" }];

  it('passes good catalogues used by their code', () => {
    expect(checkLanguages('x/locales', good)).toEqual([]);
    expect([...unusedKeys('x/locales', en, code), ...unknownKeys(code, ['x/locales'], keysOf(en))]).toEqual([]);
  });

  it('a key missing in one language, and a key English lacks', () => {
    const de = { home: { months_one: 'Monat', months_other: 'Monate', titel: 'Start' }, state: { paid: 'bezahlt' } };
    expect(checkLanguages('x/locales', { ...good, de })).toEqual([
      'x/locales/de.ts: no "home.title" (en.ts has it)',
      'x/locales/de.ts: "home.titel" is not in en.ts',
    ]);
  });

  it('a plural form the language needs (French _many), and a variable English never fills in', () => {
    const fr = { home: { title: 'Accueil {{name}}', months_one: 'mois', months_other: 'mois' }, state: { paid: 'payé' } };
    expect(checkLanguages('x/locales', { ...good, fr })).toEqual([
      'x/locales/fr.ts: "home.months" has no _many form',
      'x/locales/fr.ts: "home.title" fills {{name}}, which en.ts never gives',
    ]);
  });

  it('a key no code uses, and a literal key code asks for that the catalogue lacks', () => {
    const asks = [{ file: 'x/page.tsx', text: "t('home.title'); t('home.months'); tx('home.subtitle', {});" }];
    expect([...unusedKeys('x/locales', en, asks), ...unknownKeys(asks, ['x/locales'], keysOf(en))]).toEqual([
      'x/locales/en.ts: "state.paid" is used by no code under x',
      "x/page.tsx: t('home.subtitle') is not in x/locales/en.ts",
    ]);
  });

  it('a template marks only the keys under its prefix used; an empty prefix marks none', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: code as text, its template included
    const dynamic = [{ file: 'x/a.ts', text: "t('home.title'); t('home.months'); t(`${group}.${state}`);" }];
    expect(unusedKeys('x/locales', en, dynamic)).toEqual(['x/locales/en.ts: "state.paid" is used by no code under x']);
  });
});
