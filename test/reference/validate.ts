/**
 * Request validation of the reference model: the body of POST /wallets/simulator as interface
 * 4.1 describes it, spec 1.2's additions (dates, duplicate wallets, undefined members) and the
 * `strategy` object of strategy-extensions.md section 1 with the members of copier-wallet.md
 * section 1. A failing request gives the 400 body
 * (spec 7): `validation_error` with a list of `{path, message}`, or `invalid_date_range`.
 * Paths join member names and array indexes with dots (`strategy.take_profit.1.roi`, the
 * extension's own example; `wallets.0`; the empty path for the body itself).
 */
import type { RequestErrorBody, ValidationProblem } from './errors.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// Reading: interface 4.1 types the request's settings as JSON numbers, integers and booleans;
// the decimal strings of spec 8 are the tape file's form, so a string where the interface says
// "number" fails validation, and JSON null is accepted only where the text says "or null".
function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isInteger(value: unknown): value is number {
  return isNumber(value) && Number.isInteger(value);
}

/** Interface 4.1's members of the body; 1.2: `strategy` is a defined member too. */
const REQUEST_MEMBERS = [
  'wallets',
  'network',
  'from_date',
  'to_date',
  'buy_percentage',
  'max_buy_amount',
  'max_position_amount',
  'priority_fee',
  'bribe',
  'max_dupe_buy_times',
  'close_all',
  'inactivity_time_fix',
  'include_bot_fees',
  'strategy',
] as const;

/** Strategy-extensions 1 and copier-wallet 1: the members of `strategy`. */
const STRATEGY_MEMBERS = [
  'copy_delay_seconds',
  'fixed_buy_amount',
  'min_leader_buy_usd',
  'min_liquidity_usd',
  'max_token_age_hours',
  'take_profit',
  'stop_loss_percent',
  'trailing_stop_percent',
  'max_hold_hours',
  'report_skipped',
  'starting_balance_usd',
  'reserve_usd',
  'max_open_deals',
  'slippage_tolerance_percent',
  'failed_transaction_percent',
  'retries',
  'retry_delay_seconds',
  'sandwich_percent',
  'random_seed',
  'report_wallet',
  'report_leaders',
] as const;

const TAKE_PROFIT_MEMBERS = ['roi', 'sell_percent'] as const;

class Problems {
  readonly list: ValidationProblem[] = [];
  add(path: string, message: string): void {
    this.list.push({ path, message });
  }
  /** Every member of `o` that is not in `known` (1.2, strategy-extensions 1), in the object's order. */
  unknownMembers(o: Json, known: readonly string[], prefix: string): void {
    for (const key of Object.keys(o)) {
      if (!known.includes(key)) this.add(prefix + key, 'is not a member the interface defines');
    }
  }
}

/** 1.2: YYYY-MM-DD (the form interface 4.1 gives); whether it is a real date is checked apart. */
const DATE_FORM = /^\d{4}-\d{2}-\d{2}$/;

/** 1.2: a real calendar date (proleptic Gregorian, leap years included). */
function isRealDate(date: string): boolean {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
  return d <= days;
}

