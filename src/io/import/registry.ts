/**
 * The importers, by name: every source of swap data that `copysim import` reads, and the
 * providers whose exports the library's readers (`importProviderFile` …) read by name.
 *
 * To add an importer: write its reader, then list an entry for it in {@link IMPORTERS}:
 * - a provider's exports (a table of trades, or a JSON document): an {@link exportImporter} in
 *   {@link PROVIDER_IMPORTERS}, with the form of its exports and the importer of one export. Its
 *   name is then a {@link Provider} and it takes {@link PROVIDER_SETTINGS};
 * - any other source: an {@link Importer} with its files, its settings and its reader.
 * The command line then runs `copysim import NAME` with it, takes its settings' flags and lists it
 * in its help (sources that share one list of settings are listed together, the settings once).
 */
import { InputError } from '../../model/errors.js';
import { NetworkSchema, type Network } from '../../model/request.js';
import { importBirdeye } from './birdeye.js';
import { parseColumnMapping } from './csv.js';
import { importDune } from './dune.js';
import {
  importCsvFile,
  importPumpSwapFile,
  importUniswapFiles,
  type CsvFileOptions,
  type UniswapFileOptions,
} from './files.js';
import { importFlipside } from './flipside.js';
import { importHelius } from './helius.js';
import { optionName } from './option-names.js';
import {
  exportImporter,
  JSON_EXPORT,
  TABLE_EXPORT,
  type ExportImporter,
  type ProviderFileOptions,
} from './provider-files.js';
import type { ProviderImportOptions } from './provider-options.js';
import { parseProviderTime } from './provider-time.js';
import { parseQuoteAssets } from './quote-assets.js';
import type { Importer, ImporterSetting, ImportResult } from './types.js';

/** A setting's text that is no value of its option; the message names the option (`network` expects …). */
export class SettingValueError extends InputError {
  override name = 'SettingValueError';
  constructor(
    readonly option: string,
    expected: string,
  ) {
    super(`${optionName(option)} ${expected}`, { source: 'options', path: option });
  }
}

function network(text: string): Network {
  const parsed = NetworkSchema.safeParse(text);
  if (!parsed.success) throw new SettingValueError('network', 'expects sol or eth');
  return parsed.data;
}

/** The text; an empty text sets nothing. */
function unlessEmpty(text: string): string | undefined {
  return text || undefined;
}

/** A comma-separated list; an empty text sets nothing. */
function list(text: string): string[] | undefined {
  return text ? text.split(',').map((s) => s.trim()) : undefined;
}

const uniswap: Importer<UniswapFileOptions> = {
  name: 'uniswap',
  files: 'SWAPS.json...',
  help: [
    "The Graph's Uniswap v2/v3 subgraph Swap entities, one file per pool,",
    "named by the pool's address (0x….json)",
  ],
  settings: [
    {
      option: 'pools',
      flag: 'pools',
      value: 'FILE',
      help: ["pool info (required): pool_info.csv or the subgraph's pairs JSON"],
      required: true,
    },
    {
      option: 'token',
      flag: 'token',
      value: 'ADDRESS',
      help: ["the token to trade (default: the pool info's token, else the non-WETH side)"],
      parse: unlessEmpty,
    },
    {
      option: 'ethUsd',
      flag: 'eth-usd',
      value: 'FILE',
      help: [
        'ETH/USD series (Yahoo daily CSV, GeckoTerminal JSON, or unix,price',
        'lines): native prices on days without a WETH leg, and a check of amountUSD',
      ],
    },
    {
      option: 'usdFrom',
      flag: 'usd-from',
      value: 'SOURCE',
      help: ['amountUSD (default) or quote: the WETH leg × --eth-usd, or a stablecoin leg'],
      default: 'amountUSD',
      parse: (text) => {
        if (text === 'amountUSD' || text === 'quote') return text;
        throw new SettingValueError('usdFrom', `expects amountUSD or quote, got "${text}"`);
      },
    },
  ],
  read: (paths, options) => importUniswapFiles(paths, options),
};

