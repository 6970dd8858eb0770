// The date range of the overview, a partner's page and the portal, kept in the URL so that a view
// can be bookmarked and shared: the last 7, 30 or 90 days, this month, or custom.

import { useLocation } from 'preact-iso/router';
import { addDays, day, daysBetween, today, viewerZone } from './format.js';
import { say } from './words.js';

export interface Range {
  key: string;
  from: string;
  to: string;
  /** The period just before, as long, to compare with. */
  previous: { from: string; to: string };
  interval: 'day' | 'week';
  tz: string;
}

const PRESETS = ['7', '30', '90', 'month', 'custom'] as const;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function useRange(): { range: Range; set: (query: Record<string, string>) => void } {
  const { query, path, route } = useLocation();
  const now = today();
  const key = PRESETS.some((k) => k === query.range) ? query.range! : '30';
  let from: string;
  let to = now;
  if (key === 'month') from = `${now.slice(0, 8)}01`;
  else if (key === 'custom' && DATE.test(query.from ?? '') && DATE.test(query.to ?? '') && query.from! <= query.to!) {
    from = query.from!;
    to = query.to!;
  } else from = addDays(now, -(Number(key === 'custom' ? 30 : key) - 1));
  const days = daysBetween(from, to);
  const range: Range = {
    key,
    from,
    to,
    previous: { from: addDays(from, -days), to: addDays(from, -1) },
    interval: days > 120 ? 'week' : 'day',
    tz: viewerZone(),
  };
  const set = (q: Record<string, string>) => route(`${path}?${new URLSearchParams({ ...query, ...q })}`, true);
  return { range, set };
}

/** The stats routes' query: the range, in the viewer's time zone, and `extra` (an interval, a sort…). */
export const statsQuery = <const E extends object = Record<never, never>>(r: { from: string; to: string }, extra?: E) =>
  ({ from: r.from, to: r.to, tz: viewerZone(), ...extra }) as { from: string; to: string; tz: string } & E;

export function RangePicker({ range, set }: ReturnType<typeof useRange>) {
  return (
    <div class="range">
      <label>
        <span>{say('range.label')}</span>
        <select value={range.key} onChange={(e) => set({ range: e.currentTarget.value, from: range.from, to: range.to })}>
          {PRESETS.map((k) => (
            <option value={k}>{say(`range.presets.${k}`)}</option>
          ))}
        </select>
      </label>
      {range.key === 'custom' && (
        <>
          <label>
            <span>{say('range.from')}</span>
            <input type="date" value={range.from} max={range.to} onChange={(e) => set({ from: e.currentTarget.value })} />
          </label>
          <label>
            <span>{say('range.to')}</span>
            <input type="date" value={range.to} min={range.from} onChange={(e) => set({ to: e.currentTarget.value })} />
          </label>
        </>
      )}
      <p class="hint">{say('range.span', { from: day(range.from), to: day(range.to), zone: range.tz })}</p>
    </div>
  );
}