/** Interface 4.1 and spec 1.2, member by member, then the strategy (strategy-extensions 1). */
function checkRequest(body: unknown, p: Problems): void {
  if (!isObject(body)) {
    p.add('', 'the request must be a JSON object');
    return;
  }
  // wallets: array of wallet address strings, 1 to 100 items (interface 4.1, 8)
  const wallets = body['wallets'];
  if (wallets === undefined) p.add('wallets', 'is required');
  else if (!Array.isArray(wallets)) p.add('wallets', 'must be an array of wallet addresses');
  else {
    if (wallets.length < 1 || wallets.length > 100) p.add('wallets', 'must hold 1 to 100 addresses');
    wallets.forEach((w, i) => {
      if (typeof w !== 'string') p.add(`wallets.${i}`, 'must be a string');
    });
  }
  // network: eth or sol
  const network = body['network'];
  if (network === undefined) p.add('network', 'is required');
  else if (network !== 'eth' && network !== 'sol') p.add('network', 'must be eth or sol');
  // 1.2: duplicate addresses in wallets are a validation_error.
  // Reading: "duplicate" compares addresses as 1.1 does, case-insensitively on eth, exactly on
  // sol (and exactly when the network itself is invalid); the later copy is the one named.
  if (Array.isArray(wallets)) {
    const seen = new Set<string>();
    wallets.forEach((w, i) => {
      if (typeof w !== 'string') return;
      const key = network === 'eth' ? w.toLowerCase() : w;
      if (seen.has(key)) p.add(`wallets.${i}`, 'duplicates an earlier address');
      seen.add(key);
    });
  }
  // from_date, to_date: strings YYYY-MM-DD (their order and reality: invalid_date_range, 1.2)
  for (const name of ['from_date', 'to_date'] as const) {
    const v = body[name];
    if (v === undefined) p.add(name, 'is required');
    else if (typeof v !== 'string' || !DATE_FORM.test(v)) p.add(name, 'must be a date YYYY-MM-DD');
  }
  // buy_percentage: integer > 0
  const integerAbove = (name: string, min: number, inclusive: boolean): void => {
    const v = body[name];
    if (v === undefined) p.add(name, 'is required');
    else if (!isInteger(v)) p.add(name, 'must be an integer');
    else if (inclusive ? v < min : v <= min) p.add(name, `must be ${inclusive ? '>=' : '>'} ${min}`);
  };
  const numberAbove = (name: string, min: number, inclusive: boolean): void => {
    const v = body[name];
    if (v === undefined) p.add(name, 'is required');
    else if (!isNumber(v)) p.add(name, 'must be a number');
    else if (inclusive ? v < min : v <= min) p.add(name, `must be ${inclusive ? '>=' : '>'} ${min}`);
  };
  integerAbove('buy_percentage', 0, false);
  numberAbove('max_buy_amount', 0, false);
  numberAbove('max_position_amount', 0, false);
  numberAbove('priority_fee', 0, true);
  numberAbove('bribe', 0, true);
  integerAbove('max_dupe_buy_times', 0, true);
  // close_all, include_bot_fees: optional booleans.
  // Reading: "boolean, no, default false" admits absence, not null (null is named only where allowed).
  for (const name of ['close_all', 'include_bot_fees'] as const) {
    const v = body[name];
    if (v !== undefined && typeof v !== 'boolean') p.add(name, 'must be a boolean');
  }
  // inactivity_time_fix: object or null; `hours` integer, required, 1 to 192; 1.2: no other member
  const fix = body['inactivity_time_fix'];
  if (fix !== undefined && fix !== null) {
    if (!isObject(fix)) p.add('inactivity_time_fix', 'must be an object or null');
    else {
      const hours = fix['hours'];
      if (hours === undefined) p.add('inactivity_time_fix.hours', 'is required');
      else if (!isInteger(hours)) p.add('inactivity_time_fix.hours', 'must be an integer');
      else if (hours < 1 || hours > 192) p.add('inactivity_time_fix.hours', 'must be 1 to 192');
      p.unknownMembers(fix, ['hours'], 'inactivity_time_fix.');
    }
  }
  // strategy-extensions 1: optional, an object or null
  const strategy = body['strategy'];
  if (strategy !== undefined && strategy !== null) {
    if (!isObject(strategy)) p.add('strategy', 'must be an object or null');
    else checkStrategy(strategy, p);
  }
  // 1.2: a member the interface does not define
  p.unknownMembers(body, REQUEST_MEMBERS, '');
}

/** Strategy-extensions 1, the table row by row; every member optional. */
function checkStrategy(s: Json, p: Problems): void {
  const at = (name: string): string => `strategy.${name}`;
  /** An optional number (or integer) in a range, null allowed when `nullable`. */
  const ranged: RangeCheck = (name, opts) => {
    const v = s[name];
    if (v === undefined) return;
    if (v === null) {
      if (!opts.nullable) p.add(at(name), 'must not be null');
      return;
    }
    if (!isNumber(v) || (opts.integer === true && !Number.isInteger(v))) {
      p.add(at(name), opts.integer ? 'must be an integer' : 'must be a number');
      return;
    }
    if (opts.min !== undefined && (opts.minExclusive ? v <= opts.min : v < opts.min)) {
      p.add(at(name), `must be ${opts.minExclusive ? '>' : '>='} ${opts.min}`);
    } else if (opts.max !== undefined && (opts.maxExclusive ? v >= opts.max : v > opts.max)) {
      p.add(at(name), `must be ${opts.maxExclusive ? '<' : '<='} ${opts.max}`);
    }
  };
  ranged('copy_delay_seconds', { integer: true, min: 0, max: 86400 });
  ranged('fixed_buy_amount', { nullable: true, min: 0, minExclusive: true });
  ranged('min_leader_buy_usd', { min: 0 });
  ranged('min_liquidity_usd', { nullable: true, min: 0 });
  ranged('max_token_age_hours', { integer: true, nullable: true, min: 1, max: 8760 });
  // take_profit: array of at most 10 objects {roi > 0, 0 < sell_percent ≤ 100}, roi strictly increasing.
  // Reading: both members of a level are required (the table gives them no default), a level's
  // unknown member is an unknown member too, and `null` is not the empty ladder (no "or null").
  const tp = s['take_profit'];
  if (tp !== undefined) {
    if (!Array.isArray(tp)) p.add(at('take_profit'), 'must be an array');
    else {
      if (tp.length > 10) p.add(at('take_profit'), 'must hold at most 10 levels');
      let previousRoi: number | null = null;
      tp.forEach((level, i) => {
        const lp = `strategy.take_profit.${i}`;
        if (!isObject(level)) {
          p.add(lp, 'must be an object {roi, sell_percent}');
          previousRoi = null;
          return;
        }
        const roi = level['roi'];
        if (roi === undefined) p.add(`${lp}.roi`, 'is required');
        else if (!isNumber(roi)) p.add(`${lp}.roi`, 'must be a number');
        else if (roi <= 0) p.add(`${lp}.roi`, 'must be > 0');
        // Reading: "strictly increasing" compares a level with the one before it, when both rois are numbers.
        else if (previousRoi !== null && roi <= previousRoi) {
          p.add(`${lp}.roi`, "must be greater than the previous level's roi (strictly increasing)");
        }
        previousRoi = isNumber(roi) ? roi : null;
        const sp = level['sell_percent'];
        if (sp === undefined) p.add(`${lp}.sell_percent`, 'is required');
        else if (!isNumber(sp)) p.add(`${lp}.sell_percent`, 'must be a number');
        else if (sp <= 0 || sp > 100) p.add(`${lp}.sell_percent`, 'must be > 0 and <= 100');
        p.unknownMembers(level, TAKE_PROFIT_MEMBERS, `${lp}.`);
      });
    }
  }
  ranged('stop_loss_percent', { nullable: true, min: 0, minExclusive: true, max: 100, maxExclusive: true });
  ranged('trailing_stop_percent', { nullable: true, min: 0, minExclusive: true, max: 100, maxExclusive: true });
  ranged('max_hold_hours', { integer: true, nullable: true, min: 1, max: 8760 });
  // Reading: a "boolean" with default false: absent is allowed, null is not.
  const flag = (name: string): void => {
    const v = s[name];
    if (v !== undefined && typeof v !== 'boolean') p.add(at(name), 'must be a boolean');
  };
  flag('report_skipped');
  checkCopier(s, p, ranged, flag);
  p.unknownMembers(s, STRATEGY_MEMBERS, 'strategy.');
}

