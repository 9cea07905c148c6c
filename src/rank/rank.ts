import { SwapBuckets } from '../analytics/buckets.js';
import { computeOwnDeals } from '../analytics/own-deals.js';
import { totalsFrom } from '../analytics/totals.js';
import { replayFollowers, WALLETS_A_WALK, walksOf } from '../engine/followers.js';
import type { ReplayResult } from '../engine/replay.js';
import type { NativePriceSeries } from '../engine/native-prices.js';
import { addressKey, type IndexedTape } from '../engine/tape-index.js';
import { InputError } from '../model/errors.js';
import type { EngineOptions, EngineOptionsInput } from '../model/options.js';
import { type Network, requestWindow, type SimulatorRequest } from '../model/request.js';
import { SimulationSummarySchema, type CopierResultJson, type SimulationSummary } from '../model/response.js';
import { Decimal, toJsonNumber, ZERO } from '../numeric/decimal.js';
import { closingOrder, dealResults } from '../report/deal-results.js';
import { copierJson, summaryJson } from '../report/response.js';
import { summarize } from '../report/summary.js';
import type { RowsTape } from './tape-rows.js';
import { type WordCopy, wordCopyApplies, wordCopyOf, type WordRow } from './word-copy.js';
import { ROW, SwapRows, TIME } from './word-rows.js';

/** The wallet's own results over the window (the analytics' `initial`): deals that opened in it. */
export interface OwnResults {
  readonly pnl_total: number;
  readonly roi_total: number;
  readonly winrate: number;
  readonly deals: number;
}

/** One wallet copied alone with the request's settings: what the copier made, and what the wallet made. */
export interface RankedWallet {
  /** As the tape spells it (its first swap). */
  readonly wallet: string;
  /** The simulator's summary of the copier. */
  readonly summary: SimulationSummary;
  readonly deals: number;
  readonly closed_deals: number;
  /** Percent of the closed deals with `pnl_total > 0` (0 without closed deals). */
  readonly winrate: number;
  /** Σ positive `pnl_total` of closed deals over |Σ negative|; null with no losing deal. */
  readonly profit_factor: number | null;
  /** Deepest fall, in USD, of the cumulative `pnl_total` of closed deals in closing order, from 0. */
  readonly max_drawdown: number;
  readonly own: OwnResults;
  /**
   * The copier's wallet (copier-wallet.md 7): `capital_required`, the most money in use at once,
   * fees included; with a starting balance, its ending equity and the copies skipped for cash.
   */
  readonly copier: CopierResultJson;
}

/** What a row can be sorted by: the copier's summary fields and the row's own figures (the CSV's columns). */
export const RANK_METRICS = [
  ...SimulationSummarySchema.keyof().options,
  'deals',
  'closed_deals',
  'winrate',
  'profit_factor',
  'max_drawdown',
  'capital_required',
  'skipped_for_cash',
  'own_pnl_total',
  'own_roi_total',
  'own_winrate',
  'own_deals',
] as const;
export type RankMetric = (typeof RANK_METRICS)[number];

/** A metric's value for a row (null sorts last). */
export function metricOf(row: RankedWallet, metric: RankMetric): number | null {
  switch (metric) {
    case 'deals':
    case 'closed_deals':
    case 'winrate':
    case 'profit_factor':
    case 'max_drawdown':
      return row[metric];
    case 'capital_required':
    case 'skipped_for_cash':
      return row.copier[metric];
    case 'own_pnl_total':
      return row.own.pnl_total;
    case 'own_roi_total':
      return row.own.roi_total;
    case 'own_winrate':
      return row.own.winrate;
    case 'own_deals':
      return row.own.deals;
    default:
      return row.summary[metric];
  }
}

