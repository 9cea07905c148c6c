import { z } from 'zod';
import { DecimalJs40 as Decimal } from '../../numeric/decimal.js';
import { formatPath } from '../../model/errors.js';
import type { TapeInput } from '../../model/tape.js';
import { keptSwaps } from './outliers.js';
import { priceAt, seriesWindow, type PriceSeries } from './prices.js';
import { DropLog } from './report.js';
import { buildTape, type ImportedSwap } from './tape-builder.js';
import type { ImportResult } from './types.js';

export interface PumpSwapImportOptions {
  /** Drop prices more than this factor from their token's median (default 100; 0 keeps all). */
  readonly outlierFactor?: number;
}

const Positive = z.number().finite().positive();
const CaptureSchema = z.object({
  mint: z.string().min(1),
  created: z.number().int().nonnegative().optional(),
  swaps: z.array(z.unknown()),
});
const SwapSchema = z.object({
  trader: z.string().min(1),
  side: z.string(),
  ts: z.number().int().nonnegative(),
  sol: z.number().finite().nonnegative().nullable(),
  tokens: z.number().finite().nonnegative().nullable(),
  price: Positive.nullable().optional(),
  sig: z.string().optional(),
});

/**
 * Turns the PumpSwap capture (one JSON line per token: `mint`, `created`, and its `swaps` with
 * `trader`, `side`, `sol`, `tokens`, `price` in SOL per token, `ts`, sometimes `sig`) into a
 * tape on `sol`. Quantities are in tokens; `usd_price` is `price × SOL/USD` and `usd_amount`
 * `sol × SOL/USD`, with SOL/USD the last close of `solUsd` at or before the swap (a price of
 * `sol / tokens` when `price` is missing). The tape's native prices are `solUsd` over the swaps'
 * time range. Liquidity is unknown (the capture has no reserves). Unusable rows are dropped and
 * reported: a line that is not JSON, a swap with no SOL or token amount, a side that is neither
 * buy nor sell, a time before the series, an outlier price.
 *
 * @example
 * const { tape, report } = importPumpSwap(text.split('\n'), parsePriceSeries(solUsdJson, 'sol_usd_hourly.json'));
 */
export function importPumpSwap(
  lines: readonly string[],
  solUsd: PriceSeries,
  options: PumpSwapImportOptions = {},
): ImportResult {
  const log = new DropLog();
  const tokens: NonNullable<TapeInput['tokens']> = {};
  const swaps: ImportedSwap[] = [];
  let rows = 0;
  lines.forEach((text, lineIndex) => {
    if (text.trim() === '') return;
    const line = lineIndex + 1;
    let capture: z.infer<typeof CaptureSchema>;
    try {
      const parsed = CaptureSchema.safeParse(JSON.parse(text));
      if (!parsed.success) {
        rows++;
        return log.drop(
          `capture line without mint or swaps (${formatPath(parsed.error.issues[0]!.path)})`,
          `line ${line}`,
        );
      }
      capture = parsed.data;
    } catch {
      rows++;
      return log.drop('line is not JSON', `line ${line}`);
    }
    rows += capture.swaps.length;
    if (capture.swaps.length > 0)
      tokens[capture.mint] = { name: null, symbol: null, created_at: capture.created ?? null };
    capture.swaps.forEach((raw, i) => {
      const where = `line ${line} swaps[${i}]`;
      const parsed = SwapSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        return log.drop(`malformed swap (${formatPath(issue.path)}: ${issue.message})`, where);
      }
      const s = parsed.data;
      if (s.side !== 'buy' && s.side !== 'sell') return log.drop(`side "${s.side}" is neither buy nor sell`, where);
      if (!s.sol) return log.drop(`${s.side} with no SOL amount (sol = 0 or null)`, where);
      if (!s.tokens) return log.drop(`${s.side} with no token amount (tokens = 0 or null)`, where);
      const solPrice = priceAt(solUsd, s.ts);
      if (solPrice === null) return log.drop('no SOL/USD close at or before the swap', where);
      const quantity = new Decimal(s.tokens);
      const priceSol = s.price != null ? new Decimal(s.price) : new Decimal(s.sol).div(quantity);
      swaps.push({
        wallet: s.trader,
        token: capture.mint,
        type: s.side,
        time: s.ts,
        quantity,
        usdPrice: priceSol.times(solPrice),
        usdAmount: new Decimal(s.sol).times(solPrice),
        usdLiquidity: null,
        transactionHash: s.sig ?? null,
        seq: [line, i],
        where,
      });
    });
  });
  const kept = keptSwaps(swaps, options.outlierFactor, log);
  const first = kept.reduce((t, s) => Math.min(t, s.time), Infinity);
  const last = kept.reduce((t, s) => Math.max(t, s.time), -Infinity);
  const native = kept.length === 0 ? [] : seriesWindow(solUsd, first, last);
  return {
    tape: buildTape('sol', kept, tokens, native),
    report: {
      source: 'pumpswap',
      rows,
      kept: kept.length,
      dropped: log.list(),
      notes: [
        'liquidity is unknown (the capture has no pool reserves): usd_liquidity is null',
        `native prices: ${native.length} SOL/USD closes over the swaps' time range`,
      ],
    },
  };
}
