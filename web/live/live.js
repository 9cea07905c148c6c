// The live page of `copysim follow`: where the feed stands, the open positions, PnL and equity
// over time, the recent trades and the skipped copies, redrawn from the server-sent events of
// /events (`status` after batches, `state` the response so far at most once a second).
import { el, formatNumber, formatPercent, formatPrice, formatTime, formatUsd, shortAddress } from '../report/format.js';
import { timeLineChart } from '../report/charts.js';

const RECENT = 50;
const root = document.getElementById('live');
const statusBar = el('div', { class: 'status', 'data-test': 'status' }, 'waiting for the feed…');
const connection = el('p', { class: 'connection', 'data-test': 'connection' }, 'connecting…');
const body = el('div', { 'data-test': 'body' });
root.replaceChildren(el('h1', {}, 'copysim follow: paper trading on a live feed'), statusBar, connection, body);

const events = new EventSource('/events');
events.addEventListener('open', () => (connection.textContent = 'live: updated as the feed comes'));
events.addEventListener('error', () => (connection.textContent = 'disconnected: retrying…'));
events.addEventListener('status', (e) => showStatus(JSON.parse(e.data)));
events.addEventListener('state', (e) => showState(JSON.parse(e.data)));
events.addEventListener('failure', (e) => body.replaceChildren(el('p', { class: 'error' }, JSON.parse(e.data).detail)));

function time(t) {
  return t === null || t === undefined ? '–' : formatTime(t);
}

function showStatus(s) {
  const state = s.error
    ? el('span', { class: 'failed' }, `stopped: ${s.error}`)
    : s.ended
      ? el('span', { class: 'ended' }, 'ended: the response is final')
      : el('span', { class: 'running' }, 'running');
  const refused =
    Object.entries(s.refused)
      .filter(([, n]) => n > 0)
      .map(([code, n]) => `${n} ${code}`)
      .join(', ') || 'none';
  statusBar.replaceChildren(
    state,
    el('span', {}, `feed time ${time(s.feed_time)}`),
    el('span', {}, `applied up to ${time(s.applied_up_to)}`),
    el('span', { 'data-test': 'swaps' }, `${s.applied_swaps} swaps applied, ${s.held_swaps} held`),
    el('span', {}, `lateness ${s.lateness} s, p99 wait ${formatNumber(s.latency_ms.p99, 0)} ms`),
    el('span', {}, `refused: ${refused}`),
  );
}

function section(title, test, ...children) {
  return el('section', { 'data-test': test }, el('h2', {}, title), ...children);
}

function card(label, value, note) {
  return el(
    'div',
    { class: 'card' },
    el('div', { class: 'label' }, label),
    el('div', { class: 'value' }, value),
    note ? el('div', { class: 'note' }, note) : null,
  );
}

function table(head, rows) {
  return el(
    'table',
    {},
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        head.map(([label, num]) => el('th', { class: num ? 'num' : '' }, label)),
      ),
    ),
    el('tbody', {}, rows),
  );
}

function tokenName(token) {
  return token.symbol ?? token.name ?? shortAddress(token.address);
}

function showState(response) {
  const s = response.summary;
  const open = response.deals.filter((d) => d.status === 'open');
  const copier = response.copier;
  const cards = el(
    'div',
    { class: 'cards', 'data-test': 'summary' },
    card(
      'PnL total',
      formatUsd(s.pnl_total, true),
      `realized ${formatNumber(s.pnl_realized, 2, true)} · unrealized ${formatNumber(s.pnl_unrealized, 2, true)}`,
    ),
    card('ROI total', formatPercent(s.roi_total, true)),
    card('Invested', formatUsd(s.investment_amount), `open deals ${formatNumber(s.investment_amount_open_deals)}`),
    card('Fees', formatUsd(s.network_fees + s.bot_fees)),
    card('Deals', String(response.deals.length), `${open.length} open`),
    copier && copier.ending_equity !== null
      ? card('Equity', formatUsd(copier.ending_equity), `cash ${formatNumber(copier.ending_cash)}`)
      : null,
  );
  body.replaceChildren(
    section('Summary', 'summary-section', cards),
    pnlSection(response),
    openSection(open),
    tradesSection(response),
    skippedSection(response),
  );
}