/** Options of `rankWallets` and `outOfSample` (pipeline.ts). */
export interface RankOptions {
  /** Only these wallets (default: every wallet with a swap in the window). */
  readonly wallets?: readonly string[];
  /** Default `pnl_total`, largest first; ties by address. */
  readonly sortBy?: RankMetric;
  /** Rows whose copier made fewer deals are left out. */
  readonly minDeals?: number;
  /** At most this many rows. */
  readonly top?: number;
  readonly engineOptions?: EngineOptionsInput;
  /**
   * USD every copier starts with (`strategy.starting_balance_usd`, over the request's own): a
   * copied buy it cannot pay for is skipped (`insufficient_balance`), so the ranking is that of
   * copiers with this much money. Default: the request's (unlimited without one).
   */
  readonly balance?: number;
  /** Called now and then with the wallets done and the total; never changes the result. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** Sorts by the metric (largest first, null last, ties by address), then applies `minDeals` and `top`. */
export function selectRows(
  rows: readonly RankedWallet[],
  options: Pick<RankOptions, 'sortBy' | 'minDeals' | 'top'>,
): RankedWallet[] {
  const metric = options.sortBy ?? 'pnl_total';
  const kept = rows.filter((r) => r.deals >= (options.minDeals ?? 0));
  kept.sort((a, b) => {
    const x = metricOf(a, metric);
    const y = metricOf(b, metric);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return y - x;
    }
    return a.wallet < b.wallet ? -1 : a.wallet > b.wallet ? 1 : 0;
  });
  return options.top === undefined ? kept : kept.slice(0, options.top);
}

/**
 * The request every wallet is copied with: the request as given, with the copier's wallet
 * reported (`report_wallet`, for `capital_required`; it changes no deal) and, with a
 * `balance`, every copier starting with it. A request whose strategy is not an object is left
 * as it is, for its validation to name.
 */
export function rankRequest(request: unknown, balance: number | undefined): unknown {
  if (balance !== undefined && !(Number.isFinite(balance) && balance > 0)) {
    throw new InputError(`balance ${balance} must be a number of USD above 0`, { source: 'balance' });
  }
  if (request === null || typeof request !== 'object' || Array.isArray(request)) return request;
  const { strategy } = request as { strategy?: unknown };
  const given = strategy !== undefined && strategy !== null;
  if (given && (typeof strategy !== 'object' || Array.isArray(strategy))) return request;
  const wallet = { report_wallet: true, ...(balance === undefined ? {} : { starting_balance_usd: balance }) };
  return { ...request, strategy: { ...(strategy ?? {}), ...wallet } };
}

/** What ranking over one window needs, made once: the tape, the settings, the wallets' swaps. */
export interface RankContext {
  readonly request: SimulatorRequest;
  readonly engineOptions: EngineOptions;
  readonly network: Network;
  readonly native: NativePriceSeries;
  /** The tape's swaps, in the window or not. */
  readonly swapCount: number;
  /** The tape indexed: for a tape read as rows (tape-rows.ts), read from its file when first asked for. */
  readonly tape: IndexedTape;
  /** The swaps before the window's end, grouped by wallet and token; made when first asked for. */
  readonly buckets: SwapBuckets;
  /** The same swaps as rows of double words (word-rows.ts); made when first asked for. */
  readonly rows: SwapRows;
  /** The wallets with a swap before the window's end. */
  readonly wallets: WindowWallets;
}

/** The wallets of a window: ids by address key, and each one's swaps before the window's end. */
export interface WindowWallets {
  readonly ids: ReadonlyMap<string, number>;
  /** Event positions of wallet `w`'s swaps, ascending. */
  positions(w: number): Uint32Array;
  /** The time of the swap at event position `k`. */
  time(k: number): number;
  /** The wallet's address as its first swap spells it; undefined when it has none before the end. */
  spelling(w: number): string | undefined;
}

/** The context of a rank over the request's window, of an indexed tape or of one read as rows. */
export function rankContext(
  tape: IndexedTape | RowsTape,
  request: SimulatorRequest,
  engineOptions: EngineOptions,
): RankContext {
  return new WindowContext(tape, request, engineOptions);
}

class WindowContext implements RankContext {
  readonly network: Network;
  readonly native: NativePriceSeries;
  readonly swapCount: number;
  private readonly end: number;
  private madeBuckets: SwapBuckets | null = null;
  private madeRows: SwapRows | null = null;
  private madeWallets: WindowWallets | null = null;

  constructor(
    private readonly source: IndexedTape | RowsTape,
    readonly request: SimulatorRequest,
    readonly engineOptions: EngineOptions,
  ) {
    this.network = source.network;
    this.native = source.native;
    this.swapCount = source.kind === 'rows-tape' ? source.count : source.swaps.length;
    this.end = requestWindow(request).end;
  }

  get tape(): IndexedTape {
    return this.source.kind === 'rows-tape' ? this.source.indexed() : this.source;
  }

  get buckets(): SwapBuckets {
    return (this.madeBuckets ??= new SwapBuckets(this.tape, this.end));
  }

