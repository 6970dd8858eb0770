// One measure of a series over time, chosen from a list, as a chart with its table: the
// overview's, a partner's page's and the portal's home.

import { useState } from 'preact/hooks';
import type { Answer } from './api.js';
import { Chart } from './chart.js';
import { int, mainCurrency, money } from './format.js';

export type Stats = Answer<'/v1/stats'>['data']['attributes'];

export const MEASURES = [
  ['clicks', 'Clicks'],
  ['referrals', 'Referrals'],
  ['customers', 'Paying customers'],
  ['revenue', 'Revenue'],
  ['commissions', 'Commissions'],
] as const;
export type MeasureKey = (typeof MEASURES)[number][0];

export const sumMoney = (m: Record<string, number>, currency: string | undefined) => (currency ? (m[currency] ?? 0) : 0);

/** The series of one measure: counts as they are, money in the range's main currency. */
export function measureSeries(stats: Stats, key: MeasureKey) {
  const currency = mainCurrency(stats.totals.revenue, stats.totals.commissions);
  const money_ = key === 'revenue' || key === 'commissions';
  return {
    labels: stats.series.map((p) => p.start),
    values: stats.series.map((p) => (money_ ? sumMoney(p[key], currency) : p[key])),
    format: (v: number) => (money_ && currency ? money(v, currency) : int(v)),
    name: MEASURES.find(([k]) => k === key)![1] + (money_ && currency ? ` (${currency})` : ''),
  };
}

/** `only` narrows the choice (a partner sees no revenue). */
export function MeasureChart({ stats, only }: { stats: Stats; only?: readonly MeasureKey[] }) {
  const [measure, setMeasure] = useState<MeasureKey>('clicks');
  const shown = MEASURES.filter(([k]) => !only || only.includes(k));
  return (
    <section class="panel">
      <div class="panel-head">
        <h2>Over time</h2>
        <label>
          <span class="visually-hidden">Measure</span>
          <select value={measure} onChange={(e) => setMeasure(e.currentTarget.value as MeasureKey)}>
            {shown.map(([k, label]) => (
              <option value={k}>{label}</option>
            ))}
          </select>
        </label>
      </div>
      <Chart {...measureSeries(stats, measure)} />
    </section>
  );
}
