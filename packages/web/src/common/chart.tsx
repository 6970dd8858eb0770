// A time series with uPlot, loaded only where a chart is shown (its own chunk). Beside
// it, the same numbers as a table for screen readers and for anyone who would rather read.

import { useEffect, useRef, useState } from 'preact/hooks';
import type uPlot from 'uplot';
import { day, shortDay } from './format.js';
import { say } from './words.js';

export interface SeriesProps {
  /** YYYY-MM-DD, one per point. */
  labels: readonly string[];
  values: readonly number[];
  name: string;
  format: (v: number) => string;
}

/**
 * The y axis's steps: 1, 2, 5, 10, 20, 50… Every series is of whole units (counts, money in
 * minor units), so uPlot's own steps (0.2) drew ticks at numbers no day can have.
 */
const WHOLE_STEPS = Array.from({ length: 15 }, (_, e) => [1, 2, 5].map((m) => m * 10 ** e)).flat();

const cssVar = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

export function Chart({ labels, values, name, format }: SeriesProps) {
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let plot: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    let gone = false;
    import('uplot').then(
      ({ default: UPlot }) => {
        if (gone || !box.current) return;
        const el = box.current;
        const ink = cssVar('--muted') || '#666';
        const grid = { stroke: cssVar('--line') || '#ddd', width: 1 };
        const axis = { stroke: ink, grid, ticks: grid };
        plot = new UPlot(
          {
            width: el.clientWidth,
            height: 240,
            scales: { x: { time: false } },
            legend: { show: false },
            cursor: { drag: { x: false, y: false } },
            axes: [
              { ...axis, values: (_u, splits) => splits.map((i) => (Number.isInteger(i) && labels[i] ? shortDay(labels[i]!) : '')) },
              { ...axis, size: 70, incrs: WHOLE_STEPS, values: (_u, splits) => splits.map((v) => format(v)) },
            ],
            series: [
              {},
              {
                label: name,
                stroke: cssVar('--accent') || '#0b7285',
                width: 2,
                fill: cssVar('--accent-fill') || 'rgba(11,114,133,.12)',
                points: { show: labels.length < 45 },
              },
            ],
          },
          [labels.map((_, i) => i), [...values]],
          el,
        );
        observer = new ResizeObserver(() => plot?.setSize({ width: el.clientWidth, height: 240 }));
        observer.observe(el);
      },
      () => setFailed(true),
    );
    return () => {
      gone = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [labels, values, name]);
  return (
    <figure class="chart">
      <div ref={box} class="plot" aria-hidden="true" />
      {failed && <p class="failure">{say('chart.failed')}</p>}
      <details>
        <summary>{say('chart.asTable', { name })}</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">{say('chart.date')}</th>
              <th scope="col" class="num">
                {name}
              </th>
            </tr>
          </thead>
          <tbody>
            {labels.map((l, i) => (
              <tr key={l}>
                <td>{day(l)}</td>
                <td class="num">{format(values[i] ?? 0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
