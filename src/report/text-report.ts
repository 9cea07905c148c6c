import { Decimal, DecimalJs40 } from '../numeric/decimal.js';
import { requestWindow, type SimulatorRequest } from '../model/request.js';
import {
  SkippedCopySchema,
  type CopierResultJson,
  type LeaderResultJson,
  type SimulatedDeal,
  type SimulatorResponse,
  type SkippedCopyJson,
  type SpecialTag,
} from '../model/response.js';
import type { Strategy } from '../model/strategy.js';
import { utcIso } from '../model/utc-time.js';
import { strategyPhrases } from '../../web/report/strategy-text.js';
import { riskFigures, type RiskFigures } from '../../web/report/simulation-data.js';

/** Options of {@link formatTextReport}. */
export interface TextReportOptions {
  /** The report's first line; default `copysim simulation (NETWORK)`. */
  readonly title?: string;
  /** How many of the best deals to list; default 5. */
  readonly topDeals?: number;
  /**
   * The run's cash and equity after each change of cash (`ResponseParts.copierPoints`): with
   * them, the copier's section shows its equity over time.
   */
  readonly copierPoints?: readonly number[] | null;
}

type Tag = Exclude<SpecialTag, null>;
const SPECIAL_TAGS: readonly Tag[] = ['close_all', 'sell_timefix', 'sell_timefix_final'];

/** The skip reasons in the order the strategy extensions list them (section 7). */
const SKIP_REASONS = SkippedCopySchema.shape.reason.options;

/**
 * A readable report of a simulation: the run's inputs in one line, the summary figures, the best
 * deals by PnL and the deals closed by each special rule. Pure: a function of the response and
 * the request it answers, with times in UTC, so the same run always prints the same text.
 *
 * @example
 * const parsed = parseSimulatorRequest(body);
 * if (parsed.success) process.stdout.write(formatTextReport(simulate(tape, parsed.data), parsed.data));
 * // Inputs: sol · 2 leaders LdrA…1111, LdrB…2222 · 2024-03-10 → 2024-03-10 UTC · …
 * // Summary
 * //   PnL          total +54.81 USD · realized +54.81 · unrealized 0.00
 * //   …
 */
export function formatTextReport(
  response: SimulatorResponse,
  request: SimulatorRequest,
  options: TextReportOptions = {},
): string {
  const lines = [
    options.title ?? `copysim simulation (${request.network})`,
    `Inputs: ${inputsLine(request)}`,
    '',
    'Summary',
    ...summaryLines(response),
    ...copierLines(response, request, options.copierPoints ?? null),
    ...leaderLines(response.leaders),
    '',
    ...topDealLines(response.deals, options.topDeals ?? 5),
    '',
    'Deals closed by a special rule',
    ...specialTagLines(response.deals, specialTags(request.strategy)),
    ...skippedLines(response.skipped_copies),
  ];
  return `${lines.join('\n')}\n`;
}

/** The request in one line: leaders, window and settings. */
export function inputsLine(request: SimulatorRequest): string {
  const native = request.network.toUpperCase();
  const leaders = request.wallets.length;
  const shown =
    request.wallets.slice(0, 5).map(shortAddress).join(', ') + (leaders > 5 ? `, … (${leaders - 5} more)` : '');
  const timeFix = request.inactivity_time_fix === null ? 'off' : `after ${request.inactivity_time_fix.hours} h`;
  return [
    request.network,
    `${leaders} leader${leaders === 1 ? '' : 's'} ${shown}`,
    `${request.from_date} → ${request.to_date} UTC`,
    `buy ${request.buy_percentage} % of the leader's amount` +
      `, at most ${request.max_buy_amount} USD a buy and ${request.max_position_amount} USD a position`,
    `up to ${request.max_dupe_buy_times} extra buy${request.max_dupe_buy_times === 1 ? '' : 's'} a deal`,
    `fees ${request.priority_fee} priority + ${request.bribe} bribe ${native} a trade`,
    `close_all ${request.close_all ? 'on' : 'off'}`,
    `time-fix ${timeFix}`,
    `bot fees ${request.include_bot_fees ? 'on' : 'off'}`,
    ...(request.strategy === null ? [] : [`strategy: ${strategyLine(request.strategy)}`]),
  ].join(' · ');
}

