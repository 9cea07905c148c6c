// Pictures of many runs: a sweep's heatmap over two of the settings that vary, the latency
// curve, and the ranked wallets with a scatter of their own ROI against the copier's.
import { el, formatNumber, formatPercent, shortAddress } from './format.js';
import { chartWidth, plot } from './charts.js';

/** Distinct values in order: numbers by size, anything else as text. */
function axisValues(values) {
  const distinct = [...new Set(values.map((v) => JSON.stringify(v)))].map((v) => JSON.parse(v));
  return distinct.sort((a, b) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)),
  );
}

/** Bands of a colour scale on each side of zero (or in all, for a figure without a sign). */
const BANDS = 6;
const GREEN = [39, 174, 96];
const RED = [192, 57, 43];
const BLUE = [47, 111, 222];
const EMPTY = '#f4f6f7';

/** Figures where less is better (costs, counts of failures, money tied up): a cell shows its lowest run. */
const LOWER_IS_BETTER = new Set([
  'bot_fees',
  'network_fees',
  'slippage_loss',
  'top_deal_dominance',
  'copier.capital_required',
  'copier.max_drawdown',
  'copier.max_drawdown_percent',
  'copier.failed_transactions',
  'copier.failed_transaction_fees',
  'copier.sandwiched_trades',
  'copier.sandwich_loss',
  'copier.skipped_for_cash',
]);

/** Figures that count: written without decimals. */
const COUNTS = new Set(['copier.failed_transactions', 'copier.sandwiched_trades', 'copier.skipped_for_cash']);

/** Figures whose sign is a gain or a loss: drawn red below zero and green above. */
const isSigned = (metric) => /pnl|roi/.test(metric);

/** A run's figure: a summary member, or `copier.…` of its copier's wallet (null when absent). */
function figureOf(run, metric) {
  if (metric.startsWith('copier.')) return run.copier?.[metric.slice(7)] ?? null;
  return run.summary[metric] ?? null;
}

const shade = (rgb, t) => `rgb(${rgb.map((c) => Math.round(255 - (255 - c) * t)).join(',')})`;

/**
 * A colour scale that tells close values apart: values are placed by their rank, not their
 * size, so one large value does not wash the others out. The distinct values of each side of
 * zero (or all of them, for a figure without a sign) are cut into at most BANDS bands holding
 * as many values each; a band's colour deepens with its distance from zero (or with its value).
 * Gives each value's colour and the bands, for the legend.
 */
function quantileScale(values, signed, places) {
  const distinct = [...new Set(values.filter((v) => v !== null && Number.isFinite(v)))].sort((a, b) => a - b);
  const sides = signed
    ? [
        { rgb: RED, values: distinct.filter((v) => v < 0).reverse() },
        { rgb: GREEN, values: distinct.filter((v) => v > 0) },
      ]
    : [{ rgb: BLUE, values: distinct }];
  const colours = new Map();
  const bands = [];
  for (const { rgb, values: side } of sides) {
    const count = Math.min(BANDS, side.length);
    for (let k = 0; k < count; k++) {
      const members = side.slice(Math.floor((k * side.length) / count), Math.floor(((k + 1) * side.length) / count));
      const t = 0.2 + (0.8 * (k + 1)) / count;
      const colour = shade(rgb, t);
      for (const v of members) colours.set(v, { colour, deep: t > 0.7 });
      bands.push({ from: Math.min(...members), to: Math.max(...members), colour, places });
    }
  }
  if (signed && distinct.includes(0)) bands.push({ from: 0, to: 0, colour: '#ffffff', places });
  bands.sort((a, b) => a.from - b.from);
  return {
    colourOf: (v) =>
      v === null ? { colour: EMPTY, deep: false } : (colours.get(v) ?? { colour: '#ffffff', deep: false }),
    bands,
  };
}

const SWATCH = 'display:inline-block;width:14px;height:14px;vertical-align:middle;border:1px solid #ccc';

