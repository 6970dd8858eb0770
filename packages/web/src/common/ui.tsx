// The small pieces every page uses: loading and error states, empty states that say what
// to do, copying to the clipboard, and tables that download what they show as CSV. The
// confirmation dialog, a form, is in forms.tsx.

import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
// The payout file's rules against spreadsheet formulas, from the collector's source: one
// place for both (rollup.config.mjs compiles that file into the web apps).
import { formatCsv } from '../../../collector/src/platform/csv.js';
import { messageOf } from './api.js';
import { say } from './words.js';

export function Loading({ what = say('ui.loading') }: { what?: string }) {
  return (
    <p class="loading" role="status">
      {what}…
    </p>
  );
}

export function Failure({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <div class="failure" role="alert">
      <p>{messageOf(error)}</p>
      {retry && (
        <button type="button" onClick={retry}>
          {say('ui.tryAgain')}
        </button>
      )}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <h3>{title}</h3>
      {children}
    </div>
  );
}

/** Shows data, or its loading or error state. */
export function Show<T>({
  loaded,
  children,
}: {
  loaded: { data: T | undefined; error: unknown; loading: boolean; reload: () => void };
  children: (data: T) => ComponentChildren;
}) {
  if (loaded.error !== undefined && loaded.data === undefined) return <Failure error={loaded.error} retry={loaded.reload} />;
  if (loaded.data === undefined) return <Loading />;
  return (
    <>
      {loaded.error !== undefined && <Failure error={loaded.error} retry={loaded.reload} />}
      {children(loaded.data)}
    </>
  );
}

export function CopyButton({ text, label = say('ui.copy') }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      class="secondary"
      onClick={async () => {
        await navigator.clipboard.writeText(text).catch(() => undefined);
        setDone(true);
        setTimeout(() => setDone(false), 2000);
      }}
    >
      <span aria-live="polite">{done ? say('ui.copied') : label}</span>
    </button>
  );
}

export interface Column<T> {
  label: string;
  /** What the cell shows. */
  cell: (row: T) => ComponentChildren;
  /** The cell as text, for the CSV download; the label's column is left out without it. */
  text?: (row: T) => string;
  numeric?: boolean;
  /** Left out on a narrow screen, so that the columns that matter fit without scrolling sideways. */
  minor?: boolean;
}

const cellClass = (c: Column<never>) => [c.numeric && 'num', c.minor && 'minor'].filter(Boolean).join(' ');

export function downloadCsv<T>(name: string, columns: readonly Column<T>[], rows: readonly T[]): void {
  const cols = columns.filter((c) => c.text);
  const text = formatCsv([cols.map((c) => c.label), ...rows.map((r) => cols.map((c) => c.text!(r)))], '\r\n');
  saveBlob(new Blob([text], { type: 'text/csv' }), `${name}.csv`);
}

/** Saves `blob` as a download named `name` (a file fetched with a bearer session, which a link cannot carry). */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function Table<T extends { id: string }>({
  caption,
  columns,
  rows,
  csv,
  current,
}: {
  caption: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  csv?: string;
  /** The id of the row a link led to: marked, and scrolled to. */
  current?: string;
}) {
  return (
    <div class="table">
      {csv && (
        <div class="table-tools">
          <button type="button" class="secondary" onClick={() => downloadCsv(csv, columns, rows)}>
            {say('ui.downloadCsv')}
          </button>
        </div>
      )}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a scrollable table must be reachable by keyboard (axe: scrollable-region-focusable), and a named region says what it holds */}
      <div class="scroll" tabIndex={0} role="region" aria-label={caption}>
        <table>
          <caption class="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th scope="col" class={cellClass(c)}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={r.id}
                aria-current={r.id === current ? 'true' : undefined}
                ref={r.id === current ? (el) => el?.scrollIntoView({ block: 'center' }) : undefined}
              >
                {columns.map((c) => (
                  <td class={cellClass(c)}>{c.cell(r)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export function Pager({ page, hasMore, go }: { page: number; hasMore: boolean; go: (page: number) => void }) {
  if (page === 1 && !hasMore) return null;
  return (
    <nav class="pager" aria-label={say('ui.pages')}>
      <button type="button" class="secondary" disabled={page <= 1} onClick={() => go(page - 1)}>
        {say('ui.previous')}
      </button>
      <span>{say('ui.page', { page })}</span>
      <button type="button" class="secondary" disabled={!hasMore} onClick={() => go(page + 1)}>
        {say('ui.next')}
      </button>
    </nav>
  );
}