/** The strategy's settings that differ from its defaults, in a few words each. */
function strategyLine(strategy: Strategy): string {
  const parts = strategyPhrases(strategy);
  return parts.length === 0 ? 'defaults' : parts.join(', ');
}

/** The special tags worth a line: the model's three, and those of the strategy's exits. */
function specialTags(strategy: Strategy | null): readonly Tag[] {
  if (strategy === null) return SPECIAL_TAGS;
  const exits: Tag[] = [];
  if (strategy.take_profit.length > 0) exits.push('take_profit');
  if (strategy.stop_loss_percent !== null) exits.push('stop_loss');
  if (strategy.trailing_stop_percent !== null) exits.push('trailing_stop');
  if (strategy.max_hold_hours !== null) exits.push('max_hold');
  return [...SPECIAL_TAGS, ...exits];
}

/** With `report_skipped`: how many leader swaps were not copied, by reason. */
function skippedLines(skipped: readonly SkippedCopyJson[] | undefined): string[] {
  if (skipped === undefined) return [];
  const counts = SKIP_REASONS.map(
    (reason) => [reason, skipped.filter((s) => s.reason === reason).length] as const,
  ).filter(([, n]) => n > 0);
  const width = Math.max(0, ...counts.map(([reason]) => reason.length));
  return [
    '',
    `Leader swaps not copied: ${skipped.length}${skipped.length === 0 ? '' : ', by reason'}`,
    ...counts.map(([reason, n]) => `  ${reason.padEnd(width)}  ${String(n).padStart(6)}`),
  ];
}

function summaryLines(response: SimulatorResponse): string[] {
  const s = response.summary;
  const deals = response.deals;
  const closed = deals.filter((d) => d.status === 'closed').length;
  const won = deals.filter((d) => d.pnl_total > 0).length;
  const lost = deals.filter((d) => d.pnl_total < 0).length;
  const rows: [string, string][] = [
    [
      'PnL',
      `total ${usd(s.pnl_total, true)} · realized ${amount(s.pnl_realized, true)}` +
        ` · unrealized ${amount(s.pnl_unrealized, true)}`,
    ],
    ['ROI', `total ${percent(s.roi_total, true)} · realized ${percent(s.roi_realized, true)}`],
    [
      'Investment',
      `${usd(s.investment_amount)} (closed deals ${amount(s.investment_amount_closed_deals)}` +
        ` · open deals ${amount(s.investment_amount_open_deals)})`,
    ],
    ['Volume', usd(s.trading_volume)],
    ['Fees', `network ${usd(s.network_fees)} · bot ${usd(s.bot_fees)}`],
    ['Slippage', `${usd(s.slippage_loss)} lost to price impact`],
    ['R² (closed)', `${fixed(s.linearity_r2_closed_deals, 4)} (1 = PnL grew in a straight line, deal after deal)`],
    ['Top deal', `${percent(s.top_deal_dominance)} of the positive PnL`],
    ['Deals', `${deals.length}: ${closed} closed, ${deals.length - closed} open · ${won} won, ${lost} lost`],
    ['Risk', riskText(riskFigures(response))],
  ];
  return labelled(rows);
}

function labelled(rows: readonly (readonly [string, string])[]): string[] {
  return rows.map(([label, text]) => `  ${label.padEnd(12)} ${text}`);
}

