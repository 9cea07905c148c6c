import { z } from 'zod';
import { DecimalJs40 as Decimal } from '../../numeric/decimal.js';
import { formatPath } from '../../model/errors.js';
import type { TapeInput } from '../../model/tape.js';
import { keptSwaps } from './outliers.js';
import { priceAt, type PriceSeries } from './prices.js';
import { optionName } from './option-names.js';
import { DropLog } from './report.js';
import { buildTape, fitsTape, type ImportedSwap } from './tape-builder.js';
import type { ImportResult } from './types.js';
import { STABLECOINS, tradedSide, WETH, type UniswapPool } from './uniswap-pools.js';

/** The `Swap` entities of one pool, as The Graph's Uniswap subgraph returns them. */
export interface UniswapPoolSwaps {
  /** The pool's address. */
  readonly pool: string;
  readonly swaps: readonly unknown[];
  /** Where they came from (a file name), for the drop report. */
  readonly source: string;
}

export interface UniswapImportOptions {
  /** The token to trade in every pool; by default the pool info's token of interest, else the non-WETH side. */
  readonly token?: string;
  /** ETH/USD series (e.g. daily closes): fills native prices on days no WETH leg prices, and checks amountUSD. */
  readonly ethUsd?: PriceSeries;
  /**
   * Where a swap's USD value comes from: `amountUSD` (the subgraph's, default) or `quote`: the
   * WETH leg × ETH/USD from `ethUsd`, or a stablecoin leg at 1 USD.
   */
  readonly usdFrom?: 'amountUSD' | 'quote';
  /** Drop prices more than this factor from their token's median (default 100; 0 keeps all). */
  readonly outlierFactor?: number;
}

const SignedDecimal = z.string().regex(/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/, 'expected a decimal string');
const UnsignedDecimal = z.string().regex(/^\d+(\.\d+)?([eE][+-]?\d+)?$/, 'expected a decimal string ≥ 0');
const WholeString = z.string().regex(/^\d+$/, 'expected whole seconds');
const common = {
  amountUSD: UnsignedDecimal,
  timestamp: WholeString,
  id: z.string(),
  logIndex: WholeString.optional(),
  transaction: z.object({ blockNumber: WholeString }).optional(),
};
const V2Schema = z.object({
  ...common,
  amount0In: UnsignedDecimal,
  amount0Out: UnsignedDecimal,
  amount1In: UnsignedDecimal,
  amount1Out: UnsignedDecimal,
  from: z.string().min(1),
});
const V3Schema = z.object({ ...common, amount0: SignedDecimal, amount1: SignedDecimal, origin: z.string().min(1) });

/** A swap entity reduced to what matters: the trader's signed receipts of both tokens. */
interface Leg {
  readonly wallet: string;
  readonly time: number;
  readonly received: readonly [Decimal, Decimal];
  readonly amountUsd: Decimal;
  readonly hash: string;
  readonly seq: readonly number[];
}

function readLeg(row: unknown): Leg | string {
  const isV2 = typeof row === 'object' && row !== null && 'amount0In' in row;
  const parsed = isV2 ? V2Schema.safeParse(row) : V3Schema.safeParse(row);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return `malformed ${isV2 ? 'v2' : 'v3'} Swap entity (${formatPath(issue.path) || 'row'}: ${issue.message})`;
  }
  const s = parsed.data;
  const d = (v: string): Decimal => new Decimal(v);
  // v2 counts amounts in and out of the pool; v3 signs them from the pool's side (negative = paid out).
  const received: [Decimal, Decimal] =
    'amount0In' in s
      ? [d(s.amount0Out).minus(s.amount0In), d(s.amount1Out).minus(s.amount1In)]
      : [d(s.amount0).neg(), d(s.amount1).neg()];
  return {
    wallet: ('from' in s ? s.from : s.origin).toLowerCase(),
    time: Number(s.timestamp),
    received,
    amountUsd: d(s.amountUSD),
    hash: s.id.split(/[#-]/)[0]!,
    seq: [Number(s.transaction?.blockNumber ?? 0), Number(s.logIndex ?? 0)],
  };
}

/** Why a swap whose USD value is to come from its quote leg cannot have one. */
const ETH_USD_OPTION = optionName('ethUsd');
const NO_QUOTE_PRICE = `no USD price for the quote leg (WETH needs ${ETH_USD_OPTION}; other quotes cannot be priced)`;

function median(values: readonly Decimal[]): Decimal | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a.comparedTo(b));
  return sorted[sorted.length >> 1]!;
}

