// Pictures of many runs: a sweep's heatmap over two of the settings that vary, the latency
// curve, and the ranked wallets with a scatter of their own ROI against the copier's.
import { el, formatNumber, formatPercent, shortAddress } from './format.js';
import { chartWidth, plot } from './charts.js';

/** Distinct values in order: numbers by size, anything else as text. */
function axisValues(values) {
  const distinct = [...new Set(values.map((v) => JSON.stringify(v)))].map((v) => JSON.parse(v));
  return distinct.sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b))));
}

/** Red below zero, green above, white at zero; stronger the further from zero. */
function divergingColour(value, largest) {
  if (value === null || largest === 0) return '#f4f6f7';
  const t = Math.min(1, Math.abs(value) / largest);
  const fade = (c) => Math.round(255 - (255 - c) * t);
  return value >= 0 ? `rgb(${fade(39)},${fade(174)},${fade(96)})` : `rgb(${fade(192)},${fade(57)},${fade(43)})`;
}

export function renderSweep(root, data) {
  const ok = data.runs.filter((r) => r.summary !== null);
  const failed = data.runs.length - ok.length;
  root.append(el('p', { class: 'muted' }, `${data.runs.length} requests: ${ok.length} answered, ${failed} refused (400).`));
  if (ok.length === 0) return;
  const metrics = Object.keys(ok[0].summary);
  const state = { metric: 'pnl_total', x: data.varying[0], y: data.varying[1] };
  const select = (key, options) =>
    el('select', { 'data-test': `sweep-${key}`, onchange: (e) => {
      state[key] = e.target.value;
      draw();
    } }, options.map((o) => el('option', { value: o, selected: o === state[key] }, o)));
  const grid = el('div', { 'data-test': 'heatmap' });
  root.append(
    el('div', { class: 'filters' }, el('label', {}, 'figure ', select('metric', metrics)), data.varying.length > 0 ? el('label', {}, 'across ', select('x', data.varying)) : null, data.varying.length > 1 ? el('label', {}, 'down ', select('y', data.varying)) : null),
    grid,
  );
  if (data.varying.length === 0) grid.append(el('p', { class: 'muted' }, 'The requests do not differ: every run has the same settings.'));

  function draw() {
    if (data.varying.length === 0) return;
    const xs = axisValues(ok.map((r) => r.settings[state.x]));
    const ys = state.y ? axisValues(ok.map((r) => r.settings[state.y])) : [null];
    // A cell holds the best run of its two settings (others may vary too: their count is shown).
    const cells = new Map();
    for (const run of ok) {
      const key = JSON.stringify([run.settings[state.x], state.y ? run.settings[state.y] : null]);
      const v = run.summary[state.metric];
      const cell = cells.get(key) ?? { best: null, runs: 0, index: -1 };
      cell.runs++;
      if (cell.best === null || v > cell.best) Object.assign(cell, { best: v, index: run.index });
      cells.set(key, cell);
    }
    const largest = Math.max(0, ...[...cells.values()].map((c) => Math.abs(c.best)));
    grid.replaceChildren(
      el(
        'table',
        { class: 'heatmap' },
        el('thead', {}, el('tr', {}, el('th', {}, state.y ? `${state.y} ↓ / ${state.x} →` : `${state.x} →`), xs.map((x) => el('th', { class: 'num' }, String(x))))),
        el(
          'tbody',
          {},
          ys.map((y) =>
            el(
              'tr',
              {},
              el('th', {}, y === null ? state.metric : String(y)),
              xs.map((x) => {
                const cell = cells.get(JSON.stringify([x, y]));
                if (!cell) return el('td', {}, '');
                const where = `${state.x} = ${x}${state.y ? `, ${state.y} = ${y}` : ''}`;
                const title = `${where}: ${state.metric} ${formatNumber(cell.best, 4)} (request #${cell.index}${cell.runs > 1 ? `, the best of ${cell.runs} runs` : ''})`;
                return el('td', { style: `background:${divergingColour(cell.best, largest)}`, title, 'data-value': cell.best }, formatNumber(cell.best));
              }),
            ),
          ),
        ),
      ),
    );
  }
  draw();

  root.append(
    el('h2', {}, 'Every run'),
    el(
      'table',
      { 'data-test': 'sweep-runs' },
      el('thead', {}, el('tr', {}, el('th', {}, '#'), data.varying.map((p) => el('th', {}, p)), el('th', { class: 'num' }, 'pnl_total'), el('th', { class: 'num' }, 'roi_total'), el('th', {}, 'error'))),
      el(
        'tbody',
        {},
        data.runs.slice(0, 1000).map((r) =>
          el(
            'tr',
            {},
            el('td', {}, String(r.index)),
            data.varying.map((p) => el('td', {}, String(r.settings[p]))),
            el('td', { class: 'num' }, r.summary ? formatNumber(r.summary.pnl_total, 2, true) : ''),
            el('td', { class: 'num' }, r.summary ? formatPercent(r.summary.roi_total, true) : ''),
            el('td', {}, r.error ? JSON.stringify(r.error) : ''),
          ),
        ),
      ),
    ),
  );
}

