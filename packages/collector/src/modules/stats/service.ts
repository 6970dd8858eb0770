// The dashboard's numbers (docs/api.md, "Statistics"): per day, week or month in the
// viewer's time zone, and per partner. Days are cut at local midnight exactly: the kept
// totals are per 15 minutes (modules/stats/repo.ts), and every zone's offset is a multiple of
// that, so a local day is a whole number of buckets, 23 or 25 hours long on the days
// the clocks change. Zones come from the platform's own database (Intl), not a library.

import { fail } from '../../platform/errors.js';
import type { Db, Queryable } from '../../platform/db/db.js';
import * as stats from './repo.js';
import type { DifferenceRow } from './repo.js';
import * as windows from './window-repo.js';
import { noteAsked, rankFromWindow, takeAsked } from './windows.js';
import { append } from '../../core/lists.js';
import { BUCKET_SECONDS, MEASURES, type Measure } from '../../events/deltas.js';

export type Interval = 'day' | 'week' | 'month';
/** Longest range by day: a little over a year, so a year against the one before fits. */
export const MAX_DAYS = 400;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export type Money = Record<string, number>;
export interface Totals {
  clicks: number;
  referrals: number;
  customers: number;
  payments: number;
  revenue: Money;
  commissions: Money;
}
export interface Period extends Totals {
  /** The local date the period begins on, YYYY-MM-DD. */
  start: string;
}

const COUNTS = ['clicks', 'referrals', 'customers', 'payments'] as const;
const MONEY = ['revenue', 'commissions'] as const;

/**
 * The platform's own name for the zone `tz` names, in any letter case or by an old name
 * (Asia/Kolkata is Asia/Calcutta to it); a 400 when it names none. The answer still names
 * the zone as the caller did: the platform's name would rename theirs.
 */
export function canonicalZone(tz: string): string {
  try {
    return zoneFormat(tz).resolvedOptions().timeZone;
  } catch {
    throw fail('invalid_parameter', `${tz} is not a time zone; use an IANA name such as Europe/Paris`, { parameter: 'tz' });
  }
}

/**
 * Formats kept, one per zone (about 22 KB each). Keyed by the platform's name for the
 * zone, never by the caller's spelling: `tz` is taken in any letter case, and a key per
 * spelling grew without end. At most this many, the least recently used dropped first.
 */
export const ZONE_FORMATS_KEPT = 128;
const formats = new Map<string, Intl.DateTimeFormat>();
/** How many formats are kept now (for tests). */
export const zoneFormatsKept = (): number => formats.size;

/** A format of the wall-clock time in `tz`; throws a RangeError for a name that is no zone. */
function zoneFormat(tz: string): Intl.DateTimeFormat {
  let f = formats.get(tz);
  if (!f) {
    // Made before it is known under which name to keep it; dropped if that zone has one already.
    const made = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    tz = made.resolvedOptions().timeZone;
    f = formats.get(tz) ?? made;
  }
  // A Map keeps insertion order: moved to the end on each use, the first is the least recently used.
  formats.delete(tz);
  formats.set(tz, f);
  if (formats.size > ZONE_FORMATS_KEPT) formats.delete(formats.keys().next().value!);
  return f;
}

/** Seconds the zone of format `f` is ahead of UTC at instant `t`. */
function offsetAt(f: Intl.DateTimeFormat, t: number): number {
  const p = Object.fromEntries(f.formatToParts(new Date(t * 1000)).map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) / 1000 - t;
}

const DAY = 86_400;

/** The local date in `tz` at instant `t`, and its ISO weekday (1 Monday … 7 Sunday). */
export function localDateAt(tz: string, t: number): { y: number; m: number; d: number; weekday: number } {
  const p = Object.fromEntries(
    zoneFormat(tz)
      .formatToParts(new Date(t * 1000))
      .map((x) => [x.type, Number(x.value)]),
  );
  const weekday = new Date(Date.UTC(p.year!, p.month! - 1, p.day!)).getUTCDay() || 7;
  return { y: p.year!, m: p.month!, d: p.day!, weekday };
}

