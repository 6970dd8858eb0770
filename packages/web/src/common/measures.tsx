// One measure of a series over time, chosen from a list, as a chart with its table: the
// overview's, a partner's page's and the portal's home.

import { useState } from 'preact/hooks';
import type { Answer } from './api.js';
import { Chart } from './chart.js';
import { int, mainCurrency, money } from './format.js';
import { say } from './words.js';

export type Stats = Answer<'/v1/stats'>['data']['attributes'];

export const MEASURES = ['clicks', 'referrals', 'customers', 'revenue', 'commissions'] as const;
export type MeasureKey = (typeof MEASURES)[number];

export const sumMoney = (m: Record<string, number>, currency: string | undefined) => (currency ? (m[currency] ?? 0) : 0);

/** The series of one measure: counts as they are, money in the range's main currency. */
export function measureSeries(stats: Stats, key: MeasureKey) {
  const currency = mainCurrency(stats.totals.revenue, stats.totals.commissions);
  const money_ = key === 'revenue' || key === 'commissions';
  return {
    labels: stats.series.map((p) => p.start),
    values: stats.series.map((p) => (money_ ? sumMoney(p[key], currency) : p[key])),
    format: (v: number) => (money_ && currency ? money(v, currency) : int(v)),
    name: say(`measures.names.${key}`) + (money_ && currency ? ` (${currency})` : ''),
  };
}

/** `only` narrows the choice (a partner sees no revenue). */
export function MeasureChart({ stats, only }: { stats: Stats; only?: readonly MeasureKey[] }) {
  const [measure, setMeasure] = useState<MeasureKey>('clicks');
  const shown = MEASURES.filter((k) => !only || only.includes(k));
  return (
    <section class="panel">
      <div class="panel-head">
        <h2>{say('measures.title')}</h2>
        <label>
          <span class="visually-hidden">{say('measures.measure')}</span>
          <select value={measure} onChange={(e) => setMeasure(e.currentTarget.value as MeasureKey)}>
            {shown.map((k) => (
              <option value={k}>{say(`measures.names.${k}`)}</option>
            ))}
          </select>
        </label>
      </div>
      <Chart {...measureSeries(stats, measure)} />
    </section>
  );
}
