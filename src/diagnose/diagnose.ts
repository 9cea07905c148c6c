import { indexTape, type IndexedTape } from '../engine/tape-index.js';
import { RequestError } from '../model/errors.js';
import type { EngineOptionsInput } from '../model/options.js';
import {
  parseSimulatorRequest,
  requestWindow,
  type SimulatorRequest,
  type SimulatorRequestInput,
} from '../model/request.js';
import type { SimulatedDeal, SimulatorResponse, SkippedCopyJson } from '../model/response.js';
import { TRADE_TYPES, type TradeTable } from '../engine/trade-log.js';
import { TRADE_ROW_WIDTH, writeRecordAt } from '../engine/trade-row.js';
import { tradeRecordOf } from '../report/trade-json.js';
import { NO_STRATEGY } from '../model/strategy.js';
import type { Tape, TapeInput } from '../model/tape.js';
import { utcIso } from '../model/utc-time.js';
import type { ResponseParts } from '../report/response.js';
import { checkNetwork, simulateParts } from '../simulate.js';
import { tapeFacts, type LeaderFacts, type TapeFacts } from './tape-facts.js';
import { tradeWarnings, type DealSource } from './trade-checks.js';
import type { Warning } from './warning.js';

/** What a run gave, as far as the warnings need it. */
export interface RunOutcome {
  /** Deals of the response: 0 when the follower made no trade. */
  readonly deals: number;
  /** The skip log (`skipped_copies`), when the run kept it; null otherwise. */
  readonly skipped: readonly SkippedCopyJson[] | null;
}

export interface DiagnoseOptions {
  /** The run's response (whole or in parts), when already computed: spares a replay. */
  readonly response?: SimulatorResponse | ResponseParts;
  /** Engine options of the run (model 1.3); only used when a replay is needed. */
  readonly options?: EngineOptionsInput;
}

/**
 * The warnings of a simulation: answers that are computed correctly but are probably not what
 * the caller meant. A followed wallet with no swap in the tape (a typo), none in the window, a
 * window that does not overlap the tape, an empty tape, no follower trade at all (with the
 * reasons the skip log gives), follower trades filled far from the token's market (a junk print)
 * and trades into pools of unknown liquidity priced with the flat slippage. An empty list when
 * nothing looks wrong.
 *
 * One pass over the tape's interned wallet ids, and one over the swaps of the tokens the
 * follower traded. A replay runs when no `response` is given, and again when the response has no
 * trade and no skip log.
 * Throws as {@link simulate} does for a request that fails validation or asks for another network.
 *
 * @example
 * const warnings = diagnose(tape, request, { response });
 * for (const w of warnings) console.error(`warning: ${w.message}`);
 */
export function diagnose(
  tape: TapeInput | Tape | IndexedTape,
  request: SimulatorRequestInput | SimulatorRequest | unknown,
  options: DiagnoseOptions = {},
): Warning[] {
  const parsed = parseSimulatorRequest(request);
  if (!parsed.success) throw new RequestError(parsed.error);
  const indexed = indexTape(tape);
  checkNetwork(indexed.network, parsed.data.network);
  const window = requestWindow(parsed.data);
  const facts = tapeFacts(indexed, parsed.data, window);
  const engineOptions = options.options ?? {};
  const response = options.response ?? simulateParts(indexed, parsed.data, engineOptions);
  const warnings = warningsOf(facts, parsed.data, () => {
    const given = outcomeOf(response);
    if (given.deals > 0 || given.skipped !== null) return given;
    return outcomeOf(simulateParts(indexed, withSkipLog(parsed.data), engineOptions));
  });
  return [...warnings, ...tradeWarnings(dealsOf(response), indexed, engineOptions)];
}

/** The deals of a response, whole or in parts. */
export function dealsOf(response: SimulatorResponse | ResponseParts): DealSource {
  if ('dealCount' in response)
    return { count: response.dealCount, token: (i) => response.dealToken(i), trades: response.tradeTable() };
  return { count: response.deals.length, token: (i) => response.deals[i]!.token, trades: tradeTableOf(response.deals) };
}

/** The rows of the trades of whole deals, as a response in parts keeps them (a null as NaN). */
function tradeTableOf(deals: readonly SimulatedDeal[]): TradeTable {
  const offsets = new Int32Array(deals.length + 1);
  deals.forEach((deal, i) => (offsets[i + 1] = offsets[i]! + deal.trades.length));
  const values = new Float64Array(offsets[deals.length]! * TRADE_ROW_WIDTH);
  let at = 0;
  for (const deal of deals) {
    for (const t of deal.trades) {
      writeRecordAt(values, at, tradeRecordOf(t), TRADE_TYPES);
      at += TRADE_ROW_WIDTH;
    }
  }
  return { values, offsets, types: TRADE_TYPES };
}

/** Deals and skip log of a response, whole or in parts. */
export function outcomeOf(response: SimulatorResponse | ResponseParts): RunOutcome {
  if ('dealCount' in response) return { deals: response.dealCount, skipped: response.skipped };
  return { deals: response.deals.length, skipped: response.skipped_copies ?? null };
}

/** The request with the strategy's skip log on (which changes nothing else of the run). */
export function withSkipLog(request: SimulatorRequest): SimulatorRequest {
  return { ...request, strategy: { ...(request.strategy ?? NO_STRATEGY), report_skipped: true } };
}

/**
 * The warnings from a tape's facts. `outcome` is asked for only when the followed wallets have
 * swaps in the window (then a run without any trade deserves a word).
 */