/** A row of a `strategy` table: an integer or number, its bounds, and whether null is allowed. */
interface Range {
  integer?: boolean;
  nullable?: boolean;
  min?: number;
  minExclusive?: boolean;
  max?: number;
  maxExclusive?: boolean;
}

type RangeCheck = (name: string, opts: Range) => void;

/** Copier-wallet 1: the table's rows, then its two rules across members. */
function checkCopier(s: Json, p: Problems, ranged: RangeCheck, flag: (name: string) => void): void {
  ranged('starting_balance_usd', { nullable: true, min: 0, minExclusive: true });
  ranged('reserve_usd', { min: 0 });
  ranged('max_open_deals', { integer: true, nullable: true, min: 1, max: 10000 });
  ranged('slippage_tolerance_percent', { nullable: true, min: 0, minExclusive: true, max: 100, maxExclusive: true });
  ranged('failed_transaction_percent', { min: 0, max: 100, maxExclusive: true });
  ranged('retries', { integer: true, min: 0, max: 5 });
  ranged('retry_delay_seconds', { integer: true, min: 1, max: 3600 });
  ranged('sandwich_percent', { min: 0, max: 100 });
  ranged('random_seed', { integer: true, min: 0, max: 2 ** 53 - 1 });
  flag('report_wallet');
  flag('report_leaders');
  // Reading: the rules across members judge only values that pass their own row; a member that
  // breaks its row is named once, for that.
  const reserve = s['reserve_usd'];
  const balance = s['starting_balance_usd'];
  if (isNumber(reserve) && reserve > 0 && (balance === undefined || balance === null)) {
    p.add('strategy.reserve_usd', 'reserve_usd above 0 requires starting_balance_usd');
  }
  const sandwich = s['sandwich_percent'];
  const tolerance = s['slippage_tolerance_percent'];
  if (isNumber(sandwich) && sandwich > 0 && sandwich <= 100 && (tolerance === undefined || tolerance === null)) {
    p.add('strategy.sandwich_percent', 'sandwich_percent above 0 requires slippage_tolerance_percent');
  }
}

/**
 * The 400 body for a request that fails validation, or null when it passes.
 * Reading: the interface's checks (validation_error, every problem listed) come first; only a
 * request that passes them is checked for invalid_date_range (1.2), whose detail is a sentence.
 */
export function validateRequest(body: unknown): RequestErrorBody | null {
  const p = new Problems();
  checkRequest(body, p);
  if (p.list.length > 0) return { code: 'validation_error', detail: p.list };
  const b = body as Json;
  const from = b['from_date'] as string;
  const to = b['to_date'] as string;
  if (!isRealDate(from)) return { code: 'invalid_date_range', detail: `from_date ${from} is not a real calendar date` };
  if (!isRealDate(to)) return { code: 'invalid_date_range', detail: `to_date ${to} is not a real calendar date` };
  // both YYYY-MM-DD, so the strings order like the dates
  if (from > to) return { code: 'invalid_date_range', detail: `from_date ${from} is after to_date ${to}` };
  return null;
}
