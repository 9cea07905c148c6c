/**
 * Reading the raw JSON inputs of the reference model: tape (spec 1.1, 8), request (spec 1.2 and
 * interface 4.1, strategy-extensions 1, copier-wallet 1) and engine options (spec 1.3, 8). The request has passed
 * validate.ts before it is read here; the tape is assumed valid but for its swaps' `time` (1.1,
 * model 1.1), which is checked. Only the forms the
 * spec allows are accepted (decimals as numbers or strings, optional and null fields).
 */
import { dec, type D } from './decimal.js';
import { ReferenceInputError } from './errors.js';

export type Network = 'sol' | 'eth';

export interface Swap {
  index: number; // position in the input list (the stable-sort tie breaker, 1.1)
  wallet: string;
  token: string;
  type: 'buy' | 'sell';
  time: number;
  quantity: D;
  usd_price: D;
  usd_amount: D; // 1.1: when absent, quantity × usd_price
  usd_liquidity: D | null; // 1.1: optional, may be null
}

export interface TokenMeta {
  name: string | null;
  symbol: string | null;
}

export interface Tape {
  network: Network;
  tokens: Array<{ address: string; meta: TokenMeta }>; // in the file's key order
  nativePrices: Array<{ time: number; price: D }>; // in the file's order
  swaps: Swap[]; // in the file's order
}

export interface Request {
  wallets: string[];
  network: Network;
  windowStart: number;
  windowEnd: number;
  buy_percentage: D;
  max_buy_amount: D;
  max_position_amount: D;
  priority_fee: D;
  bribe: D;
  max_dupe_buy_times: D;
  close_all: boolean;
  inactivity_hours: number | null; // null when inactivity_time_fix is absent or null
  include_bot_fees: boolean;
  strategy: Strategy;
}

/** One level of the take-profit ladder (strategy-extensions 1, 5). */
export interface TakeProfitLevel {
  roi: D;
  sell_percent: D;
}

/**
 * The request's `strategy` (strategy-extensions 1, copier-wallet 1), every member at its default
 * when absent; an absent, null or empty `strategy` gives exactly these defaults, i.e. model 1.2.
 */
export interface Strategy {
  copy_delay_seconds: number; // 0
  fixed_buy_amount: D | null; // null
  min_leader_buy_usd: D; // 0
  min_liquidity_usd: D | null; // null
  max_token_age_hours: number | null; // null
  take_profit: TakeProfitLevel[]; // [] (roi strictly increasing: the ascending order of 5.1)
  stop_loss_percent: D | null; // null
  trailing_stop_percent: D | null; // null
  max_hold_hours: number | null; // null
  report_skipped: boolean; // false
  // copier-wallet 1
  starting_balance_usd: D | null; // null: unlimited
  reserve_usd: D; // 0
  max_open_deals: number | null; // null
  slippage_tolerance_percent: D | null; // null
  failed_transaction_percent: D; // 0
  retries: number; // 0
  retry_delay_seconds: number; // 2
  sandwich_percent: D; // 0
  random_seed: number; // 0
  report_leaders: boolean; // false
  /** Copier-wallet 7: the response has `copier` (a member of its table other than report_leaders is set). */
  report_copier: boolean;
}

/** Copier-wallet 7: the members whose value other than null (report_wallet: true) adds `copier`. */
const COPIER_MEMBERS = [
  'starting_balance_usd',
  'reserve_usd',
  'max_open_deals',
  'slippage_tolerance_percent',
  'failed_transaction_percent',
  'retries',
  'retry_delay_seconds',
  'sandwich_percent',
  'random_seed',
] as const;

export interface Options {
  bot_fee_percent: D;
  base_fee_native: D; // of the request's network
  unknown_liquidity_slippage_percent: D;
  assumed_liquidity_usd: D | null; // 1.3 (model 1.2): null, the flat percent above
  min_price_swap_usd: D; // 1.3 (model 1.2): 0, every swap is a price observation
}