export function warningsOf(facts: TapeFacts, request: SimulatorRequest, outcome: () => RunOutcome): Warning[] {
  if (facts.swaps === 0 || facts.first === null || facts.last === null) {
    return [
      {
        code: 'empty_tape',
        message:
          'the tape holds no swap, so every figure is zero: check the file' +
          ' (a JSONL tape has its header on line 1 and one swap a line after it)',
      },
    ];
  }
  const window = requestWindow(request);
  const warnings: Warning[] = [];
  const tapeSpan = `${day(facts.first)} to ${day(facts.last)}`;
  const windowText = `${request.from_date} to ${request.to_date}`;
  const overlaps = window.start <= facts.last && window.end >= facts.first;
  if (!overlaps) {
    warnings.push({
      code: 'window_outside_tape',
      message:
        `the window ${windowText} (from_date to to_date) does not overlap the tape, whose swaps run from ${tapeSpan}` +
        `: set the dates within the tape's days`,
    });
  }
  const absent = followed(request, facts, (l) => l.swaps === 0);
  if (absent.length > 0) {
    warnings.push({
      code: 'wallet_not_in_tape',
      message:
        listed(absent, (l) =>
          l.facts.otherCase !== undefined
            ? ` (the tape has "${l.facts.otherCase}": sol addresses are case-sensitive)`
            : '',
        ) +
        ` ${absent.length === 1 ? 'has' : 'have'} no swap in the tape` +
        `: check the address${absent.length === 1 ? '' : 'es'}`,
      wallets: absent.map((l) => l.wallet),
    });
  }
  // Beside a window outside the tape, "none in the window" says nothing more.
  const idle = overlaps ? followed(request, facts, (l) => l.swaps > 0 && l.inWindow === 0) : [];
  if (idle.length > 0) {
    warnings.push({
      code: 'wallet_not_in_window',
      message:
        listed(
          idle,
          (l) =>
            ` (${l.facts.swaps} swap${l.facts.swaps === 1 ? '' : 's'}, ${day(l.facts.first!)}` +
            ` to ${day(l.facts.last!)})`,
        ) +
        ` ${idle.length === 1 ? 'has' : 'have'} no swap in the window ${windowText}` +
        `: widen the window or check the dates`,
      wallets: idle.map((l) => l.wallet),
    });
  }
  const inWindow = facts.leaders.reduce((sum, l) => sum + l.inWindow, 0);
  if (inWindow > 0) {
    const run = outcome();
    if (run.deals === 0) warnings.push(noTrade(inWindow, run.skipped));
  }
  return warnings;
}

function noTrade(inWindow: number, skipped: readonly SkippedCopyJson[] | null): Warning {
  const swaps = `${inWindow} swap${inWindow === 1 ? '' : 's'} of the followed wallets in the window`;
  if (skipped === null || skipped.length === 0) {
    return { code: 'no_follower_trade', message: `no follower trade: none of the ${swaps} was copied` };
  }
  const counts = new Map<SkippedCopyJson['reason'], number>();
  for (const s of skipped) counts.set(s.reason, (counts.get(s.reason) ?? 0) + 1);
  const reasons = [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([reason, n]) => `${n} ${reason} (${REASONS[reason]})`);
  return {
    code: 'no_follower_trade',
    message: `no follower trade: the ${swaps} ${inWindow === 1 ? 'was' : 'were'} not copied: ${reasons.join('; ')}`,
  };
}

/** What each skip reason means, for a reader who has not read the strategy document. */
const REASONS: Readonly<Record<SkippedCopyJson['reason'], string>> = {
  dupe_limit: 'a buy into an open deal beyond max_dupe_buy_times',
  leader_buy_too_small: 'a leader buy below strategy.min_leader_buy_usd',
  liquidity_too_low: 'a pool below strategy.min_liquidity_usd',
  token_too_old: 'a token older than strategy.max_token_age_hours',
  position_full: 'the position already at max_position_amount',
  no_open_deal: 'a sell of a token the follower has no open deal in: bought before the window, or already sold',
  no_lot: 'a sell by a leader with no lot in the deal, and close_all is off',
  after_window:
    'a delayed copy or a retry due after to_date (strategy.copy_delay_seconds, strategy.retry_delay_seconds)',
  insufficient_balance: 'a buy whose amount and fees exceed the cash above strategy.reserve_usd',
  max_open_deals: 'a buy of a new token while strategy.max_open_deals deals were open',
  failed_transaction: 'a copy dropped by the chain on its last attempt (strategy.failed_transaction_percent)',
  slippage_exceeded: 'a copy whose fill was worse than strategy.slippage_tolerance_percent on its last attempt',
};

interface Followed {
  readonly index: number;
  readonly wallet: string;
  readonly facts: LeaderFacts;
}

function followed(request: SimulatorRequest, facts: TapeFacts, keep: (l: LeaderFacts) => boolean): Followed[] {
  return request.wallets.flatMap((wallet, index) =>
    keep(facts.leaders[index]!) ? [{ index, wallet, facts: facts.leaders[index]! }] : [],
  );
}

const SHOWN = 5;

/** `wallets[1] "A…"` for each of the first few wallets, and how many more. */
function listed(wallets: readonly Followed[], note: (l: Followed) => string): string {
  const shown = wallets.slice(0, SHOWN).map((l) => `wallets[${l.index}] "${l.wallet}"${note(l)}`);
  const more = wallets.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

function day(seconds: number): string {
  return utcIso(seconds).slice(0, 10);
}
