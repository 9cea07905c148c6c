import { parseArgs } from 'node:util';
import {
  formatImportReport,
  formatTapeSummary,
  importCsvFile,
  importPumpSwapFile,
  importUniswapFiles,
  parseColumnMapping,
  suggestRequest,
  summarizeTape,
  writeRequestFile,
  writeTapeFile,
  type ImportResult,
} from '../io/import/index.js';
import { NetworkSchema } from '../model/request.js';
import { EXIT_OK, type CliIo } from './io.js';
import { UsageError } from './usage.js';

export const IMPORT_HELP = `copysim import uniswap|pumpswap|csv FILE... --out TAPE.json [flags]

Turns real swap data into a tape. Prints what it dropped and why on standard error, and a
one-line summary (swaps, wallets, tokens, time range) on standard output.

Sources:
  uniswap SWAPS.json...   The Graph's Uniswap v2/v3 subgraph Swap entities, one file per pool,
                          named by the pool's address (0x….json)
    --pools FILE          pool info (required): pool_info.csv or the subgraph's pairs JSON
    --token ADDRESS       the token to trade (default: the pool info's token, else the non-WETH side)
    --eth-usd FILE        ETH/USD series (Yahoo daily CSV, GeckoTerminal JSON, or unix,price
                          lines): native prices on days without a WETH leg, and a check of amountUSD
    --usd-from SOURCE     amountUSD (default) or quote: the WETH leg × --eth-usd, or a stablecoin leg
  pumpswap CAPTURE.jsonl  the PumpSwap capture: one JSON line per token with its swaps in SOL
    --sol-usd FILE        SOL/USD series (required), e.g. sol_usd_hourly.json
  csv FILE.csv            a CSV export, one swap a row, header first
    --network sol|eth     (required)
    --map MAPPING         (required) field=column,… with fields wallet, token, type, time,
                          quantity, and usd_price or usd_amount (or native_price / native_amount
                          with --native-prices); optional usd_liquidity, transaction_hash,
                          token_name, token_symbol
    --buy VALUES          values of the type column meaning buy, comma-separated (default buy)
    --sell VALUES         values meaning sell (default sell)
    --time-format F       auto (default), unix, unix_ms or iso
    --native-prices FILE  the native coin's USD series (same forms as --eth-usd)
    --delimiter C         default: comma, or tab when the header has tabs

Every source:
  --out FILE              where to write the tape (required)
  --outlier-factor N      drop prices more than N× from their token's median (default 100; 0 keeps all)
  --request-out FILE      also write a simulator request: the wallets with the most round trips
                          (a buy, later a sell of the same token) over the data's whole date range
  --leaders N             how many wallets that request follows (default 20)`;

const FLAGS = {
  out: { type: 'string' },
  pools: { type: 'string' },
  token: { type: 'string' },
  'eth-usd': { type: 'string' },
  'usd-from': { type: 'string' },
  'sol-usd': { type: 'string' },
  network: { type: 'string' },
  map: { type: 'string' },
  buy: { type: 'string' },
  sell: { type: 'string' },
  'time-format': { type: 'string' },
  'native-prices': { type: 'string' },
  delimiter: { type: 'string' },
  'outlier-factor': { type: 'string' },
  'request-out': { type: 'string' },
  leaders: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof FLAGS; allowPositionals: true }>>['values'];

function need(values: Values, flag: keyof Values, source: string): string {
  const value = values[flag];
  if (typeof value !== 'string') throw new UsageError(`import ${source} needs --${flag}`);
  return value;
}

function wholeNumber(text: string | undefined, flag: string, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${flag} expects a number ≥ 0, got "${text}"`);
  return n;
}

function runImport(source: string, files: string[], values: Values): ImportResult {
  const outlierFactor = wholeNumber(values['outlier-factor'], 'outlier-factor', 100);
  if (files.length === 0) throw new UsageError(`import ${source} needs at least one source file`);
  if (source === 'uniswap') {
    const usdFrom = values['usd-from'] ?? 'amountUSD';
    if (usdFrom !== 'amountUSD' && usdFrom !== 'quote') throw new UsageError(`--usd-from expects amountUSD or quote, got "${usdFrom}"`);
    return importUniswapFiles(files, {
      pools: need(values, 'pools', source),
      usdFrom,
      outlierFactor,
      ...(values.token ? { token: values.token } : {}),
      ...(values['eth-usd'] ? { ethUsd: values['eth-usd'] } : {}),
    });
  }
  if (files.length > 1) throw new UsageError(`import ${source} takes one source file`);
  if (source === 'pumpswap') return importPumpSwapFile(files[0]!, { solUsd: need(values, 'sol-usd', source), outlierFactor });
  const network = NetworkSchema.safeParse(need(values, 'network', source));
  if (!network.success) throw new UsageError(`--network expects sol or eth`);
  const timeFormat = values['time-format'] ?? 'auto';
  if (!['auto', 'unix', 'unix_ms', 'iso'].includes(timeFormat)) throw new UsageError(`--time-format expects auto, unix, unix_ms or iso`);
  const list = (v: string | undefined): string[] | undefined => v?.split(',').map((s) => s.trim());
  return importCsvFile(files[0]!, {
    network: network.data,
    columns: parseColumnMapping(need(values, 'map', source)),
    timeFormat: timeFormat as 'auto',
    outlierFactor,
    ...(values.buy ? { buyValues: list(values.buy)! } : {}),
    ...(values.sell ? { sellValues: list(values.sell)! } : {}),
    ...(values['native-prices'] ? { nativePrices: values['native-prices'] } : {}),
    ...(values.delimiter ? { delimiter: values.delimiter === '\\t' ? '\t' : values.delimiter } : {}),
  });
}

/** `copysim import uniswap|pumpswap|csv FILE... --out TAPE.json [flags]`. */
export function importCommand(args: string[], io: CliIo): number {
  const { values, positionals } = parseArgs({ args, options: FLAGS, allowPositionals: true, strict: true });
  const [source, ...files] = positionals;
  if (source !== 'uniswap' && source !== 'pumpswap' && source !== 'csv') {
    throw new UsageError(source === undefined ? 'import needs a source: uniswap, pumpswap or csv' : `unknown source "${source}": uniswap, pumpswap or csv`);
  }
  const out = need(values, 'out', source);
  const leaders = wholeNumber(values.leaders, 'leaders', 20);
  const { tape, report } = runImport(source, files, values);
  io.err(formatImportReport(report));
  writeTapeFile(out, tape);
  io.out(`${out}: ${formatTapeSummary(summarizeTape(tape))}\n`);
  if (values['request-out'] !== undefined) {
    const request = suggestRequest(tape, Math.min(100, Math.max(1, Math.floor(leaders))));
    if (request === null) io.err('no wallet made a round trip: no request written\n');
    else {
      writeRequestFile(values['request-out'], request);
      io.out(`${values['request-out']}: ${request.wallets.length} leaders, ${request.from_date} .. ${request.to_date}\n`);
    }
  }
  return EXIT_OK;
}
