// A partner's promotion codes as the portal and the embed show them (docs/codes.md): all of
// them, page after page, and the enabled ones as a list, each to copy with a line on how to
// share it, in the app's own words.

import type { ComponentChildren } from 'preact';
import { everyPage, type ListPage } from './codes.js';
import { type Loaded, useLoad } from './use-api.js';
import { CopyButton } from './ui.js';

type Code = { id: string; attributes: { code: string; enabled: boolean } };

/** Every code of the partner, reloaded when `key` changes; `page` asks for the page after the given id. */
export function useEveryCode<T extends Code>(
  page: (after: string | undefined, signal: AbortSignal) => Promise<ListPage<T>>,
  key: string,
): Loaded<T[]> {
  return useLoad((signal) => everyPage((after) => page(after, signal)), key);
}

export function CodeList({
  codes,
  copy,
  share,
}: {
  codes: Code[];
  /** The copy button's label for a code. */
  copy: (code: string) => string;
  /** The line under a code. */
  share: (code: string) => ComponentChildren;
}) {
  return (
    <ul class="codes">
      {codes.map(({ id, attributes: { code } }) => (
        <li key={id}>
          <p class="copy-row">
            <code class="promo-code">{code}</code> <CopyButton text={code} label={copy(code)} />
          </p>
          <p class="hint">{share(code)}</p>
        </li>
      ))}
    </ul>
  );
}