const pumpswap: Importer<{ readonly solUsd: string }> = {
  name: 'pumpswap',
  files: 'CAPTURE.jsonl',
  help: ['the PumpSwap capture: one JSON line per token with its swaps in SOL'],
  settings: [
    {
      option: 'solUsd',
      flag: 'sol-usd',
      value: 'FILE',
      help: ['SOL/USD series (required), e.g. sol_usd_hourly.json'],
      required: true,
    },
  ],
  oneFile: true,
  read: (paths, options) => importPumpSwapFile(paths[0]!, options),
};

const TIME_FORMATS = ['auto', 'unix', 'unix_ms', 'iso'];

const csv: Importer<CsvFileOptions> = {
  name: 'csv',
  files: 'FILE.csv',
  help: ['a CSV export, one swap a row, header first'],
  settings: [
    { option: 'network', flag: 'network', value: 'sol|eth', help: ['(required)'], required: true, parse: network },
    {
      option: 'columns',
      flag: 'map',
      value: 'MAPPING',
      help: [
        '(required) field=column,… with fields wallet, token, type, time,',
        'quantity, and usd_price or usd_amount (or native_price / native_amount',
        'with --native-prices); optional usd_liquidity, transaction_hash,',
        'token_name, token_symbol',
      ],
      required: true,
      parse: parseColumnMapping,
    },
    {
      option: 'buyValues',
      flag: 'buy',
      value: 'VALUES',
      help: ['values of the type column meaning buy, comma-separated (default buy)'],
      parse: list,
    },
    { option: 'sellValues', flag: 'sell', value: 'VALUES', help: ['values meaning sell (default sell)'], parse: list },
    {
      option: 'timeFormat',
      flag: 'time-format',
      value: 'F',
      help: ['auto (default), unix, unix_ms or iso'],
      default: 'auto',
      parse: (text) => {
        if (TIME_FORMATS.includes(text)) return text;
        throw new SettingValueError('timeFormat', 'expects auto, unix, unix_ms or iso');
      },
    },
    {
      option: 'nativePrices',
      flag: 'native-prices',
      value: 'FILE',
      help: ["the native coin's USD series (same forms as --eth-usd)"],
    },
    {
      option: 'delimiter',
      flag: 'delimiter',
      value: 'C',
      help: ['default: comma, or tab when the header has tabs'],
      parse: (text) => (text === '\\t' ? '\t' : unlessEmpty(text)),
    },
  ],
  oneFile: true,
  read: (paths, options) => importCsvFile(paths[0]!, options),
};

/** The settings of every provider's importer. */
export const PROVIDER_SETTINGS: readonly ImporterSetting[] = [
  {
    option: 'solUsd',
    flag: 'sol-usd',
    value: 'FILE',
    help: ['SOL/USD series: USD values of trades paid in SOL the export lacks'],
  },
  { option: 'ethUsd', flag: 'eth-usd', value: 'FILE', help: ['ETH/USD series: the same for ETH'] },
  {
    option: 'network',
    flag: 'network',
    value: 'sol|eth',
    help: ['when the export has no blockchain column (dune, flipside, birdeye)'],
    parse: network,
  },
  {
    option: 'quoteAssets',
    flag: 'quote-assets',
    value: 'LIST',
    help: [
      "ADDRESS:SYMBOL:native|usd,… replaces the network's quote assets",
      '(which leg is the money; see docs/importers.md)',
    ],
    parse: (text) => (text ? parseQuoteAssets(text) : undefined),
  },
  {
    option: 'assumeTime',
    flag: 'assume-time',
    value: 'T',
    help: [
      'time (unix seconds or ISO) given to rows of an export with none,',
      'in file order (Flipside seeds, trimmed Helius files)',
    ],
    parse: (text) => {
      const time = parseProviderTime(text);
      if (time !== null) return time;
      throw new SettingValueError('assumeTime', `expects unix seconds or an ISO time, got "${text}"`);
    },
  },
];