function plainChart(root, { title, xLabel, yLabel, xs, series, points = false }) {
  return plot(
    root,
    {
      title,
      width: chartWidth(root),
      height: 320,
      axes: [{ label: xLabel }, { label: yLabel, size: 70 }],
      series: [
        { label: xLabel },
        ...series.map((s) => ({
          label: s.label,
          stroke: s.colour,
          width: 2,
          ...(points ? { paths: () => null, points: { show: true, size: 7, stroke: s.colour, fill: s.colour } } : { points: { show: true, size: 6 } }),
        })),
      ],
    },
    [xs, ...series.map((s) => s.values)],
  );
}

export function renderLatency(root, data) {
  const kept = data.points.map((p) => (p.pnl_kept === null ? null : 100 * p.pnl_kept));
  plainChart(root, {
    title: 'Share of the zero-delay PnL kept (%)',
    xLabel: 'copy delay (s)',
    yLabel: '%',
    xs: data.points.map((p) => p.delay_seconds),
    series: [{ label: 'PnL kept %', values: kept, colour: '#2f6fde' }],
  });
  root.append(
    el(
      'p',
      {},
      data.zero_delay_pnl <= 0
        ? `The zero-delay PnL is ${formatNumber(data.zero_delay_pnl)} USD: there is no profit to keep.`
        : data.half_pnl_gone_at === null
          ? `Half of the zero-delay PnL (${formatNumber(data.zero_delay_pnl)} USD) is still kept at every delay tried.`
          : `Half of the zero-delay PnL (${formatNumber(data.zero_delay_pnl)} USD) is gone at a delay of ${data.half_pnl_gone_at} s.`,
    ),
    el(
      'table',
      { 'data-test': 'latency-table' },
      el('thead', {}, el('tr', {}, ['delay (s)', 'pnl_total', 'roi_total', 'trades', 'deals', 'PnL kept'].map((h, i) => el('th', { class: i > 0 ? 'num' : '' }, h)))),
      el(
        'tbody',
        {},
        data.points.map((p) =>
          el(
            'tr',
            {},
            el('td', {}, String(p.delay_seconds)),
            el('td', { class: 'num' }, formatNumber(p.pnl_total, 2, true)),
            el('td', { class: 'num' }, formatPercent(p.roi_total, true)),
            el('td', { class: 'num' }, String(p.trades)),
            el('td', { class: 'num' }, String(p.deals)),
            el('td', { class: 'num' }, p.pnl_kept === null ? '–' : formatPercent(100 * p.pnl_kept)),
          ),
        ),
      ),
    ),
  );
}

export function renderRank(root, data) {
  // uPlot draws over an increasing x: the wallets in order of their own ROI.
  const byOwn = [...data.rows].sort((a, b) => a.own_roi - b.own_roi);
  plainChart(root, {
    title: "Each wallet's own ROI (→) against the ROI of a copier of it (↑), %",
    xLabel: "wallet's own ROI %",
    yLabel: "copier's ROI %",
    xs: byOwn.map((r) => r.own_roi),
    series: [{ label: 'wallets', values: byOwn.map((r) => r.copy_roi), colour: '#8e44ad' }],
    points: true,
  });
  const headers = ['#', 'wallet', 'copy PnL', 'copy ROI', 'deals', 'win %', 'profit factor', 'max DD', 'own PnL', 'own ROI'];
  root.append(
    el(
      'table',
      { 'data-test': 'rank-table' },
      el('thead', {}, el('tr', {}, headers.map((h, i) => el('th', { class: i > 1 ? 'num' : '' }, h)))),
      el(
        'tbody',
        {},
        data.rows.map((r, i) =>
          el(
            'tr',
            {},
            el('td', {}, String(i + 1)),
            el('td', { title: r.wallet }, shortAddress(r.wallet)),
            el('td', { class: 'num' }, formatNumber(r.copy_pnl, 2, true)),
            el('td', { class: 'num' }, formatPercent(r.copy_roi, true)),
            el('td', { class: 'num' }, String(r.deals)),
            el('td', { class: 'num' }, formatNumber(r.winrate, 1)),
            el('td', { class: 'num' }, r.profit_factor === null ? '–' : formatNumber(r.profit_factor)),
            el('td', { class: 'num' }, formatNumber(r.max_drawdown)),
            el('td', { class: 'num' }, formatNumber(r.own_pnl, 2, true)),
            el('td', { class: 'num' }, formatPercent(r.own_roi, true)),
          ),
        ),
      ),
    ),
  );
}