/**
 * The first instant whose local date is `y-m-d` in `tz` (or a later date: a day the zone
 * skipped begins, and ends, where the next one begins). Usually local midnight; where the
 * clocks went from 00:00 to 01:00, the instant they did; where they went back across
 * midnight, the first of its two midnights. No zone has changed its offset twice within
 * two days since 1970 (tzdata 2025), so near a midnight there is at most one change.
 */
export function localMidnight(tz: string, y: number, m: number, d: number): number {
  const f = zoneFormat(tz);
  const wall = Date.UTC(y, m - 1, d) / 1000;
  // A day before the wall-clock midnight read as UTC, every zone (less than a day off UTC)
  // is still on an earlier date. With that day's offset unchanged, midnight is where it says.
  const lo = wall - DAY;
  const before = offsetAt(f, lo);
  const guess = wall - before;
  const after = offsetAt(f, guess);
  if (after === before) return guess;
  // The offset changed in (lo, guess]: find the instant, to the second.
  let from = lo;
  let to = guess;
  while (to - from > 1) {
    const mid = Math.floor((from + to) / 2);
    if (offsetAt(f, mid) === before) from = mid;
    else to = mid;
  }
  // Before the change the clock had not reached the date (guess is its midnight, at or
  // after it); from the change on, it reads the date at once (midnight skipped) or at
  // midnight by the new offset.
  return Math.max(to, wall - after);
}

interface LocalDate {
  y: number;
  m: number;
  d: number;
}

function parseDate(raw: string, parameter: string): LocalDate {
  const m = DATE.exec(raw);
  const date = m && new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (!m || !date || date.getUTCDate() !== Number(m[3])) {
    throw fail('invalid_parameter', `${parameter} must be a date as YYYY-MM-DD, got "${raw}"`, { parameter });
  }
  // Records are stamped in unix seconds; and Date.UTC reads the years 0 to 99 as 1900 to 1999.
  if (Number(m[1]) < 1970) throw fail('invalid_parameter', `${parameter} must be 1970-01-01 or later`, { parameter });
  return { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) };
}

/**
 * Local midnight as a bucket boundary. Every offset in use since the 1970s is a multiple
 * of 15 minutes; a zone's older local mean time (Monrovia was 44½ minutes behind UTC
 * until 1972) is not, and a day there cannot be cut from the buckets exactly.
 */
function boundary(tz: string, date: LocalDate): number {
  const t = localMidnight(tz, date.y, date.m, date.d);
  if (t % BUCKET_SECONDS !== 0) {
    throw fail(
      'invalid_parameter',
      `${tz} was not a whole number of quarter hours off UTC on ${iso(date)}: its days there cannot be counted exactly`,
      { parameter: 'tz' },
    );
  }
  return t;
}

const iso = ({ y, m, d }: LocalDate) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
/** Calendar arithmetic on dates, which have no zone. */
function addDays({ y, m, d }: LocalDate, n: number): LocalDate {
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}
const dayNumber = ({ y, m, d }: LocalDate) => Date.UTC(y, m - 1, d) / 86_400_000;

/** The first day of the period `interval` that holds `date`: itself, its Monday, its 1st. */
function periodStart(date: LocalDate, interval: Interval): LocalDate {
  if (interval === 'day') return date;
  if (interval === 'month') return { ...date, d: 1 };
  const weekday = (new Date(Date.UTC(date.y, date.m - 1, date.d)).getUTCDay() + 6) % 7; // Monday 0
  return addDays(date, -weekday);
}

function nextPeriod(start: LocalDate, interval: Interval): LocalDate {
  if (interval === 'day') return addDays(start, 1);
  if (interval === 'week') return addDays(start, 7);
  return start.m === 12 ? { y: start.y + 1, m: 1, d: 1 } : { y: start.y, m: start.m + 1, d: 1 };
}

