// The report page: renderReport(root, data) draws report data of any kind (a simulation, a
// sweep, a latency curve, a ranking) into `root`.
import { el, formatNumber, formatPercent, formatUsd, shortAddress, TAG_COLOURS } from './format.js';
import { drawdown, timeLineChart, timeScatterChart } from './charts.js';
import { dealReader, dealsTable } from './deals-table.js';
import { showDeal } from './deal-panel.js';
import { renderLatency, renderRank, renderSweep } from './grids.js';
import { strategyPhrases } from './strategy-text.js';
import { card, copierPanel, leadersTable } from './copier-panel.js';

export function renderReport(root, data) {
  root.replaceChildren(el('h1', {}, data.title));
  if (data.kind === 'simulation') renderSimulation(root, data);
  else if (data.kind === 'sweep') renderSweep(root, data);
  else if (data.kind === 'latency') renderLatency(root, data);
  else if (data.kind === 'rank') renderRank(root, data);
  else root.append(el('p', { class: 'error' }, `unknown report kind "${data.kind}"`));
}

function section(root, title, ...children) {
  const box = el('section', {}, el('h2', {}, title), ...children);
  root.append(box);
  return box;
}

function renderSimulation(root, data) {
  const s = data.summary;
  const read = dealReader(data);
  const closed = data.deals.filter((row) => read(row, 'status') === 'closed').length;
  section(
    root,
    'Summary',
    el(
      'div',
      { class: 'cards', 'data-test': 'summary' },
      card(
        'PnL total',
        formatUsd(s.pnl_total, true),
        `realized ${formatNumber(s.pnl_realized, 2, true)} · unrealized ${formatNumber(s.pnl_unrealized, 2, true)}`,
      ),
      card('ROI total', formatPercent(s.roi_total, true), `realized ${formatPercent(s.roi_realized, true)}`),
      card(
        'Invested',
        formatUsd(s.investment_amount),
        `closed deals ${formatNumber(s.investment_amount_closed_deals)}` +
          ` · open ${formatNumber(s.investment_amount_open_deals)}`,
      ),
      card('Volume', formatUsd(s.trading_volume)),
      card(
        'Fees',
        formatUsd(s.network_fees + s.bot_fees),
        `network ${formatNumber(s.network_fees)} · bot ${formatNumber(s.bot_fees)}`,
      ),
      card('Slippage', formatUsd(s.slippage_loss), 'lost to price impact'),
      card('R² of closed deals', formatNumber(s.linearity_r2_closed_deals, 4), '1 = PnL grew in a straight line'),
      card('Top deal', formatPercent(s.top_deal_dominance), 'of the positive PnL'),
      card('Deals', String(data.deals.length), `${closed} closed · ${data.deals.length - closed} open`),
      ...riskCards(data.risk),
    ),
    settings(data.request),
  );

  if (data.copier) copierPanel(section(root, "The copier's wallet"), data);
  if (data.leaders) section(root, 'Leaders: who made the money', leadersTable(data));

  const chart = withEnd(data.chart, data.chart_end);
  const curves = section(root, 'PnL and fees over time');
  if (chart.timestamps.length === 0)
    curves.append(el('p', { class: 'muted' }, 'No trade was copied: nothing to draw.'));
  else {
    // fee_sum holds the network and the bot fees; bot_fee is the bot's part of it.
    const series = [
      { label: 'pnl_total', values: chart.pnl_total, colour: '#2f6fde' },
      { label: 'pnl_realized', values: chart.pnl_realized, colour: '#27ae60' },
      { label: 'fees (network + bot)', values: chart.fee_sum, colour: '#e67e22' },
    ];
    if (chart.bot_fee.some((f) => f !== 0)) {
      series.push({ label: 'of which bot fees', values: chart.bot_fee, colour: '#b07aa1' });
    }
    timeLineChart(curves, {
      title: `Cumulative PnL and fees (USD)${data.chart_end ? ', to the end of the window' : ''}`,
      times: chart.timestamps,
      sync: 'pnl',
      series,
    });
    timeLineChart(curves, {
      title: 'Drawdown of pnl_total (USD below its best so far)',
      times: chart.timestamps,
      sync: 'pnl',
      height: 160,
      series: [
        { label: 'drawdown', values: drawdown(chart.pnl_total), colour: '#c0392b', fill: 'rgba(192,57,43,0.15)' },
      ],
    });
  }

  const scatter = section(root, "Deals: each deal's PnL at its open time, by how it closed");
  if (data.deals.length > 0) {
    const byTag = new Map();
    data.deals.forEach((row) => {
      const tag = read(row, 'special_tag') ?? 'none';
      if (!byTag.has(tag)) byTag.set(tag, { times: [], values: [] });
      byTag.get(tag).times.push(read(row, 'open_time'));
      byTag.get(tag).values.push(read(row, 'pnl_total'));
    });
    const groups = [...byTag]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([tag, g]) => ({
        label: tag === 'none' ? 'no special tag' : tag,
        colour: TAG_COLOURS[tag] ?? '#555',
        size: 5,
        ...g,
      }));
    timeScatterChart(scatter, { title: 'pnl_total per deal (USD)', groups, yLabel: 'USD' });
  }

  if (data.skipped) {
    const entries = Object.entries(data.skipped).sort(([, a], [, b]) => b - a);
    const most = Math.max(1, ...entries.map(([, n]) => n));
    section(
      root,
      'Leader swaps not copied, by reason',
      entries.length === 0
        ? el('p', { class: 'muted' }, 'Every leader swap in the window was copied.')
        : el(
            'table',
            { class: 'bars', 'data-test': 'skipped' },
            entries.map(([reason, n]) =>
              el(
                'tr',
                {},
                el('td', {}, reason),
                el('td', { class: 'num' }, String(n)),
                el('td', {}, el('div', { class: 'bar', style: `width:${(100 * n) / most}%` })),
              ),
            ),
          ),
    );
  }

  const detail = el(
    'div',
    { class: 'deal-detail', 'data-test': 'deal-detail' },
    el('p', { class: 'muted' }, 'Click a deal to see its trades and the token’s price over its life.'),
  );
  const table = section(root, 'Deals');
  dealsTable(table, data, async (index) => {
    await showDeal(detail, data, index);
    detail.scrollIntoView({ block: 'nearest' });
  });
  table.append(detail);
}