/** The importers of the providers' exports. */
export const PROVIDER_IMPORTERS = [
  exportImporter({
    name: 'dune',
    files: 'EXPORT...',
    help: [
      "Dune query results (CSV, or the API's JSON): dex.trades (taker or",
      'tx_from, token_bought_address, tx_hash), dex_solana.trades (trader_id,',
      'token_bought_mint_address, tx_id), the bot_trades form (user), and the',
      'legacy dex.trades (token_a_symbol, trader_a: symbols only)',
    ],
    settings: PROVIDER_SETTINGS,
    form: TABLE_EXPORT,
    importExport: importDune,
  }),
  exportImporter({
    name: 'flipside',
    files: 'EXPORT...',
    help: [
      'Flipside ez_dex_swaps (EVM: token_in/token_out; Solana: swap_from_mint/',
      'swap_to_mint) and the fact_swaps form (from_mint, to_mint)',
    ],
    settings: PROVIDER_SETTINGS,
    form: TABLE_EXPORT,
    importExport: importFlipside,
  }),
  exportImporter({
    name: 'helius',
    files: 'TXS.json...',
    help: [
      'Helius enhanced transactions of type SWAP (events.swap), and of type',
      "UNKNOWN or with empty events from the wallet's balance changes",
    ],
    settings: PROVIDER_SETTINGS,
    form: JSON_EXPORT,
    importExport: importHelius,
  }),
  exportImporter({
    name: 'birdeye',
    files: 'RESPONSE.json...',
    help: ['Birdeye trade responses (from/to or base/quote items)'],
    settings: PROVIDER_SETTINGS,
    form: JSON_EXPORT,
    importExport: importBirdeye,
  }),
] as const;

/** A provider whose exports the library reads. */
export type Provider = (typeof PROVIDER_IMPORTERS)[number]['name'];

/** The providers whose exports `copysim import` reads. */
export const PROVIDERS: readonly Provider[] = PROVIDER_IMPORTERS.map((importer) => importer.name);

/** Every importer, in the order the help lists them. */
export const IMPORTERS: readonly Importer[] = [uniswap, pumpswap, csv, ...PROVIDER_IMPORTERS];

const PROVIDER_BY_NAME: ReadonlyMap<string, ExportImporter> = new Map(
  PROVIDER_IMPORTERS.map((importer) => [importer.name, importer]),
);

function providerImporter(provider: Provider): ExportImporter {
  const importer = PROVIDER_BY_NAME.get(provider);
  if (importer !== undefined) return importer;
  throw new InputError(`unknown provider "${provider}": ${PROVIDERS.join(', ')}`, { source: 'options' });
}

/** Imports one provider export file (its text already read). */
export function importProviderText(
  provider: Provider,
  text: string,
  file: string,
  options: ProviderImportOptions,
): ImportResult {
  return providerImporter(provider).importText(text, file, options);
}

/**
 * Imports one provider export file; a CSV is read a piece at a time (see `readExportFile`).
 *
 * @example
 * const { tape, report } = importProviderFile('dune', 'trades.csv', { solUsd });
 */
export function importProviderFile(provider: Provider, path: string, options: ProviderImportOptions): ImportResult {
  return providerImporter(provider).importFile(path, options);
}

/**
 * Imports provider export files into one tape: each file on its own (a file with nothing
 * usable is an error naming it), then merged in time order.
 *
 * @example
 * importProviderFiles('dune', ['trades.csv'], { solUsd: 'sol_usd_hourly.json' });
 */
export function importProviderFiles(
  provider: Provider,
  paths: readonly string[],
  options: ProviderFileOptions = {},
): ImportResult {
  return providerImporter(provider).read(paths, options);
}