export interface Range {
  from: string;
  to: string;
  tz: string;
  /** [start, end) in unix seconds: local midnight of `from` to local midnight after `to`. */
  start: number;
  end: number;
}

/** A range, with its dates and the platform's name of its zone (`tz` is the caller's), which the days are cut by. */
export function resolveRange(from: string, to: string, tz: string): Range & { first: LocalDate; last: LocalDate; zone: string } {
  const zone = canonicalZone(tz);
  const first = parseDate(from, 'from');
  const last = parseDate(to, 'to');
  const days = dayNumber(last) - dayNumber(first) + 1;
  if (days < 1) throw fail('invalid_parameter', 'from must not be after to', { parameter: 'from' });
  if (days > MAX_DAYS) throw fail('invalid_parameter', `a range is at most ${MAX_DAYS} days`, { parameter: 'to' });
  const after = addDays(last, 1);
  return {
    from: iso(first),
    to: iso(last),
    tz,
    zone,
    first,
    last,
    start: boundary(zone, first),
    end: boundary(zone, after),
  };
}

const emptyTotals = (): Totals => ({ clicks: 0, referrals: 0, customers: 0, payments: 0, revenue: {}, commissions: {} });

function add(into: Totals, row: Record<Measure, number> & { currency: string }): void {
  for (const m of COUNTS) into[m] += Number(row[m]);
  for (const m of MONEY) {
    const amount = Number(row[m]);
    if (row.currency && amount !== 0) into[m][row.currency] = (into[m][row.currency] ?? 0) + amount;
  }
}

export interface Series {
  range: Range;
  interval: Interval;
  periods: Period[];
  totals: Totals;
  /** What is owed now (not in the range): pending commissions no open batch holds. */
  owed: Money;
}

/** Where each local day of [first, last] begins, and where the last one ends. */
function dayBoundaries(zone: string, first: LocalDate, last: LocalDate): number[] {
  const out: number[] = [];
  for (let d = first; dayNumber(d) <= dayNumber(last) + 1; d = addDays(d, 1)) out.push(boundary(zone, d));
  return out;
}

/**
 * The days cut into runs of one length: one run between two changes of the zone's offset.
 * A day the zone skipped (it begins where the next one does) holds no bucket and no run,
 * and the days after it start a run of their own, so that each run counts its days from its first.
 */
function dayRuns(days: readonly number[]): stats.DayRun[] {
  const runs: stats.DayRun[] = [];
  let skipped = false;
  for (let i = 0; i + 1 < days.length; i++) {
    const length = days[i + 1]! - days[i]!;
    const last = runs.at(-1);
    if (length === 0) skipped = true;
    else if (last && last.length === length && !skipped) last.end = days[i + 1]!;
    else {
      runs.push({ start: days[i]!, end: days[i + 1]!, first: i, length });
      skipped = false;
    }
  }
  return runs;
}

/** Totals per day, week or month of the range (the first and last periods cut to it), and overall. */
export async function statsSeries(
  db: Queryable,
  programId: string,
  query: { from: string; to: string; tz: string; interval: Interval; partnerId?: string | undefined },
): Promise<Series> {
  const range = resolveRange(query.from, query.to, query.tz);
  const periods: Array<Period & { begins: number }> = [];
  for (let s = periodStart(range.first, query.interval); dayNumber(s) <= dayNumber(range.last); s = nextPeriod(s, query.interval)) {
    const start = dayNumber(s) < dayNumber(range.first) ? range.first : s;
    periods.push({ start: iso(start), begins: boundary(range.zone, start), ...emptyTotals() });
  }
  const days = dayBoundaries(range.zone, range.first, range.last);
  const [rows, owedRows] = await Promise.all([
    stats.series(db, programId, query.partnerId ?? null, dayRuns(days)),
    query.partnerId ? stats.owedNow(db, programId, [query.partnerId]) : stats.owedTotal(db, programId),
  ]);
  const totals = emptyTotals();
  let i = 0;
  for (const row of rows) {
    // Rows come in day order: walk the periods along with them.
    while (i + 1 < periods.length && periods[i + 1]!.begins <= days[Number(row.day)]!) i++;
    add(periods[i]!, row);
    add(totals, row);
  }
  const owed = Object.fromEntries(owedRows.filter((o) => Number(o.owed) !== 0).map((o) => [o.currency, Number(o.owed)]));
  return { range, interval: query.interval, periods: periods.map(({ begins: _, ...p }) => p), totals, owed };
}