type Json = Record<string, unknown>;

function obj(value: unknown): Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

/** Integer seconds; a numeric string is tolerated. */
function seconds(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}

function optionalString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** 1.1: "Addresses compare exactly on sol, and case-insensitively on eth (hex addresses)". */
export function addressKey(network: Network, address: string): string {
  return network === 'eth' ? address.toLowerCase() : address;
}

export function readTape(raw: unknown): Tape {
  const t = obj(raw);
  const network = t['network'] as Network;
  const tokens: Tape['tokens'] = [];
  for (const [address, meta] of Object.entries(obj(t['tokens']))) {
    const m = obj(meta);
    tokens.push({ address, meta: { name: optionalString(m['name']), symbol: optionalString(m['symbol']) } });
  }
  const nativePrices: Tape['nativePrices'] = [];
  for (const point of Array.isArray(t['native_prices']) ? (t['native_prices'] as unknown[]) : []) {
    const p = point as unknown[];
    nativePrices.push({ time: seconds(p[0]), price: dec(p[1]) });
  }
  const swaps: Swap[] = [];
  const rawSwaps = Array.isArray(t['swaps']) ? (t['swaps'] as unknown[]) : [];
  rawSwaps.forEach((rs, index) => {
    const s = obj(rs);
    checkTime(s['time'], index);
    const quantity = dec(s['quantity']);
    const usd_price = dec(s['usd_price']);
    const amount = s['usd_amount'];
    const liquidity = s['usd_liquidity'];
    swaps.push({
      index,
      wallet: String(s['wallet']),
      token: String(s['token']),
      type: s['type'] === 'sell' ? 'sell' : 'buy',
      time: seconds(s['time']),
      quantity,
      usd_price,
      // 1.1: usd_amount "when absent: quantity × usd_price" (null read as absent)
      usd_amount: amount === undefined || amount === null ? quantity.times(usd_price) : dec(amount),
      usd_liquidity: liquidity === undefined || liquidity === null ? null : dec(liquidity),
    });
  });
  return { network, tokens, nativePrices, swaps };
}

/**
 * 1.1: `time` is integer seconds, 0 ≤ time < 10¹¹; "a larger value is an input error that says
 * it looks like milliseconds"; 7: the message names the swap (its index) and the field.
 * Reading: a time that is not a non-negative integer (a fraction, a negative number, not a
 * number) breaks the same row of the table and is an input error too.
 */
function checkTime(value: unknown, index: number): void {
  const t = seconds(value);
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1e11) {
    throw new ReferenceInputError(
      `swap ${index}: field time ${value} is 10^11 or more: it looks like milliseconds, not seconds`,
    );
  }
  if (!Number.isInteger(t) || t < 0 || t >= 1e11) {
    throw new ReferenceInputError(
      `swap ${index}: field time ${JSON.stringify(value)} must be an integer number of seconds, 0 <= time < 10^11`,
    );
  }
}

/** 1.2: seconds of YYYY-MM-DD 00:00:00 UTC. */
function dayStart(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  return Date.UTC(y ?? 0, (m ?? 1) - 1, d ?? 1) / 1000;
}

export function readRequest(raw: unknown): Request {
  const r = obj(raw);
  const fix = r['inactivity_time_fix'];
  return {
    wallets: (r['wallets'] as unknown[]).map(String),
    network: r['network'] as Network,
    // 1.2: from from_date 00:00:00 UTC to to_date 23:59:59 UTC, both inclusive
    windowStart: dayStart(String(r['from_date'])),
    windowEnd: dayStart(String(r['to_date'])) + 86400 - 1,
    buy_percentage: dec(r['buy_percentage']),
    max_buy_amount: dec(r['max_buy_amount']),
    max_position_amount: dec(r['max_position_amount']),
    priority_fee: dec(r['priority_fee']),
    bribe: dec(r['bribe']),
    max_dupe_buy_times: dec(r['max_dupe_buy_times']),
    close_all: r['close_all'] === true, // interface 4.1: default false
    // 3.4: "only when inactivity_time_fix is an object"
    inactivity_hours:
      fix !== null && typeof fix === 'object' && !Array.isArray(fix) ? seconds(obj(fix)['hours']) : null,
    include_bot_fees: r['include_bot_fees'] === true, // interface 4.1: default false
    strategy: readStrategy(r['strategy']),
  };
}

