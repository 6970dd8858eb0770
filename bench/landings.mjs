// The landings real conversions follow: a visitor clicked a partner's link (the snippet's
// POST /v1/tracking/click) a minute before signing up. Written straight into the database
// before a measured run, in one statement, so that each conversion of the bench names a
// click id that landed (review's no_click signal has nothing to hold) and so that a
// repeated click finds the visit it repeats. Posting them through the API would take
// longer than the run itself.
//
// Each request of a tracking target also comes from its own client address: the collector
// runs behind one trusted proxy (TRUST_PROXY=1) and every request carries its own
// X-Forwarded-For, so review's address_burst signal sees one person per address, as it
// does with real visitors, not a whole run from 127.0.0.1.

import { pathToFileURL } from 'node:url';
import { TALLY } from './processes.mjs';

// The database opened by the build under test (BENCH_TALLY's, when another's), whose migrations made it.
const { openDatabase } = await import(new URL('../dist/index.js', pathToFileURL(TALLY)).href);

/** Landings seeded per second of warm-up and measurement: above any rate this machine reaches (a repeated click 19,000 a second since the direct path). */
export const LANDINGS_PER_SECOND = Number(process.env.BENCH_LANDINGS_PER_SECOND ?? 24000);

/** The click id of landing `i`. */
export const landing = (i) => `landing-${i}`;

/**
 * Writes `count` clicks on `partnershipId`'s link, click ids landing(0…count-1), each made a
 * minute before now (within the 30 minutes a repeat is deduplicated in).
 */
export async function seedLandings(databaseUrl, partnershipId, count) {
  const db = await openDatabase(databaseUrl);
  try {
    const at = Math.floor(Date.now() / 1000) - 60;
    const numbers =
      db.engine === 'postgres'
        ? 'SELECT i FROM generate_series(0, CAST(? AS integer) - 1) AS i'
        : 'WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?) SELECT i FROM n';
    await db.transaction((tx) =>
      tx.run(
        `INSERT INTO clicks (id, program_id, partnership_id, gr_id, pk, url, referrer, created_at, last_seen_at)
         SELECT 'bench-landing-' || n.i, p.program_id, p.id, 'landing-' || n.i, p.key,
                'https://shop.bench.test/?red=' || p.key, 'https://partner.bench.test/', CAST(? AS bigint), CAST(? AS bigint)
           FROM (${numbers}) n, partnerships p WHERE p.id = ?`,
        [at, at, count, partnershipId],
      ),
    );
    const { n } = await db.get('SELECT COUNT(*) AS n FROM clicks WHERE partnership_id = ?', [partnershipId]);
    if (Number(n) < count) throw new Error(`seeded ${n} landings of ${count}`);
  } finally {
    await db.close();
  }
}

/** How many clicks the partnership has stored: a new click's target checks that every one it sent was stored. */
export async function clicksOf(databaseUrl, partnershipId) {
  const db = await openDatabase(databaseUrl);
  try {
    const { n } = await db.get('SELECT COUNT(*) AS n FROM clicks WHERE partnership_id = ?', [partnershipId]);
    return Number(n);
  } finally {
    await db.close();
  }
}

let addresses = 0;
/** A client address no request of this run had: 10.0.0.1, 10.0.0.2, … (16 million of them). */
export function nextAddress() {
  addresses++;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
}
