// The options of a language select, the dashboard's header and the portal's settings alike.

import { LANGUAGE_NAMES, LOCALES } from './languages.js';

/** "Your browser's" (the value "", no choice) first, then each language in its own name and language. */
export function LanguageOptions({ browser }: { browser: string }) {
  return (
    <>
      <option value="">{browser}</option>
      {LOCALES.map((l) => (
        <option value={l} lang={l}>
          {LANGUAGE_NAMES[l]}
        </option>
      ))}
    </>
  );
}