/** Strategy-extensions 1: the request's `strategy` (validated before), defaults for what is absent or null. */
function readStrategy(raw: unknown): Strategy {
  const s = obj(raw); // absent, null: every default
  const decOrNull = decimalOrNull;
  const intOrNull = (v: unknown): number | null => (v === undefined || v === null ? null : seconds(v));
  const levels = Array.isArray(s['take_profit']) ? (s['take_profit'] as unknown[]) : [];
  return {
    copy_delay_seconds: s['copy_delay_seconds'] === undefined ? 0 : seconds(s['copy_delay_seconds']),
    fixed_buy_amount: decOrNull(s['fixed_buy_amount']),
    min_leader_buy_usd: dec(s['min_leader_buy_usd'] ?? 0),
    min_liquidity_usd: decOrNull(s['min_liquidity_usd']),
    max_token_age_hours: intOrNull(s['max_token_age_hours']),
    take_profit: levels.map((l) => ({ roi: dec(obj(l)['roi']), sell_percent: dec(obj(l)['sell_percent']) })),
    stop_loss_percent: decOrNull(s['stop_loss_percent']),
    trailing_stop_percent: decOrNull(s['trailing_stop_percent']),
    max_hold_hours: intOrNull(s['max_hold_hours']),
    report_skipped: s['report_skipped'] === true,
    starting_balance_usd: decOrNull(s['starting_balance_usd']),
    reserve_usd: dec(s['reserve_usd'] ?? 0),
    max_open_deals: intOrNull(s['max_open_deals']),
    slippage_tolerance_percent: decOrNull(s['slippage_tolerance_percent']),
    failed_transaction_percent: dec(s['failed_transaction_percent'] ?? 0),
    retries: seconds(s['retries'] ?? 0),
    retry_delay_seconds: seconds(s['retry_delay_seconds'] ?? 2),
    sandwich_percent: dec(s['sandwich_percent'] ?? 0),
    random_seed: seconds(s['random_seed'] ?? 0),
    report_leaders: s['report_leaders'] === true,
    // copier-wallet 7: "report_wallet: false counts as not set; an explicit default such as
    // retries: 0 counts as set"
    report_copier:
      s['report_wallet'] === true || COPIER_MEMBERS.some((name) => s[name] !== undefined && s[name] !== null),
  };
}

/** A decimal, or null when missing or null. */
function decimalOrNull(value: unknown): D | null {
  return value === undefined || value === null ? null : dec(value);
}

/** An option's decimal, or its default when missing (or null). */
function optionOr(value: unknown, fallback: string): D {
  return dec(value === undefined || value === null ? fallback : value);
}

/** 1.3 defaults; 8: "missing names take the defaults" (also per network inside base_fee_native). */
export function readOptions(raw: unknown, network: Network): Options {
  const o = obj(raw);
  return {
    bot_fee_percent: optionOr(o['bot_fee_percent'], '1'),
    base_fee_native: optionOr(obj(o['base_fee_native'])[network], network === 'sol' ? '0.000005' : '0.002'),
    unknown_liquidity_slippage_percent: optionOr(o['unknown_liquidity_slippage_percent'], '1'),
    assumed_liquidity_usd: decimalOrNull(o['assumed_liquidity_usd']),
    min_price_swap_usd: optionOr(o['min_price_swap_usd'], '0'),
  };
}
