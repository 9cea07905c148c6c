// One deal in detail: its trades, and the token's price over the deal's life with the
// follower's buys and sells marked (and the leaders' own swaps, lighter) when the report holds
// the tape's prices.
import { el, formatNumber, formatPrice, formatTime, formatUsd } from './format.js';
import { timeScatterChart } from './charts.js';
import { dealReader, tokenLabel } from './deals-table.js';
import { part } from './parts.js';

/** Decodes a deal's price points (times as differences from the open time, prices in 10^e USD). */
export function decodePoints(points, start, e) {
  const times = [];
  const values = [];
  let t = start;
  const scale = 10 ** e;
  points.t.forEach((dt, i) => {
    t += dt;
    times.push(t);
    values.push(points.p[i] * scale);
  });
  return { times, values };
}

export async function showDeal(container, data, index) {
  const read = dealReader(data);
  const row = data.deals[index];
  const token = read(row, 'token');
  const at = Object.fromEntries(data.trade_columns.map((name, i) => [name, i]));
  const trades = (await part(data, 'trades'))[index].map((t) =>
    Object.fromEntries(Object.entries(at).map(([name, i]) => [name, t[i]])),
  );
  const prices = (await part(data, 'prices'))?.[index];

  const table = el(
    'table',
    { class: 'trades', 'data-test': 'trades-table' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        [
          'time (UTC)',
          'type',
          'USD amount',
          'quantity',
          'price USD',
          'avg buy price',
          'invested USD',
          'slippage',
          'network fee USD',
          'bot fee USD',
        ].map((h) => el('th', {}, h)),
      ),
    ),
    el(
      'tbody',
      {},
      trades.map((t) =>
        el(
          'tr',
          { class: t.type === 'buy' ? 'buy' : 'sell' },
          el('td', {}, formatTime(t.time)),
          el('td', {}, t.type),
          el('td', { class: 'num' }, formatNumber(t.usd_amount)),
          el('td', { class: 'num' }, formatNumber(t.quantity, 4)),
          el('td', { class: 'num' }, formatPrice(t.usd_price)),
          el('td', { class: 'num' }, formatPrice(t.usd_buy_price_avg)),
          el('td', { class: 'num' }, formatNumber(t.usd_invested)),
          el('td', { class: 'num' }, formatNumber(t.slippage, 4)),
          el('td', { class: 'num' }, formatNumber(t.usd_network_fee, 4)),
          el('td', { class: 'num' }, formatNumber(t.usd_bot_fee, 4)),
        ),
      ),
    ),
  );

  const chartBox = el('div', { class: 'deal-chart' });
  container.replaceChildren(
    el(
      'h3',
      { 'data-test': 'deal-title' },
      `Deal #${index}: ${tokenLabel(token)} `,
      el('span', { class: 'muted' }, token.address),
    ),
    el(
      'p',
      {},
      `${formatTime(read(row, 'open_time'))} → ${formatTime(read(row, 'last_operation_time'))} UTC` +
        ` · ${read(row, 'status')} · PnL ${formatUsd(read(row, 'pnl_total'), true)}` +
        ` · ${read(row, 'special_tag') ?? 'no special tag'}`,
    ),
    chartBox,
    table,
  );

  const priced = (type) =>
    trades.filter((t) => (type === 'buy' ? t.type === 'buy' : t.type !== 'buy') && t.usd_price !== null);
  const follower = (type, label, colour) => ({
    label,
    colour,
    size: 9,
    times: priced(type).map((t) => t.time),
    values: priced(type).map((t) => t.usd_price),
  });
  const groups = [follower('buy', 'follower buys', '#1e8449'), follower('sell', 'follower sells', '#c0392b')];
  const lines = [];
  if (prices) {
    const open = read(row, 'open_time');
    lines.push({
      label: 'price (every swap of the token)',
      colour: '#5d6d7e',
      ...decodePoints(prices.market, open, prices.e),
    });
    groups.unshift(
      {
        label: 'leader buys',
        colour: 'rgba(30,132,73,0.35)',
        size: 5,
        ...decodePoints(prices.leader_buys, open, prices.e),
      },
      {
        label: 'leader sells',
        colour: 'rgba(192,57,43,0.35)',
        size: 5,
        ...decodePoints(prices.leader_sells, open, prices.e),
      },
    );
  }
  timeScatterChart(chartBox, {
    title: prices
      ? `${tokenLabel(token)}: price over the deal's life`
      : `${tokenLabel(token)}: the follower's trade prices`,
    groups,
    lines,
    yLabel: 'USD',
    height: 280,
    prices: true,
  });
}