  get rows(): SwapRows {
    const source = this.source;
    this.madeRows ??=
      source.kind === 'rows-tape'
        ? SwapRows.ofRowsTape(source, source.prefixEnd(this.end))
        : SwapRows.ofIndexed(source, this.buckets);
    return this.madeRows;
  }

  get wallets(): WindowWallets {
    return (this.madeWallets ??=
      this.source.kind === 'rows-tape' ? this.rowsWallets(this.source) : this.bucketWallets());
  }

  private bucketWallets(): WindowWallets {
    const buckets = this.buckets;
    return {
      ids: this.tape.walletIds,
      positions: (w) => buckets.walletPositions(w),
      time: (k) => buckets.swapAt(k).time,
      spelling: (w) => {
        const positions = buckets.walletPositions(w);
        return positions.length === 0 ? undefined : buckets.swapAt(positions[0]!).wallet;
      },
    };
  }

  private rowsWallets(source: RowsTape): WindowWallets {
    const rows = this.rows;
    return {
      ids: source.walletIds,
      positions: (w) => rows.walletPositions(w),
      time: (k) => rows.rows[ROW * k + TIME]!,
      // The tape is in time order: the wallet's first swap before the end is its first.
      spelling: (w) => (rows.walletPositions(w).length === 0 ? undefined : source.spellings[w]),
    };
  }
}

/** A wallet to rank: its id in the tape and its address as the tape spells it. */
export interface Candidate {
  readonly id: number;
  readonly address: string;
}

/**
 * The given wallets copied alone: one row each, in the order given, made in double words where
 * they decide it (`inWords`, word-copy.ts), and otherwise each wallet a follower of a walk of the
 * tape, `walletsAWalk` to a walk. The rows do not depend on how the wallets are grouped, nor on
 * which of the two made them.
 */
export function copyWallets(
  context: RankContext,
  candidates: readonly Candidate[],
  onProgress?: (done: number, total: number) => void,
  walletsAWalk = WALLETS_A_WALK,
  inWords = true,
): RankedWallet[] {
  const rows: RankedWallet[] = [];
  const total = candidates.length;
  for (const [first, group] of walksOf(candidates, walletsAWalk)) {
    const progress =
      onProgress && ((done: number, all: number) => onProgress(first + Math.floor((group.length * done) / all), total));
    for (const row of copyGroup(context, group, progress, inWords)) rows.push(row);
  }
  return rows;
}

/**
 * One group of wallets: the rows made in double words where every printed figure is decided
 * (word-copy.ts), and the others copied exactly ({@link rowsFrom}).
 */
function copyGroup(
  context: RankContext,
  candidates: readonly Candidate[],
  onProgress: ((done: number, total: number) => void) | undefined,
  inWords: boolean,
): RankedWallet[] {
  const { request, engineOptions } = context;
  const words = inWords && wordCopyApplies(request, engineOptions) ? wordCopyOf(context) : null;
  const results = words === null ? candidates.map(() => null) : wordResultsOf(words, candidates);
  return rowsFrom(context, candidates, results, words, onProgress);
}

/** A wallet's row made in double words, with its own results when they are decided there too. */
export interface WordResult {
  readonly row: WordRow;
  readonly own: OwnResults | null;
}

/** Each wallet's row in double words, or null when it is not decided there. */
export function wordResultsOf(words: WordCopy, candidates: readonly Candidate[]): (WordResult | null)[] {
  return candidates.map(({ id }) => {
    const row = words.row(id);
    return row === null ? null : { row, own: words.own(id) };
  });
}

/**
 * The rows of `candidates` from their results in double words (`results`, by place): a decided
 * one as it is, its own results made exactly when they were not decided; the others copied
 * exactly, in one walk of the tape with a follower for each, the rows made as it ends, so its
 * deals die with it. The wallet's own results depend on its swaps alone: in double words
 * (`words`, null: exactly) when they decide them, whoever copied the wallet.
 */