export const LEADERBOARD_SORTS = ['clicks', 'referrals', 'customers', 'conversion_rate', 'revenue', 'commissions', 'owed'] as const;
export type LeaderboardSort = (typeof LEADERBOARD_SORTS)[number];

export interface PartnerStats extends Totals {
  partnerId: string;
  name: string;
  key: string | null;
  /** Referrals per click in the range; 0 without clicks. */
  conversionRate: number;
  owed: Money;
}

/** The amount a partner's money map counts for when sorting: its biggest currency of the whole board. */
function mainCurrency(rows: readonly PartnerStats[], field: 'revenue' | 'commissions' | 'owed'): string | undefined {
  const sums = new Map<string, number>();
  for (const r of rows) for (const [c, n] of Object.entries(r[field])) sums.set(c, (sums.get(c) ?? 0) + n);
  return [...sums].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
}

export interface LeaderboardQuery {
  from: string;
  to: string;
  tz: string;
  sort: LeaderboardSort;
  q?: string | undefined;
  page: number;
  perPage: number;
}

export interface Leaderboard {
  range: Range;
  /** The asked-for page. */
  rows: PartnerStats[];
  hasMore: boolean;
}

function blank(p: { id: string; name: string; key: string | null }): PartnerStats {
  return { partnerId: p.id, name: p.name, key: p.key, conversionRate: 0, owed: {}, ...emptyTotals() };
}

/** How a sort ranks a partner: its count, rate, or amount in the board's main currency. */
function ranking(rows: readonly PartnerStats[], sort: LeaderboardSort): (r: PartnerStats) => number {
  if (sort === 'revenue' || sort === 'commissions' || sort === 'owed') {
    const currency = mainCurrency(rows, sort);
    return (r) => (currency ? (r[sort][currency] ?? 0) : 0);
  }
  if (sort === 'conversion_rate') return (r) => r.conversionRate;
  return (r) => r[sort];
}

function withTotals(entries: Map<string, PartnerStats>, totals: readonly stats.PartnerTotals[]): void {
  for (const row of totals) {
    const entry = entries.get(row.partner_id);
    if (entry) add(entry, row);
  }
  for (const r of entries.values()) r.conversionRate = r.clicks === 0 ? 0 : r.referrals / r.clicks;
}

/**
 * The program's partners with their totals in the range, largest first by `sort`. Only
 * partners with something in the range need their totals read and ranked: the rest
 * follow, by name. So a page costs the range's activity, not the program's size; sorting
 * by what is owed, or searching by name, reads every partner (docs/performance.md).
 */
