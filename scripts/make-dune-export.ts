/**
 * Writes a Dune export in today's `dex_solana.trades` schema from a tape: one row per swap,
 * the token and SOL as the two legs (a buy sold SOL and bought the token), `amount_usd` the
 * swap's USD amount, the time in Dune's `2024-03-10 10:00:00.000 UTC` form. Made from the real
 * PumpSwap tape it is a large real-shaped export that `copysim import dune` must read back into
 * the same swaps (`test/import/real-exports.test.ts` checks it).
 *
 *   npm run -s build && node dist/scripts/make-dune-export.js TAPE.json OUT.csv
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
  'blockchain', 'project', 'version', 'block_month', 'block_time', 'block_slot', 'trade_source',
  'token_bought_symbol', 'token_sold_symbol', 'token_pair', 'token_bought_amount', 'token_sold_amount',
  'amount_usd', 'token_bought_mint_address', 'token_sold_mint_address', 'trader_id', 'tx_id', 'tx_index',
] as const;

/** Dune's time form: `2024-03-10 10:00:00.000 UTC`. */
export function duneTime(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().replace('T', ' ').replace('Z', '')} UTC`;
}

/**
 * The tape as a Dune `dex_solana.trades` CSV. The SOL leg is the USD amount over the SOL/USD
 * price at the swap (the tape's native prices); swaps without a USD amount are left out, as Dune
 * has no trade without one.
 *
 * @example
 * writeFileSync('dune.csv', duneExportOf(readTapeFile('pumpswap.json')));
 */
export function duneExportOf(tape: TapeInput): string {
  const native: PriceSeries = (tape.native_prices ?? []).map(([t, p]) => [t, new Decimal(String(p))] as const);
  const lines: string[] = [DUNE_SOLANA_COLUMNS.join(',')];
  tape.swaps.forEach((s, i) => {
    if (s.usd_amount === undefined) return;
    const usd = new Decimal(String(s.usd_amount));
    const rate = priceAt(native, s.time);
    const sol = rate === null ? '' : usd.div(rate).toSignificantDigits(12).toString();
    const symbol = tape.tokens?.[s.token]?.symbol ?? '';
    const [bought, sold] = s.type === 'buy' ? [[s.token, symbol, String(s.quantity)], [WSOL, 'SOL', sol]] : [[WSOL, 'SOL', sol], [s.token, symbol, String(s.quantity)]];
    const row: Record<(typeof DUNE_SOLANA_COLUMNS)[number], string> = {
      blockchain: 'solana',
      project: 'pumpswap',
      version: '1',
      block_month: `${duneTime(s.time).slice(0, 7)}-01`,
      block_time: duneTime(s.time),
      block_slot: '',
      trade_source: 'direct',
      token_bought_symbol: bought[1]!,
      token_sold_symbol: sold[1]!,
      token_pair: `${symbol || s.token.slice(0, 6)}-SOL`,
      token_bought_amount: bought[2]!,
      token_sold_amount: sold[2]!,
      amount_usd: usd.toString(),
      token_bought_mint_address: bought[0]!,
      token_sold_mint_address: sold[0]!,
      trader_id: s.wallet,
      tx_id: s.transaction_hash ?? '',
      tx_index: String(i),
    };
    lines.push(DUNE_SOLANA_COLUMNS.map((c) => row[c]).join(','));
  });
  return `${lines.join('\n')}\n`;
}

if (isMain(import.meta.url)) {
  runScript('make-dune-export', 'make-dune-export TAPE OUT.csv', (argv) => {
    const [tapePath, out] = argv;
    if (!tapePath || !out) throw new Error('usage: make-dune-export TAPE OUT.csv');
    writeFileSync(out, duneExportOf(validateTape(parseJsonText(readText(tapePath, 'tape'), tapePath, 'tape'))));
  });
}
