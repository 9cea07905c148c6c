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
import { importProviderFiles, PROVIDERS, type Provider } from '../io/import/provider-files.js';
import { parseProviderTime } from '../io/import/provider-time.js';
import { parseQuoteAssets } from '../io/import/quote-assets.js';
import { EXIT_OK, type CliIo } from './io.js';
import { UsageError } from './usage.js';

export const IMPORT_HELP = `copysim import SOURCE FILE... --out TAPE [flags]

Turns real swap data into a tape: TAPE.json, TAPE.jsonl or TAPE.parquet (by its extension). Prints what it dropped and why on standard error, and a
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

  dune EXPORT...          Dune query results (CSV, or the API's JSON): dex.trades (taker or
                          tx_from, token_bought_address, tx_hash), dex_solana.trades (trader_id,
                          token_bought_mint_address, tx_id), the bot_trades form (user), and the
                          legacy dex.trades (token_a_symbol, trader_a: symbols only)
  flipside EXPORT...      Flipside ez_dex_swaps (EVM: token_in/token_out; Solana: swap_from_mint/
                          swap_to_mint) and the fact_swaps form (from_mint, to_mint)
  helius TXS.json...      Helius enhanced transactions of type SWAP (events.swap), and of type
                          UNKNOWN or with empty events from the wallet's balance changes
  birdeye RESPONSE.json...  Birdeye trade responses (from/to or base/quote items)
    --sol-usd FILE        SOL/USD series: USD values of trades paid in SOL the export lacks
    --eth-usd FILE        ETH/USD series: the same for ETH
    --network sol|eth     when the export has no blockchain column (dune, flipside, birdeye)
    --quote-assets LIST   ADDRESS:SYMBOL:native|usd,… replaces the network's quote assets
                          (which leg is the money; see docs/importers.md)
    --assume-time T       time (unix seconds or ISO) given to rows of an export with none,
                          in file order (Flipside seeds, trimmed Helius files)

Every source:
  --out FILE              where to write the tape (required): .json, .jsonl or .parquet
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
  'quote-assets': { type: 'string' },
  'assume-time': { type: 'string' },
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
  if ((PROVIDERS as readonly string[]).includes(source)) {
    const network = values.network === undefined ? undefined : NetworkSchema.safeParse(values.network);
    if (network && !network.success) throw new UsageError(`--network expects sol or eth`);
    const assumeTime = values['assume-time'] === undefined ? undefined : parseProviderTime(values['assume-time']);
    if (assumeTime === null) throw new UsageError(`--assume-time expects unix seconds or an ISO time, got "${values['assume-time']}"`);
    return importProviderFiles(source as Provider, files, {
      outlierFactor,
      ...(network ? { network: network.data } : {}),
      ...(values['sol-usd'] ? { solUsd: values['sol-usd'] } : {}),
      ...(values['eth-usd'] ? { ethUsd: values['eth-usd'] } : {}),
      ...(values['quote-assets'] ? { quoteAssets: parseQuoteAssets(values['quote-assets']) } : {}),
      ...(assumeTime !== undefined ? { assumeTime } : {}),
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

const SOURCES = ['uniswap', 'pumpswap', 'csv', ...PROVIDERS] as const;

/** `copysim import SOURCE FILE... --out TAPE [flags]`. */
export function importCommand(args: string[], io: CliIo): number {
  const { values, positionals } = parseArgs({ args, options: FLAGS, allowPositionals: true, strict: true });
  const [source, ...files] = positionals;
  if (source === undefined || !(SOURCES as readonly string[]).includes(source)) {
    throw new UsageError(`${source === undefined ? 'import needs a source' : `unknown source "${source}"`}: ${SOURCES.join(', ')}`);
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
