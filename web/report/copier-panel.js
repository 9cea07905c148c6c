// The copier's wallet (model 3.0) on the report page: its cards, its cash and equity over time
// with the equity's drawdown, and each followed wallet's share of the result.
import { el, formatNumber, formatPercent, formatUsd, shortAddress } from './format.js';
import { drawdown, timeLineChart } from './charts.js';

/** A summary card: a label, a value and an optional note below. */
export function card(label, value, note) {
  return el(
    'div',
    { class: 'card' },
    el('div', { class: 'label' }, label),
    el('div', { class: 'value' }, value),
    note ? el('div', { class: 'note' }, note) : null,
  );
}

/** The copier's cards, and its curves when the report holds them (else where to get them). */
export function copierPanel(container, data) {
  const c = data.copier;
  const balance = c.starting_balance;
  container.append(
    el(
      'div',
      { class: 'cards', 'data-test': 'copier' },
      balance === null
        ? card('Balance', 'unlimited', 'no starting_balance_usd: nothing refused for cash')
        : card(
            'Ending equity',
            formatUsd(c.ending_equity),
            `from ${formatNumber(balance)} · ROI on the balance ${formatPercent(c.roi_on_balance, true)}`,
          ),
      balance === null
        ? null
        : card('Ending cash', formatUsd(c.ending_cash), 'equity less the open deals at their last prices'),
      card('Capital required', formatUsd(c.capital_required), 'the most money in use at once, fees included'),
      card(
        'Failed transactions',
        formatNumber(c.failed_transactions, 0),
        `${formatUsd(c.failed_transaction_fees)} in fees`,
      ),
      card(
        'Sandwiched trades',
        formatNumber(c.sandwiched_trades, 0),
        `${formatUsd(c.sandwich_loss)} lost to sandwiches`,
      ),
      card(
        'Skipped for cash',
        formatNumber(c.skipped_for_cash, 0),
        'copied buys refused for want of cash (insufficient_balance)',
      ),
    ),
  );
  const curve = data.wallet;
  if (curve === null) {
    container.append(
      el(
        'p',
        { class: 'muted', 'data-test': 'wallet-chart-missing' },
        'The cash and equity chart needs the run: it is drawn by "copysim simulate … --html", ' +
          'or by "copysim report" given the --tape and --request the response was made from.',
      ),
    );
    return;
  }
  timeLineChart(container, {
    title: balance === null ? 'Cash and equity (USD; no starting balance: cash from 0)' : 'Cash and equity (USD)',
    times: curve.times,
    sync: 'pnl',
    series: [
      { label: 'equity', values: curve.equity, colour: '#2f6fde' },
      { label: 'cash', values: curve.cash, colour: '#7f8c8d', stepped: true },
    ],
  });
  timeLineChart(container, {
    title: 'Drawdown of equity (USD below its peak so far)',
    times: curve.times,
    sync: 'pnl',
    height: 160,
    series: [
      {
        label: 'drawdown',
        values: drawdown(curve.equity, balance ?? 0),
        colour: '#c0392b',
        fill: 'rgba(192,57,43,0.15)',
      },
    ],
  });
}

/** Each followed wallet's share of the result (`leaders`), best PnL first. */
export function leadersTable(data) {
  const rows = data.leaders
    .map((leader, index) => ({ index, ...leader }))
    .sort((a, b) => b.pnl_total - a.pnl_total || a.index - b.index);
  const headers = [
    '#',
    'wallet',
    'copied buys',
    'copied sells',
    'skipped',
    'invested USD',
    'realized USD',
    'unrealized USD',
    'failed fees USD',
    'PnL USD',
    'ROI',
  ];
  return el(
    'table',
    { class: 'leaders', 'data-test': 'leaders' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        headers.map((h, i) => el('th', { class: i === 1 ? '' : 'num' }, h)),
      ),
    ),
    el(
      'tbody',
      {},
      rows.map((l) =>
        el(
          'tr',
          { 'data-wallet': l.wallet },
          el('td', { class: 'num' }, String(l.index)),
          el('td', { title: l.wallet }, shortAddress(l.wallet)),
          el('td', { class: 'num' }, String(l.copied_buys)),
          el('td', { class: 'num' }, String(l.copied_sells)),
          el('td', { class: 'num' }, String(l.skipped)),
          el('td', { class: 'num' }, formatNumber(l.investment)),
          el('td', { class: 'num' }, formatNumber(l.pnl_realized, 2, true)),
          el('td', { class: 'num' }, formatNumber(l.pnl_unrealized, 2, true)),
          el('td', { class: 'num' }, formatNumber(l.failed_transaction_fees, 4)),
          el('td', { class: 'num' }, formatNumber(l.pnl_total, 2, true)),
          el('td', { class: 'num' }, formatPercent(l.roi_total, true)),
        ),
      ),
    ),
  );
}