/** A band's values: `4`, or `1.50 to 2.75`. */
function rangeText({ from, to, places }) {
  return from === to ? formatNumber(from, places) : `${formatNumber(from, places)} to ${formatNumber(to, places)}`;
}

/** The scale's bands as swatches with their ranges. */
function legend(bands) {
  return el(
    'div',
    { class: 'filters', 'data-test': 'heatmap-legend' },
    el('span', { class: 'muted' }, 'colour by rank:'),
    bands.map((b) =>
      el(
        'span',
        { 'data-band': `${b.from}|${b.to}` },
        el('span', { style: `${SWATCH};background:${b.colour}` }),
        ` ${rangeText(b)}`,
      ),
    ),
  );
}

/** The copier's figures a table of runs shows: header, member, decimals. */
const COPIER_COLUMNS = [
  ['failed tx', 'failed_transactions', 0],
  ['failed fees', 'failed_transaction_fees', 2],
  ['sandwiched', 'sandwiched_trades', 0],
  ['sandwich loss', 'sandwich_loss', 2],
  ['cash skips', 'skipped_for_cash', 0],
  ['capital', 'capital_required', 2],
];

export function renderSweep(root, data) {
  const ok = data.runs.filter((r) => r.summary !== null);
  const failed = data.runs.length - ok.length;
  root.append(
    el('p', { class: 'muted' }, `${data.runs.length} requests: ${ok.length} answered, ${failed} refused (400).`),
  );
  if (ok.length === 0) return;
  // The summary's figures, and the copier's wallet's when a request reports it.
  const withCopier = ok.find((r) => r.copier);
  const copierMetrics = withCopier ? Object.keys(withCopier.copier).map((k) => `copier.${k}`) : [];
  const metrics = [...Object.keys(ok[0].summary), ...copierMetrics];
  const state = { metric: 'pnl_total', x: data.varying[0], y: data.varying[1] };
  const select = (key, options) =>
    el(
      'select',
      {
        'data-test': `sweep-${key}`,
        onchange: (e) => {
          state[key] = e.target.value;
          draw();
        },
      },
      options.map((o) => el('option', { value: o, selected: o === state[key] }, o)),
    );
  const grid = el('div', { 'data-test': 'heatmap' });
  root.append(
    el(
      'div',
      { class: 'filters' },
      el('label', {}, 'figure ', select('metric', metrics)),
      data.varying.length > 0 ? el('label', {}, 'across ', select('x', data.varying)) : null,
      data.varying.length > 1 ? el('label', {}, 'down ', select('y', data.varying)) : null,
    ),
    grid,
  );
  if (data.varying.length === 0) {
    grid.append(el('p', { class: 'muted' }, 'The requests do not differ: every run has the same settings.'));
  }
  function draw() {
    if (data.varying.length > 0) grid.replaceChildren(...heatmap(ok, state));
  }
  draw();
  root.append(el('h2', {}, 'Every run'), runsTable(data, withCopier !== undefined));
}

/**
 * The heatmap of a figure over two settings, and its legend. A cell holds the best run of its
 * two settings (others may vary too: their count is shown): the highest, or the lowest of a
 * figure where less is better.
 */