/** Max drawdown, win rate and profit factor in one line. */
function riskText(risk: RiskFigures): string {
  const of = risk.drawdown_of === 'equity' ? 'equity' : 'pnl_total';
  const percentText = risk.max_drawdown_percent === null ? '' : ` (${percent(risk.max_drawdown_percent)})`;
  const winRate = risk.win_rate === null ? 'no closed deal' : `${percent(risk.win_rate)} of closed deals`;
  const factor =
    risk.profit_factor === null ? (risk.won > 0 ? 'no closed deal lost' : '-') : fixed(risk.profit_factor, 2);
  const drawdown = `max drawdown ${usd(risk.max_drawdown)}${percentText} of ${of}`;
  return `${drawdown} · win rate ${winRate} · profit factor ${factor}`;
}

/** The copier's wallet (model 3.0): its cash, the money it needed, its costs, and its equity over time. */
function copierLines(
  response: SimulatorResponse,
  request: SimulatorRequest,
  points: readonly number[] | null,
): string[] {
  const copier = response.copier;
  if (copier === undefined) return [];
  const balance = copier.starting_balance;
  const drawdownPercent = copier.max_drawdown_percent === null ? '' : ` (${percent(copier.max_drawdown_percent)})`;
  const rows: [string, string][] = [
    balance === null
      ? ['Balance', 'unlimited (no starting_balance_usd): nothing refused for cash, cash counted from 0']
      : [
          'Balance',
          `${usd(balance)} → ending cash ${amount(copier.ending_cash ?? 0)} · ` +
            `ending equity ${usd(copier.ending_equity ?? 0)} (${percent(copier.roi_on_balance ?? 0, true)})`,
        ],
    ['Capital', `${usd(copier.capital_required)} in use at most, fees included`],
    ['Drawdown', `${usd(copier.max_drawdown)}${drawdownPercent} of equity below its peak, at most`],
    ['Failed', `${count(copier.failed_transactions, 'transaction')} · ${usd(copier.failed_transaction_fees)} in fees`],
    ['Sandwiched', `${count(copier.sandwiched_trades, 'trade')} · ${usd(copier.sandwich_loss)} lost`],
    ['For cash', `${count(copier.skipped_for_cash, 'copy', 'copies')} skipped (insufficient_balance)`],
  ];
  // Without a balance, the equity at the end is `pnl_total − failed_transaction_fees` (copier-wallet.md 7).
  const endEquity = copier.ending_equity ?? response.summary.pnl_total - copier.failed_transaction_fees;
  return ['', "Copier's wallet", ...labelled(rows), ...equityLines(copier, endEquity, request, points)];
}

/**
 * The cash and equity at seven times spread over the window, its start and end included: the
 * value after the last change of cash at or before each, and the response's ending figures at
 * `window_end`.
 */
function equityLines(
  copier: CopierResultJson,
  endEquity: number,
  request: SimulatorRequest,
  points: readonly number[] | null,
): string[] {
  if (points === null) return [];
  const { start, end } = requestWindow(request);
  const balance = copier.starting_balance ?? 0;
  const rows = [['time (UTC)', 'cash USD', 'equity USD']];
  const steps = 6;
  let at = 0;
  let cash = balance;
  let equity = balance;
  for (let k = 0; k <= steps; k++) {
    const time = k === steps ? end : start + Math.floor(((end - start) * k) / steps);
    while (at + 2 < points.length && points[at]! <= time) {
      cash = points[at + 1]!;
      equity = points[at + 2]!;
      at += 3;
    }
    if (k === steps) {
      cash = copier.ending_cash ?? cash;
      equity = endEquity;
    }
    rows.push([utcIso(time), amount(cash), amount(equity)]);
  }
  const note = copier.starting_balance === null ? ' (no balance: cash counted from 0)' : '';
  return [`  Cash and equity over time${note}`, ...alignColumns(rows, new Set([1, 2])).map((l) => `  ${l}`)];
}