export async function leaderboard(db: Queryable, programId: string, query: LeaderboardQuery, now: number): Promise<Leaderboard> {
  const range = resolveRange(query.from, query.to, query.tz);
  const start = (query.page - 1) * query.perPage;
  const needle = query.q?.trim();
  if (query.sort === 'owed' || needle) return wholeBoard(db, programId, range, query, needle || null);
  // The database ranks the partners active in the range and answers one page of ids (and
  // one more, to know whether more follow); ties by id, the order they joined.
  const rank = await rankOf(db, programId, range, query.sort);
  const { windowId, ids } = rank
    ? await ranked(db, programId, range, rank, query.perPage + 1, start, now)
    : { windowId: undefined, ids: [] };
  let page = ids.slice(0, query.perPage);
  let hasMore = ids.length > query.perPage;
  // The active ones end with this page: partners with nothing in the range may follow.
  if (!hasMore && page.length === query.perPage) hasMore = (await stats.partnerCount(db, programId)) > start + query.perPage;
  if (page.length < query.perPage) {
    // Past the active partners: the others, by name, with nothing in the range. Finding
    // where they start takes the active ones' count; this is the slow path, read rarely.
    const active = new Set((await stats.byPartner(db, programId, range.start, range.end)).map((t) => t.partner_id));
    const rest = (await stats.partnerLabels(db, programId, null)).filter((p) => !active.has(p.id));
    rest.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
    const from = Math.max(0, start - active.size);
    page = [...page, ...rest.slice(from, from + query.perPage - page.length).map((p) => p.id)];
    hasMore = rest.length > from + query.perPage - ids.length;
  }
  const [labels, totals, owed] = await Promise.all([
    stats.labelsOf(db, programId, page),
    pageTotals(db, programId, range, page, windowId),
    stats.owedNow(db, programId, page),
  ]);
  const entries = new Map(labels.map((l) => [l.id, blank(l)]));
  withTotals(entries, totals);
  for (const o of owed) if (Number(o.owed) !== 0) entries.get(o.partner_id)!.owed[o.currency] = Number(o.owed);
  return { range, rows: page.map((id) => entries.get(id)!).filter(Boolean), hasMore };
}

/**
 * A page of the partners active in the range, by `rank`: from the range's kept window when
 * it is whole, else summed by the database. Either way the range is noted, so the fold keeps
 * a window of it from then on.
 */
async function ranked(
  db: Queryable,
  programId: string,
  range: ReturnType<typeof resolveRange>,
  rank: stats.Rank,
  limit: number,
  offset: number,
  now: number,
): Promise<{ windowId: string | undefined; ids: string[] }> {
  noteAsked(db, { programId, from: range.start, to: range.end, fromDay: range.from, toDay: range.to, zone: range.zone }, now);
  if (rank.measure !== 'conversion_rate' && rank.measure !== 'customers') {
    const currency = 'currency' in rank ? rank.currency : '';
    const kept = await rankFromWindow(db, programId, range, rank.measure, currency, limit, offset);
    if (kept) return kept;
  }
  return { windowId: undefined, ids: await stats.rankPartners(db, programId, range.start, range.end, rank, limit, offset) };
}

/**
 * The page's totals: from the window that ranked it (the busiest partners' buckets are
 * thousands of rows each), unless it was dropped meanwhile (nobody asked for it in two
 * days, another process's ask not yet written): then from the buckets.
 */
async function pageTotals(db: Queryable, programId: string, range: Range, page: string[], windowId: string | undefined) {
  if (windowId) {
    const kept = await windows.totalsOf(db, windowId, programId, { from: range.start, to: range.end }, page);
    if ((await windows.ready(db, programId, range.start, range.end)) === windowId) return kept;
  }
  return stats.byPartner(db, programId, range.start, range.end, page);
}

/** How the database ranks a sort: money in the range's leading currency (none without any). */
async function rankOf(db: Queryable, programId: string, range: Range, sort: LeaderboardSort): Promise<stats.Rank | undefined> {
  if (sort === 'revenue' || sort === 'commissions') {
    const totals = await stats.currencyTotals(db, programId, range.start, range.end);
    const lead = totals.sort((a, b) => Number(b[sort]) - Number(a[sort]) || a.currency.localeCompare(b.currency))[0];
    return lead && Number(lead[sort]) !== 0 ? { measure: sort, currency: lead.currency } : { measure: 'clicks' };
  }
  return { measure: sort as 'clicks' | 'referrals' | 'customers' | 'conversion_rate' };
}

