// The leaderboard from a kept window (docs/statistics.md, "Kept windows"): the ranges the
// dashboard asks for are noted here and written by the fold (a read may run on a replica),
// and a ranking is read from the window's index plus the deltas not folded yet, exactly.

import type { Queryable } from '../../platform/db/db.js';
import * as windows from './window-repo.js';

/**
 * Windows asked for that this process has not written yet, by database (one process may
 * serve several, as the tests do) and then by program and range.
 */
const asked = new WeakMap<object, Map<string, windows.AskedWindow & { at: number }>>();
/** Past this many asks between two folds, the rest wait for a later ask. */
const MAX_ASKED = 1000;

export function noteAsked(db: Queryable, w: windows.AskedWindow, at: number): void {
  let notes = asked.get(db);
  if (!notes) {
    notes = new Map();
    asked.set(db, notes);
  }
  const key = `${w.programId} ${w.from} ${w.to}`;
  if (notes.size < MAX_ASKED || notes.has(key)) notes.set(key, { ...w, at });
}

/** The asks noted on `db` since the last call, for its fold to write. */
export function takeAsked(db: Queryable): Array<windows.AskedWindow & { at: number }> {
  const notes = asked.get(db);
  asked.delete(db);
  return notes ? [...notes.values()] : [];
}

/**
 * How many partners with deltas not folded yet a ranking from a window allows for: it reads
 * that many more of the window's top than the page needs, so a partner whose deltas move them
 * cannot hide one who belongs on the page. Past it, the ranking is live.
 */
export const SLACK = 200;

const byValue = (a: [string, number], b: [string, number]) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/**
 * One page of partners ranked by `measure` over [start, end), from the range's window when it
 * is kept and whole: each partner's kept figure plus their deltas not folded yet, and the
 * window, whose totals then answer for the page's partners too. Undefined
 * when there is no such window, or the page reaches partners with nothing in the range (the
 * live ranking orders those).
 */
export async function rankFromWindow(
  db: Queryable,
  programId: string,
  range: { start: number; end: number },
  measure: windows.Ranked,
  currency: string,
  limit: number,
  offset: number,
): Promise<{ windowId: string; ids: string[] } | undefined> {
  const id = await windows.ready(db, programId, range.start, range.end);
  if (!id) return undefined;
  const need = offset + limit;
  const rows = await windows.standings(db, id, programId, { from: range.start, to: range.end }, measure, currency, need + SLACK);
  const kept = new Map<string, number>();
  const delta = new Map<string, number>();
  for (const r of rows) (r.src === 'd' ? delta : kept).set(r.partner_id, Number(r.v));
  if (delta.size > SLACK) return undefined;
  const ranked = [...new Set([...kept.keys(), ...delta.keys()])]
    .map((p): [string, number] => [p, (kept.get(p) ?? 0) + (delta.get(p) ?? 0)])
    .filter(([, v]) => v > 0)
    .sort(byValue);
  return ranked.length < need ? undefined : { windowId: id, ids: ranked.slice(offset, need).map(([p]) => p) };
}
