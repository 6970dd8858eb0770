// Local midnight, the edge of every day the statistics count, found with Intl alone: in
// zones 30 and 45 minutes off UTC, with daylight saving at either end of the year, for
// any date from 1990 to 2037. The instant must be on that date in the zone and the second
// before it on the day before: 00:00, or where the clocks skipped midnight (Tehran moved
// from 00:00 to 01:00 some years) the first instant the day has.

import fc from 'fast-check';
import { expect, it } from 'vitest';
import { localMidnight } from '../../packages/collector/src/modules/stats/service.js';

const ZONES = [
  'UTC',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'America/New_York',
  'America/Los_Angeles',
  'Europe/Paris',
  'Australia/Adelaide',
  'America/St_Johns',
  'Pacific/Chatham',
  'Australia/Lord_Howe',
  'Asia/Tehran',
  'Pacific/Kiritimati',
];

function wall(tz: string, t: number): { date: string; time: string } {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(t * 1000))
      .map((x) => [x.type, x.value]),
  );
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}:${p.second}` };
}

it('finds the instant each local day begins, in every kind of zone', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...ZONES),
      fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2037-12-31T00:00:00Z'), noInvalidDate: true }),
      (tz, d) => {
        const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
        const iso = `${y}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
        const t = localMidnight(tz, y, m, day);
        const at = wall(tz, t);
        expect(at.date).toBe(iso);
        expect(wall(tz, t - 1).date < iso).toBe(true);
        if (at.time !== '00:00:00') expect(wall(tz, t - 1).time).toBe('23:59:59'); // midnight itself never happened
      },
    ),
    { numRuns: 3000, seed: 20261124 },
  );
});

it('gives the days the clocks change their 23 and 25 hours, and Lord Howe its 23½', () => {
  const length = (tz: string, y: number, m: number, d: number) => (localMidnight(tz, y, m, d + 1) - localMidnight(tz, y, m, d)) / 3600;
  expect(length('America/New_York', 2025, 3, 9)).toBe(23);
  expect(length('America/New_York', 2025, 11, 2)).toBe(25);
  expect(length('Europe/Paris', 2025, 3, 30)).toBe(23);
  expect(length('Australia/Lord_Howe', 2025, 10, 5)).toBe(23.5);
  expect(length('Asia/Kolkata', 2025, 3, 9)).toBe(24);
  // Tehran's clocks went from 00:00 to 01:00 on 21 March 2004: that day began at 01:00.
  expect(wall('Asia/Tehran', localMidnight('Asia/Tehran', 2004, 3, 21))).toEqual({ date: '2004-03-21', time: '01:00:00' });
  expect(length('Asia/Tehran', 2004, 3, 21)).toBe(23); // it lost the hour it began without
});
