// Checks a SQLite copy (a backup) before anyone relies on it: SQLite's own integrity check
// on the file as written, and the row counts a person can compare with what they expect.

import Database from 'better-sqlite3';

const COUNTED = ['referrals', 'commissions', 'payments', 'partners'] as const;

export type RowCounts = Record<(typeof COUNTED)[number], number>;

/** The copy's row counts; throws when the file fails its integrity check. */
export function verifySqliteCopy(path: string): RowCounts {
  const copy = new Database(path, { readonly: true });
  try {
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new Error(`the copy fails its integrity check: ${String(check)}`);
    const counts = {} as RowCounts;
    for (const table of COUNTED) counts[table] = (copy.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    return counts;
  } finally {
    copy.close();
  }
}