export function rowsFrom(
  context: RankContext,
  candidates: readonly Candidate[],
  results: readonly (WordResult | null)[],
  words: WordCopy | null,
  onProgress?: (done: number, total: number) => void,
): RankedWallet[] {
  const { request, engineOptions } = context;
  const start = requestWindow(request).start;
  // The tape and its buckets only for a wallet not decided in double words: a tape read as rows
  // is then read whole.
  const own = (id: number): OwnResults => words?.own(id) ?? ownResults(context.buckets, id, start);
  const rows: (RankedWallet | null)[] = candidates.map(({ id, address }, k) => {
    const made = results[k];
    if (made === null || made === undefined) return null;
    return {
      wallet: address,
      ...rowHead(made.row),
      own: made.own ?? ownResults(context.buckets, id, start),
      copier: made.row.copier,
    };
  });
  const left = candidates.filter((_, k) => rows[k] === null);
  if (left.length > 0) {
    const runs = replayFollowers(
      context.tape,
      left.map(({ address }) => ({ ...request, wallets: [address] })),
      engineOptions,
      {
        chart: false,
        trades: false,
        // Each wallet is copied in one walk: the next walks read few of this one's decimals.
        keepTapeDecimals: false,
        ...(onProgress !== undefined ? { onProgress } : {}),
      },
    );
    let next = 0;
    for (let k = 0; k < rows.length; k++) {
      if (rows[k] !== null) continue;
      const { id, address } = left[next]!;
      rows[k] = rankedRow(runs[next++]!, address, own(id));
    }
  } else {
    onProgress?.(1, 1);
  }
  return rows as RankedWallet[];
}

/** A row's members before `own`, in the order a row prints them. */
function rowHead(
  row: WordRow,
): Pick<RankedWallet, 'summary' | 'deals' | 'closed_deals' | 'winrate' | 'profit_factor' | 'max_drawdown'> {
  return {
    summary: row.summary,
    deals: row.deals,
    closed_deals: row.closed_deals,
    winrate: row.winrate,
    profit_factor: row.profit_factor,
    max_drawdown: row.max_drawdown,
  };
}

/** The wallets to rank, by address: the given ones, or every wallet with a swap in the window. */
export function candidateWallets(context: RankContext, only: readonly string[] | undefined): Candidate[] {
  const wallets = context.wallets;
  const start = requestWindow(context.request).start;
  const out: Candidate[] = [];
  if (only !== undefined) {
    const seen = new Set<number>();
    only.forEach((address, i) => {
      const id = wallets.ids.get(addressKey(context.network, address));
      if (id === undefined) {
        throw new InputError(`wallet ${i + 1} of the list (${address}) has no swap in the tape: check its spelling`, {
          source: 'wallets',
        });
      }
      if (!seen.has(id)) out.push({ id, address: wallets.spelling(id) ?? address });
      seen.add(id);
    });
  } else {
    for (let id = 0; id < wallets.ids.size; id++) {
      const positions = wallets.positions(id);
      // A swap in the window: the last one before window_end is at or after window_start.
      if (positions.length > 0 && wallets.time(positions[positions.length - 1]!) >= start)
        out.push({ id, address: wallets.spelling(id)! });
    }
  }
  return out.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}

/** A row from a follower's replay and the wallet's own deals. */
function rankedRow(run: ReplayResult, address: string, own: OwnResults): RankedWallet {
  const results = dealResults(run);
  const closed = closingOrder(results);
  let gains = ZERO;
  let losses = ZERO;
  let wins = 0;
  let cumulative = ZERO;
  let peak = ZERO;
  let drawdown = ZERO;
  for (const { pnlTotal } of closed) {
    if (pnlTotal.gt(0)) {
      wins++;
      gains = gains.plus(pnlTotal);
    } else if (pnlTotal.lt(0)) {
      losses = losses.plus(pnlTotal);
    }
    cumulative = cumulative.plus(pnlTotal);
    if (peak.lt(cumulative)) peak = cumulative;
    const fall = peak.minus(cumulative);
    if (drawdown.lt(fall)) drawdown = fall;
  }
  return {
    wallet: address,
    summary: summaryJson(summarize(results, run.totals)),
    deals: results.length,
    closed_deals: closed.length,
    winrate: closed.length === 0 ? 0 : toJsonNumber(new Decimal(100 * wins).div(closed.length)),
    profit_factor: losses.isZero() ? null : toJsonNumber(gains.div(losses.abs())),
    max_drawdown: toJsonNumber(drawdown),
    own,
    copier: copierJson(run.copier!),
  };
}

/** The wallet's own results over the window (exact, from its own swaps). */
function ownResults(buckets: SwapBuckets, walletId: number, start: number): OwnResults {
  const own = totalsFrom(computeOwnDeals(buckets, walletId, buckets.end, false).deals, start);
  return {
    pnl_total: toJsonNumber(own.value('pnl_total')),
    roi_total: toJsonNumber(own.value('roi_total')),
    winrate: toJsonNumber(own.value('winrate')),
    deals: own.deals,
  };
}