/**
 * Turns Uniswap v2/v3 subgraph `Swap` entities into a tape on `eth`. The wallet is the
 * transaction's signer (`from` on v2, `origin` on v3); a swap is a buy when the trader received
 * the traded token; quantity is the token's net amount, `usd_amount` the swap's USD value and
 * `usd_price` their ratio. Native prices (ETH/USD) come from the swaps' WETH legs
 * (`amountUSD / |WETH|`), and from `ethUsd` on days without one. Liquidity is unknown: Swap
 * entities carry no reserves. Rows that cannot be used are dropped and reported, never fatal.
 *
 * @example
 * const { tape, report } = importUniswap([{ pool, swaps, source: 'pool.json' }], parsePoolInfo(csv, 'pool_info.csv'));
 */
export function importUniswap(
  inputs: readonly UniswapPoolSwaps[],
  pools: readonly UniswapPool[],
  options: UniswapImportOptions = {},
): ImportResult {
  const log = new DropLog();
  const notes: string[] = ['liquidity is unknown (Swap entities carry no reserves): usd_liquidity is null'];
  const poolById = new Map(pools.map((p) => [p.id, p]));
  const tokens: NonNullable<TapeInput['tokens']> = {};
  const swaps: ImportedSwap[] = [];
  const native: [number, Decimal][] = [];
  const usdFrom = options.usdFrom ?? 'amountUSD';
  let rows = 0;

  for (const input of inputs) {
    rows += input.swaps.length;
    const pool = poolById.get(input.pool.toLowerCase());
    const side = pool === undefined ? null : tradedSide(pool, options.token);
    if (pool === undefined || side === null) {
      const reason = pool === undefined ? 'pool not in the pool info' : `token ${options.token} not in the pool`;
      input.swaps.forEach((_, i) => log.drop(reason, `${input.source} swaps[${i}]`));
      continue;
    }
    const token = side === 0 ? pool.token0 : pool.token1;
    const quote = side === 0 ? pool.token1 : pool.token0;
    tokens[token.id] = { name: token.name, symbol: token.symbol };
    const poolNative: [number, Decimal][] = [];
    input.swaps.forEach((row, i) => {
      const where = `${input.source} swaps[${i}]`;
      const leg = readLeg(row);
      if (typeof leg === 'string') return log.drop(leg, where);
      const net = leg.received[side];
      const quoteNet = leg.received[side === 0 ? 1 : 0].abs();
      if (net.isZero()) return log.drop('no net amount of the traded token', where);
      if (quote.id === WETH && !quoteNet.isZero() && leg.amountUsd.gt(0))
        poolNative.push([leg.time, leg.amountUsd.div(quoteNet)]);
      let usd: Decimal | null = leg.amountUsd;
      if (usdFrom === 'quote') {
        const unit =
          quote.id === WETH
            ? options.ethUsd
              ? priceAt(options.ethUsd, leg.time)
              : null
            : STABLECOINS.has(quote.id)
              ? new Decimal(1)
              : null;
        usd = unit === null ? null : quoteNet.times(unit);
      }
      if (usd === null) return log.drop(NO_QUOTE_PRICE, where);
      if (!usd.gt(0)) return log.drop('no USD value (amountUSD is 0: the subgraph could not price the swap)', where);
      const quantity = net.abs();
      swaps.push({
        wallet: leg.wallet,
        token: token.id,
        type: net.gt(0) ? 'buy' : 'sell',
        time: leg.time,
        quantity,
        usdPrice: usd.div(quantity),
        usdAmount: usd,
        usdLiquidity: null,
        transactionHash: leg.hash,
        seq: leg.seq,
        where,
      });
    });
    native.push(...checkedNative(input.source, poolNative, options.ethUsd, usdFrom, notes));
  }

  const kept = keptSwaps(swaps, options.outlierFactor, log);
  const nativePrices = nativeSeries(native, kept, options.ethUsd, notes);
  return {
    tape: buildTape('eth', kept, tokens, nativePrices),
    report: { source: 'uniswap', rows, kept: kept.length, dropped: log.list(), notes },
  };
}