/** Every partner (or those whose name contains `needle`), read and ranked here: for sorting by what is owed, and for search. */
async function wholeBoard(
  db: Queryable,
  programId: string,
  range: Range,
  query: LeaderboardQuery,
  needle: string | null,
): Promise<Leaderboard> {
  const start = (query.page - 1) * query.perPage;
  const [totals, partners, owed] = await Promise.all([
    stats.byPartner(db, programId, range.start, range.end),
    stats.partnerLabels(db, programId, needle),
    stats.owedNow(db, programId, null),
  ]);
  const entries = new Map(partners.map((p) => [p.id, blank(p)]));
  withTotals(entries, totals);
  for (const o of owed) {
    const entry = entries.get(o.partner_id);
    if (entry && Number(o.owed) !== 0) entry.owed[o.currency] = Number(o.owed);
  }
  const rows = [...entries.values()];
  const value = ranking(rows, query.sort);
  rows.sort((a, b) => value(b) - value(a) || a.name.localeCompare(b.name) || a.partnerId.localeCompare(b.partnerId));
  return { range, rows: rows.slice(start, start + query.perPage), hasMore: rows.length > start + query.perPage };
}

/** Moves pending deltas into the buckets; resolves to how many it took. */
export function foldStats(db: Db, limit = 5000): Promise<number> {
  return db.transaction(async (tx) => {
    // One fold at a time across processes: two would each fold their own rows correctly,
    // but in opposite orders they could deadlock on the buckets they both update.
    await tx.lock('stats-fold');
    return stats.fold(tx, limit);
  });
}

/** At most this many differences are listed: past it, the count is what matters, and a repair mends them all. */
export const DIFFERENCES_LISTED = 1000;

/** One side's measures as the check prints them: comma-separated, or "nothing" for none. */
const sideOf = (r: DifferenceRow, side: 'kept' | 'counted') => {
  const values = MEASURES.map((m) => Number(r[`${side}_${m}`]));
  return values.every((v) => v === 0) ? 'nothing' : values.join(',');
};

/**
 * Where the kept totals differ from a recount of the records, as lines for a person (at
 * most DIFFERENCES_LISTED); none when they agree. Also checks that each program row is the
 * sum of its partners'. The database compares, in one snapshot, so a check while the server
 * writes is exact too, and the process holds the differences only. With `since` (Unix
 * seconds, a bucket's start), of the buckets from then on and what is owed.
 */
export async function checkStats(db: Queryable, programId: string | null = null, since: number | null = null): Promise<string[]> {
  const rows = await stats.differences(db, programId, DIFFERENCES_LISTED, since);
  const lines = rows.map(
    (r) =>
      `${r.what} ${r.program_id} ${r.partner_id} ${Number(r.bucket)} ${r.currency}: kept ${sideOf(r, 'kept')}, counted ${sideOf(r, 'counted')}`,
  );
  // The leaderboard's kept windows against their buckets: a whole check reads them too.
  if (since !== null || lines.length >= DIFFERENCES_LISTED) return lines;
  const off = await windows.differences(db, programId, DIFFERENCES_LISTED - lines.length);
  return [
    ...lines,
    ...off.map(
      (r) =>
        `window ${r.window_id} ${r.program_id} ${r.partner_id} ${r.currency}: kept minus its buckets ${MEASURES.map((m) => Number(r[m])).join(',')}`,
    ),
  ];
}

/** A program keeps at most this many windows, the latest asked for: each is a copy of its partners' totals the fold keeps up. */
export const WINDOWS_KEPT = 8;

/** The windows each program keeps: its WINDOWS_KEPT latest asked for, among those known and those asked for since. */
function keptKeys(asks: ReadonlyArray<windows.AskedWindow & { at: number }>): Set<string> {
  const latest = new Map<string, number>();
  for (const a of asks) {
    const key = `${a.programId} ${a.from} ${a.to}`;
    latest.set(key, Math.max(latest.get(key) ?? 0, a.at));
  }
  const byProgram = new Map<string, Array<[string, number]>>();
  for (const [key, at] of latest) append(byProgram, key.split(' ')[0]!, [key, at] as [string, number]);
  return new Set(
    [...byProgram.values()].flatMap((list) =>
      list
        .sort((x, y) => y[1] - x[1])
        .slice(0, WINDOWS_KEPT)
        .map(([k]) => k),
    ),
  );
}

