/**
 * Writes a provider's export from a tape, in today's schema: a Dune `dex_solana.trades` CSV or a
 * Flipside Solana `ez_dex_swaps` CSV, one row per swap with a USD amount, the token and SOL as
 * the two legs (a buy sold SOL and bought the token), the swap's USD amount as the export's.
 * Made from the real PumpSwap tape, each is a large real-shaped export that `copysim import` must
 * read back into the same swaps (`test/import/real-exports.test.ts` checks it); made from the
 * benchmark tape, the importer benchmark reads them.
 *
 *   npm run -s build && node dist/scripts/make-export.js dune|flipside TAPE.json OUT.csv
 */
import { writeFileSync } from 'node:fs';
import { DecimalJs40 as Decimal } from '../src/numeric/decimal.js';
import type { TapeInput } from '../src/model/tape.js';
import { priceAt, type PriceSeries } from '../src/io/import/prices.js';
import { parseJsonText, readText } from '../src/io/files.js';
import { validateTape } from '../src/engine/tape-check.js';
import { isMain } from '../tools/is-main.js';
import { runScript } from '../tools/script-args.js';

const WSOL = 'So11111111111111111111111111111111111111112';

/** The columns written, a subset of `dex_solana.trades` in its order. */
export const DUNE_SOLANA_COLUMNS = [
  'blockchain',
  'project',
  'version',
  'block_month',
  'block_time',
  'block_slot',
  'trade_source',
  'token_bought_symbol',
  'token_sold_symbol',
  'token_pair',
  'token_bought_amount',
  'token_sold_amount',
  'amount_usd',
  'token_bought_mint_address',
  'token_sold_mint_address',
  'trader_id',
  'tx_id',
  'tx_index',
] as const;

/** Dune's time form: `2024-03-10 10:00:00.000 UTC`. */
export function duneTime(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().replace('T', ' ').replace('Z', '')} UTC`;
}

/** A swap as an export's trade: the leg bought and the leg sold, each [mint, symbol, amount]. */
interface SolanaTrade {
  readonly swap: TapeInput['swaps'][number];
  /** The swap's place in the tape, an export's order within the second. */
  readonly index: number;
  readonly symbol: string;
  readonly usd: string;
  readonly bought: readonly [string, string, string];
  readonly sold: readonly [string, string, string];
}

/**
 * The tape's swaps with a USD amount as trades against SOL, the SOL leg the USD amount over the
 * SOL/USD price at the swap (the tape's native prices; empty without one). Swaps without a USD
 * amount are left out, as the providers have no trade without one.
 */
function solanaTrades(tape: TapeInput): SolanaTrade[] {
  const native: PriceSeries = (tape.native_prices ?? []).map(([t, p]) => [t, new Decimal(String(p))] as const);
  const trades: SolanaTrade[] = [];
  tape.swaps.forEach((swap, index) => {
    if (swap.usd_amount === undefined) return;
    const usd = new Decimal(String(swap.usd_amount));
    const rate = priceAt(native, swap.time);
    const solAmount = rate === null ? '' : usd.div(rate).toSignificantDigits(12).toString();
    const symbol = tape.tokens?.[swap.token]?.symbol ?? '';
    const tokenLeg = [swap.token, symbol, String(swap.quantity)] as const;
    const solLeg = [WSOL, 'SOL', solAmount] as const;
    const buy = swap.type === 'buy';
    trades.push({
      swap,
      index,
      symbol,
      usd: usd.toString(),
      bought: buy ? tokenLeg : solLeg,
      sold: buy ? solLeg : tokenLeg,
    });
  });
  return trades;
}

/** Rows of `columns` as CSV text, the header first. */
function csvOf<C extends string>(columns: readonly C[], rows: readonly Record<C, string>[]): string {
  return `${[columns.join(','), ...rows.map((row) => columns.map((c) => row[c]).join(','))].join('\n')}\n`;
}

/**
 * The tape as a Dune `dex_solana.trades` CSV, the time in Dune's `2024-03-10 10:00:00.000 UTC`
 * form, `tx_index` the swap's place in the tape.
 *
 * @example
 * writeFileSync('dune.csv', duneExportOf(readTapeFile('pumpswap.json')));
 */
export function duneExportOf(tape: TapeInput): string {
  return csvOf(
    DUNE_SOLANA_COLUMNS,
    solanaTrades(tape).map(({ swap: s, index, symbol, usd, bought, sold }) => ({
      blockchain: 'solana',
      project: 'pumpswap',
      version: '1',
      block_month: `${duneTime(s.time).slice(0, 7)}-01`,
      block_time: duneTime(s.time),
      block_slot: '',
      trade_source: 'direct',
      token_bought_symbol: bought[1],
      token_sold_symbol: sold[1],
      token_pair: `${symbol || s.token.slice(0, 6)}-SOL`,
      token_bought_amount: bought[2],
      token_sold_amount: sold[2],
      amount_usd: usd,
      token_bought_mint_address: bought[0],
      token_sold_mint_address: sold[0],
      trader_id: s.wallet,
      tx_id: s.transaction_hash ?? '',
      tx_index: String(index),
    })),
  );
}

/** The columns written, a subset of Flipside's Solana `ez_dex_swaps` in its order. */
export const FLIPSIDE_SOLANA_COLUMNS = [
  'block_timestamp',
  'block_id',
  'tx_id',
  'swapper',
  'swap_from_mint',
  'swap_from_symbol',
  'swap_from_amount',
  'swap_from_amount_usd',
  'swap_to_mint',
  'swap_to_symbol',
  'swap_to_amount',
  'swap_to_amount_usd',
  'swap_index',
] as const;

/**
 * The tape as a Flipside Solana `ez_dex_swaps` CSV: "from" is what the trader sold, both legs'
 * USD values the swap's USD amount, the time in ISO form (`2024-03-10T10:00:00.000Z`),
 * `swap_index` the swap's place in the tape.
 *
 * @example
 * writeFileSync('flipside.csv', flipsideExportOf(readTapeFile('pumpswap.json')));
 */
export function flipsideExportOf(tape: TapeInput): string {
  return csvOf(
    FLIPSIDE_SOLANA_COLUMNS,
    solanaTrades(tape).map(({ swap: s, index, usd, bought, sold }) => ({
      block_timestamp: new Date(s.time * 1000).toISOString(),
      block_id: '',
      tx_id: s.transaction_hash ?? '',
      swapper: s.wallet,
      swap_from_mint: sold[0],
      swap_from_symbol: sold[1],
      swap_from_amount: sold[2],
      swap_from_amount_usd: usd,
      swap_to_mint: bought[0],
      swap_to_symbol: bought[1],
      swap_to_amount: bought[2],
      swap_to_amount_usd: usd,
      swap_index: String(index),
    })),
  );
}

const EXPORTS: Record<string, (tape: TapeInput) => string> = { dune: duneExportOf, flipside: flipsideExportOf };

if (isMain(import.meta.url)) {
  const usage = 'make-export dune|flipside TAPE OUT.csv';
  runScript('make-export', usage, (argv) => {
    const [provider, tapePath, out] = argv;
    const exportOf = EXPORTS[provider ?? ''];
    if (!exportOf || !tapePath || !out) throw new Error(`usage: ${usage}`);
    writeFileSync(out, exportOf(validateTape(parseJsonText(readText(tapePath, 'tape'), tapePath, 'tape'))));
  });
}