/**
 * A pool's ETH/USD points from its WETH legs, unless `ethUsd` shows its amountUSD is off (the v2
 * subgraph averages both legs' USD values and counts a token it cannot price as 0, which halves
 * amountUSD): then they are left out, with a note.
 */
function checkedNative(
  source: string,
  points: readonly [number, Decimal][],
  ethUsd: PriceSeries | undefined,
  usdFrom: 'amountUSD' | 'quote',
  notes: string[],
): [number, Decimal][] {
  if (points.length === 0 || ethUsd === undefined) return [...points];
  const ratios = points.flatMap(([t, p]) => {
    const reference = priceAt(ethUsd, t);
    return reference === null ? [] : [p.div(reference)];
  });
  const ratio = median(ratios);
  if (ratio === null || (ratio.gte(0.8) && ratio.lte(1.25))) return [...points];
  const quoteInstead = `; ${optionName('usdFrom')} quote prices its swaps from the WETH leg instead`;
  const fix = usdFrom === 'amountUSD' ? quoteInstead : '';
  const implied = `amountUSD implies ETH/USD at ${ratio.toSignificantDigits(3).toString()}×`;
  notes.push(`${source}: ${implied} the ${optionName('ethUsd')} series, so its WETH legs give no native prices${fix}`);
  return [];
}

/** Native prices: the WETH-leg points (outliers left out), and `ethUsd` points for days with none. */
function nativeSeries(
  all: [number, Decimal][],
  swaps: readonly ImportedSwap[],
  ethUsd: PriceSeries | undefined,
  notes: string[],
): PriceSeries {
  // A point beyond the tape's range (amountUSD 1e99999) would also pull the median away.
  const points = all.filter(([, p]) => fitsTape(p));
  const mid = median(points.map((p) => p[1]));
  const kept = mid === null ? [] : points.filter(([, p]) => p.div(mid).lte(100) && p.div(mid).gte(0.01));
  if (kept.length < points.length)
    notes.push(
      `${points.length - kept.length} ETH/USD points from WETH legs left out: more than 100× from their median`,
    );
  const series = kept.sort((a, b) => a[0] - b[0]);
  if (ethUsd !== undefined && swaps.length > 0) {
    const day = (t: number): number => Math.floor(t / 86_400);
    const covered = new Set(series.map(([t]) => day(t)));
    const times = swaps.map((s) => s.time);
    const needed = new Set(times.map(day).filter((d) => !covered.has(d)));
    const fill = [...needed]
      .sort((a, b) => a - b)
      .flatMap((d) => {
        const price = priceAt(ethUsd, d * 86_400 + 86_399);
        return price === null ? [] : [[d * 86_400, price] as [number, Decimal]];
      });
    if (fill.length > 0) {
      notes.push(`${fill.length} days without a WETH leg take ETH/USD from the ${optionName('ethUsd')} series`);
    }
    series.push(...fill);
    series.sort((a, b) => a[0] - b[0]);
  }
  notes.push(
    series.length === 0
      ? `no native prices: no WETH leg and no ${optionName('ethUsd')} series (simulating with fees will fail)`
      : `${series.length} native price points`,
  );
  return series;
}
