// Charts of the report, drawn with uPlot (the global `uPlot`, inlined in a report file or loaded
// by the service's page). Long series are thinned to the chart's width before drawing.
import { el, formatNumber, formatPrice, formatTime } from './format.js';
import { thinTogether } from './thin.js';

/** The width a chart gets in `container`: its own, at least 480 px. */
export function chartWidth(container) {
  return Math.max(480, Math.floor(container.getBoundingClientRect().width || 960) - 8);
}

// A label is "2024-03-10 05:53", about 115 px wide: ticks at least 140 px apart so that labels
// never touch, and room on the right for half a label, so that the last one is not cut off.
const timeAxis = { values: (_u, ticks) => ticks.map((t) => formatTime(t).slice(0, 16)), space: 140 };
const RIGHT_PADDING = 64;
const timeSeries = { label: 'time (UTC)', value: (_u, v) => (v === null ? '–' : formatTime(v)) };

/** A uPlot chart of plain numbers on x (no date axis) in a new box appended to `container`. */
export function plot(container, options, data) {
  const box = el('div', { class: 'chart' });
  container.append(box);
  const padding = [null, RIGHT_PADDING, null, null];
  return new uPlot({ scales: { x: { time: false } }, padding, ...options }, data, box);
}

/**
 * A line chart over time: `series` are `{ label, values, colour, fill?, stepped? }` over the x `times`
 * (seconds). Thinned to two points per pixel column. Returns the uPlot instance.
 */
export function timeLineChart(container, { title, times, series, height = 260, sync }) {
  const width = chartWidth(container);
  const thin = thinTogether(
    times,
    series.map((s) => s.values),
    width,
  );
  return plot(
    container,
    {
      title,
      width,
      height,
      cursor: sync ? { sync: { key: sync } } : {},
      axes: [timeAxis, { values: (_u, ticks) => ticks.map((v) => formatNumber(v, 0)), size: 70 }],
      series: [
        timeSeries,
        ...series.map((s) => ({
          label: s.label,
          stroke: s.colour,
          fill: s.fill,
          width: 1.5,
          // A level that holds until its next change (cash) is drawn as steps.
          paths: s.stepped ? uPlot.paths.stepped({ align: 1 }) : undefined,
          value: (_u, v) => (v === null ? '–' : formatNumber(v, 2)),
        })),
      ],
    },
    [thin.xs, ...thin.series],
  );
}

/**
 * Points over time, one series per group (`{ label, colour, times, values }`), each drawn as
 * dots only; groups may have different times (they are merged onto one x, with gaps).
 */
export function timeScatterChart(container, { title, groups, height = 260, yLabel = '', lines = [], prices = false }) {
  const width = chartWidth(container);
  const all = [...lines, ...groups];
  const xs = [...new Set(all.flatMap((g) => g.times))].sort((a, b) => a - b);
  const position = new Map(xs.map((x, i) => [x, i]));
  const columns = all.map((g) => {
    const ys = new Array(xs.length).fill(null);
    g.times.forEach((t, i) => {
      ys[position.get(t)] = g.values[i];
    });
    return ys;
  });
  return plot(
    container,
    {
      title,
      width,
      height,
      axes: [
        timeAxis,
        {
          label: yLabel,
          values: (_u, ticks) => ticks.map((v) => (prices ? formatPrice(v) : formatNumber(v, 0))),
          size: 80,
        },
      ],
      series: [
        timeSeries,
        ...lines.map((g) => ({ label: g.label, stroke: g.colour, width: 1, spanGaps: true, points: { show: false } })),
        ...groups.map((g) => ({
          label: g.label,
          stroke: g.colour,
          fill: g.colour,
          paths: () => null,
          points: { show: true, size: g.size ?? 6, stroke: g.colour, fill: g.colour, width: 1 },
        })),
      ],
    },
    [xs, ...columns],
  );
}

/**
 * `drawdown_i = v_i − max(start, v_0 … v_i)`: how far below its best the curve is (≤ 0). `start`
 * is its value before the first point: 0 for a PnL, the starting balance for an equity.
 */
export function drawdown(values, start = 0) {
  let best = start;
  return values.map((v) => {
    best = Math.max(best, v);
    return v - best;
  });
}