function heatmap(ok, { metric, x: across, y: down }) {
  const xs = axisValues(ok.map((r) => r.settings[across]));
  const ys = down ? axisValues(ok.map((r) => r.settings[down])) : [null];
  const lower = LOWER_IS_BETTER.has(metric);
  const cells = new Map();
  for (const run of ok) {
    const key = JSON.stringify([run.settings[across], down ? run.settings[down] : null]);
    const v = figureOf(run, metric);
    const cell = cells.get(key) ?? { best: null, runs: 0, index: run.index };
    cell.runs++;
    if (v !== null && (cell.best === null || (lower ? v < cell.best : v > cell.best))) {
      Object.assign(cell, { best: v, index: run.index });
    }
    cells.set(key, cell);
  }
  const places = COUNTS.has(metric) ? 0 : 2;
  const scale = quantileScale(
    [...cells.values()].map((c) => c.best),
    isSigned(metric),
    places,
  );
  const cellOf = (x, y) => {
    const cell = cells.get(JSON.stringify([x, y]));
    if (!cell) return el('td', {}, '');
    const where = `${across} = ${x}${down ? `, ${down} = ${y}` : ''}`;
    const runs = cell.runs > 1 ? `, the best of ${cell.runs} runs` : '';
    const title = `${where}: ${metric} ${formatNumber(cell.best, 4)} (request #${cell.index}${runs})`;
    const { colour, deep } = scale.colourOf(cell.best);
    const style = `background:${colour}${deep ? ';color:#fff' : ''}`;
    return el('td', { style, title, 'data-value': cell.best ?? '' }, formatNumber(cell.best, places));
  };
  const corner = down ? `${down} ↓ / ${across} →` : `${across} →`;
  const table = el(
    'table',
    { class: 'heatmap' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', {}, corner),
        xs.map((x) => el('th', { class: 'num' }, String(x))),
      ),
    ),
    el(
      'tbody',
      {},
      ys.map((y) =>
        el(
          'tr',
          {},
          el('th', {}, y === null ? metric : String(y)),
          xs.map((x) => cellOf(x, y)),
        ),
      ),
    ),
  );
  return [table, legend(scale.bands)];
}

/** Every run of a sweep: its settings that vary, its PnL and ROI, the copier's figures, or its 400 body. */
function runsTable(data, withCopier) {
  const copierCells = (r) =>
    COPIER_COLUMNS.map(([, key, places]) =>
      el('td', { class: 'num' }, r.copier ? formatNumber(r.copier[key], places) : ''),
    );
  return el(
    'table',
    { 'data-test': 'sweep-runs' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', {}, '#'),
        data.varying.map((p) => el('th', {}, p)),
        el('th', { class: 'num' }, 'pnl_total'),
        el('th', { class: 'num' }, 'roi_total'),
        withCopier ? COPIER_COLUMNS.map(([header]) => el('th', { class: 'num' }, header)) : null,
        el('th', {}, 'error'),
      ),
    ),
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
          withCopier ? copierCells(r) : null,
          el('td', {}, r.error ? JSON.stringify(r.error) : ''),
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
          ...(points
            ? { paths: () => null, points: { show: true, size: 7, stroke: s.colour, fill: s.colour } }
            : { points: { show: true, size: 6 } }),
        })),
      ],
    },
    [xs, ...series.map((s) => s.values)],
  );
}

/** What a later copy costs the copier's wallet, beside the latency curve's figures. */
const LATENCY_COPIER_COLUMNS = COPIER_COLUMNS.filter(([, key]) => key !== 'capital_required');

