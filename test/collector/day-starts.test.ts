// Where a local day begins, for the statistics' days: the first instant whose local date
// is that day. The hard days are those whose midnight never happened, because the clocks
// went from 00:00 straight to 01:00: west of UTC (Santiago, Havana, the Azores) as well as
// east (Beirut, Cairo, Tehran). Also a day skipped whole (Apia, 30 December 2011) and
// midnights that came twice, when the clocks went back across it (Casey, Moncton).
// Pure: the platform's Intl data, no server.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localMidnight } from '../../packages/collector/src/modules/stats/service.js';

const at = (iso: string) => Date.parse(iso) / 1000;
const parse = (date: string) => date.split('-').map(Number) as [number, number, number];
const start = (tz: string, date: string) => localMidnight(tz, ...parse(date));
/** Hours from the start of `date` to the start of the next day. */
const hours = (tz: string, date: string) => {
  const [y, m, d] = parse(date);
  return (localMidnight(tz, y, m, d + 1) - localMidnight(tz, y, m, d)) / 3600;
};

const formats = new Map<string, Intl.DateTimeFormat>();
/** The local date and time at unix second `t`, as YYYY-MM-DD HH:MM:SS. */
function local(tz: string, t: number): string {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(tz, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(t * 1000)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}
const iso = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);

describe('days whose midnight never happened', () => {
  it('west of UTC: Santiago, Havana, the Azores and Asunción begin the day at 01:00', () => {
    // Chile: 2026-09-06 00:00 -04 became 01:00 -03, at 04:00 UTC.
    expect(start('America/Santiago', '2026-09-06')).toBe(at('2026-09-06T04:00:00Z'));
    expect(hours('America/Santiago', '2026-09-05')).toBe(24);
    expect(hours('America/Santiago', '2026-09-06')).toBe(23);
    // Cuba: 2026-03-08 00:00 -05 became 01:00 -04, at 05:00 UTC.
    expect(start('America/Havana', '2026-03-08')).toBe(at('2026-03-08T05:00:00Z'));
    expect(hours('America/Havana', '2026-03-07')).toBe(24);
    expect(hours('America/Havana', '2026-03-08')).toBe(23);
    // The Azores: 2026-03-29 00:00 -01 became 01:00 +00, at 01:00 UTC.
    expect(start('Atlantic/Azores', '2026-03-29')).toBe(at('2026-03-29T01:00:00Z'));
    expect(hours('Atlantic/Azores', '2026-03-28')).toBe(24);
    expect(hours('Atlantic/Azores', '2026-03-29')).toBe(23);
    expect(start('America/Asuncion', '2023-10-01')).toBe(at('2023-10-01T04:00:00Z'));
    expect(local('America/Santiago', start('America/Santiago', '2026-09-06'))).toBe('2026-09-06 01:00:00');
  });

  it('east of UTC: Beirut, Cairo and Tehran begin it at 01:00 too', () => {
    expect(start('Asia/Beirut', '2026-03-29')).toBe(at('2026-03-28T22:00:00Z'));
    expect(hours('Asia/Beirut', '2026-03-29')).toBe(23);
    expect(start('Africa/Cairo', '2026-04-24')).toBe(at('2026-04-23T22:00:00Z'));
    expect(hours('Africa/Cairo', '2026-04-23')).toBe(24);
    expect(start('Asia/Tehran', '2020-03-21')).toBe(at('2020-03-20T20:30:00Z'));
  });

  it('ordinary zones and ordinary days are unchanged', () => {
    expect(start('UTC', '2026-09-06')).toBe(at('2026-09-06T00:00:00Z'));
    expect(start('Europe/Paris', '2026-03-29')).toBe(at('2026-03-28T23:00:00Z'));
    expect(hours('Europe/Paris', '2026-03-29')).toBe(23);
    expect(hours('Europe/Paris', '2026-10-25')).toBe(25);
    expect(start('America/New_York', '2026-03-08')).toBe(at('2026-03-08T05:00:00Z'));
    expect(hours('America/New_York', '2026-03-08')).toBe(23);
    expect(start('Asia/Kolkata', '2026-01-01')).toBe(at('2025-12-31T18:30:00Z'));
    expect(start('America/Santiago', '2026-07-01')).toBe(at('2026-07-01T04:00:00Z'));
    // Back from 24:00 -03 to 23:00 -04 on 4 April: that day has 25 hours, the 5th begins at 00:00 -04.
    expect(start('America/Santiago', '2026-04-05')).toBe(at('2026-04-05T04:00:00Z'));
    expect(hours('America/Santiago', '2026-04-04')).toBe(25);
  });

  it('a day that never was has no length: Apia went from 29 to 31 December 2011', () => {
    expect(start('Pacific/Apia', '2011-12-29')).toBe(at('2011-12-29T10:00:00Z'));
    expect(start('Pacific/Apia', '2011-12-30')).toBe(at('2011-12-30T10:00:00Z'));
    expect(start('Pacific/Apia', '2011-12-31')).toBe(at('2011-12-30T10:00:00Z'));
    expect(hours('Pacific/Apia', '2011-12-29')).toBe(24);
    expect(hours('Pacific/Apia', '2011-12-30')).toBe(0);
  });

  it('a midnight that came twice: the day begins at the first', () => {
    // Casey went from 02:00 +11 back to 23:00 +08 on 5 March 2010: midnight at 13:00 and 16:00 UTC.
    expect(start('Antarctica/Casey', '2010-03-05')).toBe(at('2010-03-04T13:00:00Z'));
    // Moncton and St John's went back at 00:01 to 23:01 until 2006 and 2010.
    expect(start('America/Moncton', '2005-10-30')).toBe(at('2005-10-30T03:00:00Z'));
    expect(start('America/St_Johns', '2007-11-04')).toBe(at('2007-11-04T02:30:00Z'));
  });
});

