// A wallet's page: its indicators per period (its own beside a follower's), its realized PnL
// and investment charts, and its deals. Four calls of the API, one credit each.
import { el, formatNumber, formatTime, shortAddress } from '../report/format.js';
import { timeLineChart } from '../report/charts.js';
import { problemText } from './api.js';

const PERIODS = ['12h', '24h', '7d', '1m', '1y', 'all'];

export async function showWallet(root, api, network, address) {
  root.replaceChildren(
    el('h2', { 'data-test': 'wallet-title' }, `Wallet ${address}`),
    el('p', { class: 'muted' }, 'Loading…'),
  );
  const base = `/v1/wallets/${encodeURIComponent(address)}`;
  const [indicators, pnl, investment, deals] = await Promise.all([
    api.call('GET', `${base}/indicators`, { query: { network } }),
    api.call('GET', `${base}/charts/pnl`, { query: { network, period: '1y' } }),
    api.call('GET', `${base}/charts/investment_amount`, { query: { network, period: '1y' } }),
    api.call('GET', `${base}/deals`, { query: { network, per_page: 50 } }),
  ]);
  root.replaceChildren(el('h2', { 'data-test': 'wallet-title' }, `Wallet ${address}`));
  for (const answer of [indicators, pnl, investment, deals]) {
    if (answer.status !== 200) {
      root.append(el('p', { class: 'message' }, problemText(answer.status, answer.body)));
      return;
    }
  }

  const map = indicators.body.result.indicators;
  root.append(
    el('h3', {}, 'Indicators: the wallet’s own / a follower copying it'),
    el(
      'table',
      { 'data-test': 'indicators' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', {}, 'indicator'),
          PERIODS.map((p) => el('th', { class: 'num' }, p)),
        ),
      ),
      el(
        'tbody',
        {},
        Object.entries(map).map(([name, byPeriod]) =>
          el(
            'tr',
            {},
            el('td', {}, name),
            PERIODS.map((p) =>
              el(
                'td',
                { class: 'num' },
                `${formatNumber(byPeriod[p].initial)}` +
                  ` / ${byPeriod[p].following === null ? '–' : formatNumber(byPeriod[p].following)}`,
              ),
            ),
          ),
        ),
      ),
    ),
  );

  const charts = el('div');
  root.append(el('h3', {}, 'Charts (last year of the tape)'), charts);
  const p = pnl.body.result.chart;
  if (p.timestamps.length > 0) {
    timeLineChart(charts, {
      title: 'Realized PnL (USD)',
      times: p.timestamps,
      series: [
        { label: 'wallet', values: p.initial_values, colour: '#2f6fde' },
        { label: 'follower', values: p.following_values, colour: '#27ae60' },
      ],
    });
  }
  const i = investment.body.result.chart;
  if (i.timestamps.length > 0)
    timeLineChart(charts, {
      title: 'Investment amount (USD)',
      times: i.timestamps,
      series: [{ label: 'invested', values: i.values, colour: '#8e44ad' }],
    });

  root.append(
    el('h3', {}, `Deals (first ${deals.body.result.deals.length})`),
    el(
      'table',
      { 'data-test': 'wallet-deals' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ['token', 'open (UTC)', 'status', 'trades', 'PnL USD (wallet / follower)', 'ROI % (wallet / follower)'].map(
            (h) => el('th', {}, h),
          ),
        ),
      ),
      el(
        'tbody',
        {},
        deals.body.result.deals.map((d) =>
          el(
            'tr',
            {},
            el('td', { title: d.token.address }, d.token.symbol ?? shortAddress(d.token.address)),
            el('td', {}, formatTime(d.open_time.initial)),
            el('td', {}, d.status.initial),
            el('td', { class: 'num' }, d.trades_number.initial),
            el(
              'td',
              { class: 'num' },
              `${formatNumber(d.pnl_total.initial, 2, true)}` +
                ` / ${d.pnl_total.following === null ? '–' : formatNumber(d.pnl_total.following, 2, true)}`,
            ),
            el(
              'td',
              { class: 'num' },
              `${formatNumber(d.roi_total.initial, 2, true)}` +
                ` / ${d.roi_total.following === null ? '–' : formatNumber(d.roi_total.following, 2, true)}`,
            ),
          ),
        ),
      ),
    ),
  );
}