/** A window nobody asked for in this long is dropped. */
const KEEP_SECONDS = 2 * DAY;
/** Rows of the buckets a window's build reads in one transaction. */
export const SLICE_ROWS = 20_000;

/** The window of the same range a local day later: the one a range reaching today becomes at midnight. */
function nextDay(w: windows.AskedWindow): windows.AskedWindow {
  const after = (day: string) => iso(addDays(parseDate(day, 'from'), 1));
  const r = resolveRange(after(w.fromDay), after(w.toDay), w.zone);
  return { programId: w.programId, from: r.start, to: r.end, fromDay: r.from, toDay: r.to, zone: w.zone };
}

/**
 * The kept windows' upkeep, beside the fold: writes the ranges asked for since, makes
 * tomorrow's window of each range asked today that ends tomorrow (so it is whole when the
 * day turns), drops those nobody asked for in two days, then builds for up to `budgetMs`,
 * a slice a transaction so writers wait at most one slice.
 */
export async function keepWindows(db: Db, now: number, budgetMs = 200, sliceRows = SLICE_ROWS): Promise<void> {
  const notes = takeAsked(db);
  const known = await windows.all(db);
  const asks = [
    ...known.map((w) => ({
      programId: w.program_id,
      from: w.from_bucket,
      to: w.to_bucket,
      fromDay: w.from_day,
      toDay: w.to_day,
      zone: w.zone,
      at: w.asked_at,
    })),
    ...notes,
  ];
  const has = new Set(asks.map((a) => `${a.programId} ${a.from} ${a.to}`));
  // Tomorrow's window is asked for when its day's range was: it is kept as long as that ask,
  // so one ask does not make a window a day for ever.
  const due = asks
    .filter((a) => a.at >= now - DAY && a.to > now && a.to <= now + DAY)
    .map((a) => ({ ...nextDay(a), at: a.at }))
    .filter((n) => !has.has(`${n.programId} ${n.from} ${n.to}`) && has.add(`${n.programId} ${n.from} ${n.to}`));
  const kept = keptKeys([...asks, ...due]);
  const keyOf = (w: windows.AskedWindow) => `${w.programId} ${w.from} ${w.to}`;
  const writes = [...notes, ...due].filter((n) => kept.has(keyOf(n)));
  const extra = known.filter((w) => !kept.has(`${w.program_id} ${w.from_bucket} ${w.to_bucket}`)).map((w) => w.id);
  if (writes.length > 0 || extra.length > 0 || known.some((w) => w.asked_at < now - KEEP_SECONDS)) {
    await db.transaction(async (tx) => {
      await tx.lock('stats-fold');
      for (const n of writes) await windows.ask(tx, n, n.at);
      await windows.forget(tx, now - KEEP_SECONDS);
      await windows.drop(tx, extra);
    });
  }
  if (!known.some((w) => w.building === 1) && writes.length === 0) return;
  const deadline = performance.now() + budgetMs;
  while (performance.now() < deadline) {
    const whole = await db.transaction(async (tx) => {
      await tx.lock('stats-fold');
      const w = (await windows.all(tx)).find((x) => x.building === 1);
      return w ? windows.buildSlice(tx, w, sliceRows).then(() => false) : true;
    });
    if (whole) return;
  }
}

export function rebuildStats(db: Db): Promise<void> {
  return db.transaction(async (tx) => {
    await tx.lock('stats-fold');
    await stats.rebuild(tx);
  });
}

/** Each partner's totals (or those of `ids`) over [from, to), per currency, folded and not yet folded alike. */
export function partnerTotals(db: Queryable, programId: string, from: number, to: number, ids: readonly string[] | null = null) {
  return stats.byPartner(db, programId, from, to, ids);
}
