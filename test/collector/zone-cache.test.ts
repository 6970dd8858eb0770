// The statistics keep one Intl.DateTimeFormat per time zone (about 22 KB each). A zone
// name is taken in any letter case, so the key must be the zone, not its spelling, and
// the number kept must have a bound: 6,000 spellings of one zone once took a server from
// 154 to 385 MB. Pure: no server.

import { expect, it } from 'vitest';
import { resolveRange, ZONE_FORMATS_KEPT, zoneFormatsKept } from '../../packages/collector/src/modules/stats/service.js';

/** `name` with the letters whose bit is set in `mask` in upper case, the others in lower. */
function spelling(name: string, mask: number): string {
  let i = 0;
  return [...name].map((ch) => (/[a-z]/i.test(ch) ? ((mask >> i++) & 1 ? ch.toUpperCase() : ch.toLowerCase()) : ch)).join('');
}

it('keeps one format for every spelling of a zone, and answers the same range for each', () => {
  const paris = resolveRange('2026-03-29', '2026-03-29', 'Europe/Paris');
  const kept = zoneFormatsKept();
  for (let mask = 0; mask < 500; mask++) {
    const tz = spelling('Europe/Paris', mask * 7919);
    const r = resolveRange('2026-03-29', '2026-03-29', tz);
    expect([r.start, r.end], tz).toEqual([paris.start, paris.end]);
    expect(r.tz).toBe(tz); // the answer names the zone as it was asked
  }
  expect(zoneFormatsKept()).toBe(kept);
  // An old name and its new one are the same zone too.
  resolveRange('2026-01-01', '2026-01-01', 'Asia/Kolkata');
  const india = zoneFormatsKept();
  resolveRange('2026-01-01', '2026-01-01', 'asia/calcutta');
  resolveRange('2026-01-01', '2026-01-01', 'ASIA/KOLKATA');
  expect(zoneFormatsKept()).toBe(india);
});

it('keeps at most ZONE_FORMATS_KEPT, however many zones are asked for, and still answers right', () => {
  const zones = Intl.supportedValuesOf('timeZone');
  expect(zones.length).toBeGreaterThan(ZONE_FORMATS_KEPT);
  const first = zones.map((tz) => resolveRange('2026-07-01', '2026-07-01', tz).start);
  expect(zoneFormatsKept()).toBeLessThanOrEqual(ZONE_FORMATS_KEPT);
  // Again, now that most were dropped and made anew: the same answers.
  expect(zones.map((tz) => resolveRange('2026-07-01', '2026-07-01', tz.toUpperCase()).start)).toEqual(first);
  expect(zoneFormatsKept()).toBeLessThanOrEqual(ZONE_FORMATS_KEPT);
});

it('keeps nothing for a name that is no zone', () => {
  const kept = zoneFormatsKept();
  for (let i = 0; i < 50; i++) expect(() => resolveRange('2026-01-01', '2026-01-01', `Mars/Crater${i}`)).toThrow(/not a time zone/);
  expect(zoneFormatsKept()).toBe(kept);
});