export function renderLatency(root, data) {
  const withCopier = data.points.some((p) => p.copier);
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
          : `Half of the zero-delay PnL (${formatNumber(data.zero_delay_pnl)} USD)` +
            ` is gone at a delay of ${data.half_pnl_gone_at} s.`,
    ),
    el(
      'table',
      { 'data-test': 'latency-table' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ['delay (s)', 'pnl_total', 'roi_total', 'trades', 'deals', 'PnL kept'].map((h, i) =>
            el('th', { class: i > 0 ? 'num' : '' }, h),
          ),
          withCopier ? LATENCY_COPIER_COLUMNS.map(([header]) => el('th', { class: 'num' }, header)) : null,
        ),
      ),
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
            withCopier
              ? LATENCY_COPIER_COLUMNS.map(([, key, places]) =>
                  el('td', { class: 'num' }, p.copier ? formatNumber(p.copier[key], places) : ''),
                )
              : null,
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
  const balance = data.starting_balance ?? null;
  const split = data.out_of_sample ?? null;
  const headers = [
    '#',
    'wallet',
    'copy PnL',
    'copy ROI',
    'deals',
    'win %',
    'profit factor',
    'max DD',
    'capital required',
    ...(balance === null ? [] : ['cash skips']),
    'own PnL',
    'own ROI',
    ...(split ? ['after PnL', 'after ROI', 'after deals'] : []),
  ];
  if (balance !== null) {
    root.append(
      el(
        'p',
        { 'data-test': 'rank-balance' },
        `Each copier starts with ${formatNumber(balance)} USD: a copied buy it cannot pay for is skipped (cash skips).`,
      ),
    );
  }
  root.append(
    el(
      'table',
      { 'data-test': 'rank-table' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          headers.map((h, i) => el('th', { class: i > 1 ? 'num' : '' }, h)),
        ),
      ),
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
            el('td', { class: 'num' }, formatNumber(r.capital_required)),
            balance === null ? null : el('td', { class: 'num' }, String(r.skipped_for_cash)),
            el('td', { class: 'num' }, formatNumber(r.own_pnl, 2, true)),
            el('td', { class: 'num' }, formatPercent(r.own_roi, true)),
            split
              ? [
                  el('td', { class: 'num' }, formatNumber(r.after_pnl, 2, true)),
                  el('td', { class: 'num' }, formatPercent(r.after_roi, true)),
                  el('td', { class: 'num' }, String(r.after_deals)),
                ]
              : null,
          ),
        ),
      ),
    ),
  );
  if (split) renderOutOfSample(root, data.rows, split, balance);
}

/**
 * The out-of-sample verdict, and the correlation as a picture: each wallet's copier before the
 * split against after it.
 */
function renderOutOfSample(root, rows, split, balance) {
  root.append(outOfSample(split, balance));
  const byBefore = [...rows].sort((a, b) => a.copy_roi - b.copy_roi);
  plainChart(root, {
    title: "Each wallet's copier ROI before the split (→) against after it (↑), %",
    xLabel: 'ROI before the split %',
    yLabel: 'ROI after the split %',
    xs: byBefore.map((r) => r.copy_roi),
    series: [{ label: 'wallets', values: byBefore.map((r) => r.after_roi), colour: '#2f6fde' }],
    points: true,
  });
}

/**
 * The out-of-sample verdict of a ranking: the windows, the rank correlation, and the top
 * wallets copied together after the split.
 */
function outOfSample(check, balance) {
  const { top, before, after } = check;
  const rho =
    check.spearman === null ? 'not defined (fewer than two wallets, or no spread)' : formatNumber(check.spearman, 3);
  const skips = balance === null ? '' : `, ${top.skipped_for_cash} copies skipped for cash`;
  const together =
    top.pnl_total === null
      ? 'No wallet to copy after the split.'
      : `Copying the before-split top ${top.wallets.length} together after the split: ` +
        `PnL ${formatNumber(top.pnl_total, 2, true)} USD, ROI ${formatPercent(top.roi_total, true)}, ` +
        `capital required ${formatNumber(top.capital_required)} USD${skips}.`;
  const windows =
    `Ranked on ${before.from_date} → ${before.to_date}, ` + `evaluated on ${after.from_date} → ${after.to_date}`;
  const correlation = `Spearman's rank correlation of ${check.sort_by}, before against after: ${rho}`;
  return el(
    'div',
    { 'data-test': 'rank-out-of-sample' },
    el('h2', {}, 'Out of sample'),
    el('p', {}, `${windows}.`),
    el(
      'p',
      { 'data-test': 'rank-spearman', 'data-value': check.spearman ?? '' },
      `${correlation} (${check.spearman_wallets} wallets).`,
    ),
    el('p', { 'data-test': 'rank-top', 'data-value': top.pnl_total ?? '' }, together),
    top.wallets.length > 0
      ? el('p', { class: 'muted' }, `The top wallets: ${top.wallets.map(shortAddress).join(', ')}.`)
      : null,
  );
}