// Zones whose clocks skipped midnight in the 2020s, by Intl's own data, every day of it.
const SKIPPERS = [
  'America/Santiago',
  'America/Havana',
  'Atlantic/Azores',
  'America/Scoresbysund',
  'America/Asuncion',
  'America/Punta_Arenas',
  'Asia/Beirut',
  'Africa/Cairo',
  'Asia/Tehran',
  'Asia/Amman',
  'Asia/Damascus',
  'Asia/Gaza',
];

/** Whether `tz`'s day `y-m-d` begins right: on that date, the second before on the day before; or, a day that never was, where the next begins. */
function beginsRight(tz: string, y: number, m: number, d: number): void {
  const date = iso(y, m, d);
  const s = localMidnight(tz, y, m, d);
  const first = local(tz, s).slice(0, 10);
  const before = local(tz, s - 1).slice(0, 10);
  expect(before < date, `${tz} ${date}: the second before ${s} is ${local(tz, s - 1)}`).toBe(true);
  if (first === date) return;
  expect(first > date, `${tz} ${date}: begins at ${s}, ${local(tz, s)}`).toBe(true);
  expect(localMidnight(tz, y, m, d + 1), `${tz} ${date} never was: it ends where it begins`).toBe(s);
}

it('every day of 2020 to 2030 begins on its own date, the second before it on the day before, in zones that skip midnight', () => {
  for (const tz of SKIPPERS) {
    for (let day = Date.UTC(2020, 0, 1); day < Date.UTC(2031, 0, 1); day += 86_400_000) {
      const t = new Date(day);
      beginsRight(tz, t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
    }
  }
});

it('so does any day in any zone Intl knows, 1970 to 2037, and days never run backwards', () => {
  const zones = Intl.supportedValuesOf('timeZone');
  fc.assert(
    fc.property(
      fc.constantFrom(...zones),
      fc.date({ min: new Date('1970-01-02T00:00:00Z'), max: new Date('2037-12-31T00:00:00Z'), noInvalidDate: true }),
      (tz, when) => {
        const [y, m, d] = [when.getUTCFullYear(), when.getUTCMonth() + 1, when.getUTCDate()];
        beginsRight(tz, y, m, d);
        expect(localMidnight(tz, y, m, d + 1)).toBeGreaterThanOrEqual(localMidnight(tz, y, m, d));
      },
    ),
    { numRuns: 4000, seed: 20260906 },
  );
});