/** The request's settings, as a compact definition list. */
function settings(request) {
  if (!request) return el('p', { class: 'muted' }, 'The request that produced this response was not given.');
  const leaders = request.wallets.map(shortAddress);
  const rows = [
    ['network', request.network],
    ['window', `${request.from_date} → ${request.to_date} (UTC, both days included)`],
    ['leaders', `${request.wallets.length}: ${leaders.slice(0, 8).join(', ')}${leaders.length > 8 ? ', …' : ''}`],
    [
      'buy',
      `${request.buy_percentage} % of the leader's amount` +
        `, at most ${request.max_buy_amount} USD a buy, ${request.max_position_amount} USD a position`,
    ],
    ['extra buys a deal', String(request.max_dupe_buy_times)],
    ['fees a trade', `${request.priority_fee} priority + ${request.bribe} bribe (${request.network.toUpperCase()})`],
    ['close_all', request.close_all ? 'on' : 'off'],
    ['inactivity time-fix', request.inactivity_time_fix ? `after ${request.inactivity_time_fix.hours} h` : 'off'],
    ['bot fees', request.include_bot_fees ? 'on' : 'off'],
  ];
  if (request.strategy) {
    const phrases = strategyPhrases(request.strategy);
    const list = el(
      'ul',
      { class: 'phrases', 'data-test': 'strategy' },
      phrases.map((p) => el('li', {}, p)),
    );
    rows.push(['strategy', phrases.length === 0 ? 'the defaults: copies at once, no exits of its own' : list]);
  }
  return el(
    'details',
    { class: 'settings', open: true },
    el('summary', {}, 'Settings'),
    el(
      'dl',
      {},
      rows.map(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]),
    ),
  );
}

/** The chart's series with its point at window_end added, when there is one. */
function withEnd(chart, end) {
  if (!end) return chart;
  const last = (name) => end[name === 'timestamps' ? 'time' : name];
  return Object.fromEntries(Object.entries(chart).map(([name, values]) => [name, [...values, last(name)]]));
}

/** Max drawdown, win rate and profit factor. */
function riskCards(risk) {
  const equity = risk.drawdown_of === 'equity';
  const fall = equity ? "the equity's largest fall from its peak" : "pnl_total's largest fall from its best";
  const percent = risk.max_drawdown_percent === null ? '' : ` (${formatPercent(risk.max_drawdown_percent)})`;
  const closed = `${risk.won} won · ${risk.lost} lost of ${risk.closed_deals} closed deals`;
  const factorNote =
    risk.profit_factor === null && risk.won > 0 ? 'no closed deal lost' : 'gains of closed deals ÷ their losses';
  const factor = risk.profit_factor === null ? (risk.won > 0 ? '∞' : '–') : formatNumber(risk.profit_factor, 2);
  return [
    card('Max drawdown', formatUsd(risk.max_drawdown), `${fall}${percent}`),
    card('Win rate', risk.win_rate === null ? '–' : formatPercent(risk.win_rate), closed),
    card('Profit factor', factor, factorNote),
  ];
}