function pnlSection(response) {
  const box = section('PnL and equity over time', 'pnl-chart');
  const chart = response.cumulative_pnl_and_fee_chart;
  if (chart.timestamps.length === 0) {
    box.append(el('p', { class: 'muted' }, 'No trade copied yet.'));
    return box;
  }
  const series = [
    { label: 'pnl_total', values: chart.pnl_total, colour: '#2f6fde' },
    { label: 'pnl_realized', values: chart.pnl_realized, colour: '#1e8449' },
  ];
  const balance = response.copier?.starting_balance;
  if (balance !== null && balance !== undefined)
    series.push({
      label: 'equity (balance + PnL)',
      values: chart.pnl_total.map((v) => balance + v),
      colour: '#af7ac5',
    });
  // Drawn once the section is in the page: the chart takes its width from it.
  requestAnimationFrame(() => timeLineChart(box, { title: 'Cumulative PnL (USD)', times: chart.timestamps, series }));
  return box;
}

function openSection(open) {
  const rows = open.map((d) =>
    el(
      'tr',
      {},
      el('td', {}, tokenName(d.token)),
      el('td', {}, time(d.open_time)),
      el('td', { class: 'num' }, formatNumber(d.investment_amount)),
      el('td', { class: 'num' }, formatNumber(d.pnl_unrealized, 2, true)),
      el('td', { class: 'num' }, formatNumber(d.pnl_total, 2, true)),
      el('td', { class: 'num' }, formatPercent(d.roi_total, true)),
      el('td', { class: 'num' }, String(d.trades_number)),
    ),
  );
  const head = [
    ['token'],
    ['opened'],
    ['invested', true],
    ['unrealized', true],
    ['PnL total', true],
    ['ROI', true],
    ['trades', true],
  ];
  return section(
    `Open positions (${open.length})`,
    'open-positions',
    open.length === 0 ? el('p', { class: 'muted' }, 'None open.') : table(head, rows),
  );
}

function tradesSection(response) {
  const trades = response.deals.flatMap((d) => d.trades.map((t) => ({ ...t, token: d.token })));
  trades.sort((a, b) => b.time - a.time);
  const rows = trades
    .slice(0, RECENT)
    .map((t) =>
      el(
        'tr',
        { class: t.type === 'buy' ? 'buy' : 'sell' },
        el('td', {}, time(t.time)),
        el('td', {}, t.type),
        el('td', {}, tokenName(t.token)),
        el('td', { class: 'num' }, formatNumber(t.usd_amount)),
        el('td', { class: 'num' }, formatPrice(t.usd_price)),
        el('td', { class: 'num' }, formatNumber(t.usd_network_fee + t.usd_bot_fee)),
      ),
    );
  const head = [['time (UTC)'], ['type'], ['token'], ['USD', true], ['price', true], ['fees', true]];
  const list = el(
    'table',
    { class: 'trades' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        head.map(([l, n]) => el('th', { class: n ? 'num' : '' }, l)),
      ),
    ),
    el('tbody', {}, rows),
  );
  return section(
    `Recent trades (${Math.min(RECENT, trades.length)} of ${trades.length})`,
    'recent-trades',
    trades.length === 0 ? el('p', { class: 'muted' }, 'None yet.') : list,
  );
}

function skippedSection(response) {
  const skipped = response.skipped_copies;
  if (skipped === undefined)
    return section(
      'Skipped copies',
      'skipped',
      el('p', { class: 'muted' }, 'Set report_skipped in the strategy to list the leader swaps not copied.'),
    );
  const recent = [...skipped].sort((a, b) => b.time - a.time).slice(0, RECENT);
  const rows = recent.map((k) =>
    el(
      'tr',
      {},
      el('td', {}, time(k.time)),
      el('td', {}, shortAddress(k.wallet)),
      el('td', {}, shortAddress(k.token)),
      el('td', {}, k.type),
      el('td', {}, k.reason),
    ),
  );
  const head = [['time (UTC)'], ['leader'], ['token'], ['type'], ['reason']];
  return section(
    `Skipped copies (${recent.length} of ${skipped.length})`,
    'skipped',
    skipped.length === 0 ? el('p', { class: 'muted' }, 'None.') : table(head, rows),
  );
}