/** Each followed wallet's share of the result (`report_leaders`), best PnL first. */
function leaderLines(leaders: readonly LeaderResultJson[] | undefined): string[] {
  if (leaders === undefined) return [];
  const ranked = leaders
    .map((leader, index) => ({ leader, index }))
    .sort((a, b) => b.leader.pnl_total - a.leader.pnl_total || a.index - b.index);
  const table = [
    ['#', 'wallet', 'buys', 'sells', 'skipped', 'invested USD', 'PnL USD', 'ROI', 'failed fees USD'],
    ...ranked.map(({ leader: l, index }) => [
      String(index),
      shortAddress(l.wallet),
      String(l.copied_buys),
      String(l.copied_sells),
      String(l.skipped),
      amount(l.investment),
      amount(l.pnl_total, true),
      percent(l.roi_total, true),
      fixed(l.failed_transaction_fees, 4),
    ]),
  ];
  return ['', 'Leaders by PnL (# = index in wallets)', ...alignColumns(table, new Set([0, 2, 3, 4, 5, 6, 7, 8]))];
}

const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

function topDealLines(deals: readonly SimulatedDeal[], count: number): string[] {
  // Best PnL first; equal PnL keeps deal order (the sort is stable).
  const ranked = deals
    .map((deal, index) => ({ deal, index }))
    .sort((a, b) => b.deal.pnl_total - a.deal.pnl_total)
    .slice(0, count);
  if (ranked.length === 0) return [`Top deals by PnL`, '  (no deals: no leader trade was copied in the window)'];
  const table = [
    ['#', 'token', 'open (UTC)', 'close (UTC)', 'PnL USD', 'ROI', 'tag'],
    ...ranked.map(({ deal, index }) => [
      String(index),
      tokenLabel(deal),
      utcIso(deal.open_time),
      deal.status === 'closed' ? utcIso(deal.last_operation_time) : 'open',
      amount(deal.pnl_total, true),
      percent(deal.roi_total, true),
      deal.special_tag ?? '-',
    ]),
  ];
  const rightAligned = new Set([0, 4, 5]);
  return [`Top ${ranked.length} deals by PnL (# = index in deals)`, ...alignColumns(table, rightAligned)];
}

function specialTagLines(deals: readonly SimulatedDeal[], tags: readonly Tag[]): string[] {
  const width = Math.max(...tags.map((t) => t.length));
  return tags.map((tag) => {
    const tagged = deals.filter((d) => d.special_tag === tag);
    const pnl = tagged.reduce((sum, d) => sum.plus(d.pnl_total), new Decimal(0));
    const count = `${tagged.length} deal${tagged.length === 1 ? '' : 's'}`;
    return `  ${tag.padEnd(width)}  ${count.padStart(9)}  PnL ${usd(pnl.toNumber(), true)}`;
  });
}

/** Pads every column to its widest cell; columns in `right` are right-aligned. */
function alignColumns(rows: readonly (readonly string[])[], right: ReadonlySet<number>): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map(
    (row) =>
      `  ${row
        .map((cell, c) => (right.has(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
        .join('  ')
        .trimEnd()}`,
  );
}

/** A token's symbol, else its name, else its address shortened. */
function tokenLabel(deal: SimulatedDeal): string {
  return deal.token.symbol ?? deal.token.name ?? shortAddress(deal.token.address);
}

/** `8jbY…67Hn`, `0x8b73…900e`: enough to recognise an address. */
export function shortAddress(address: string): string {
  const head = address.startsWith('0x') ? 6 : 4;
  return address.length <= head + 5 ? address : `${address.slice(0, head)}…${address.slice(-4)}`;
}

/** A number with `places` decimals (half away from zero), thousands grouped, `+` when signed and positive. */
function fixed(value: number, places: number, signed = false): string {
  const text = new DecimalJs40(value).toFixed(places, DecimalJs40.ROUND_HALF_UP);
  const negative = text.startsWith('-') && /[1-9]/.test(text);
  const [whole, fraction] = text.replace('-', '').split('.') as [string, string | undefined];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = negative ? '-' : signed && /[1-9]/.test(text) ? '+' : '';
  return `${sign}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}

const amount = (value: number, signed = false): string => fixed(value, 2, signed);
const usd = (value: number, signed = false): string => `${amount(value, signed)} USD`;
const percent = (value: number, signed = false): string => `${fixed(value, 2, signed)} %`;
