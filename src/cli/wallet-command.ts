import { parseArgs } from 'node:util';
import {
  analyticsWarnings,
  buildAnalyticsIndex,
  walletDeals,
  walletIndicators,
  walletInvestmentChart,
  walletPnlChart,
  type AnalyticsIndex,
} from '../analytics/index.js';
import { RequestError } from '../model/errors.js';
import { readJson } from '../io/files.js';
import { readTapeFile } from '../io/read-tape.js';
import { EXIT_OK, EXIT_REQUEST, formatJson, type CliIo } from './io.js';
import { UsageError } from './usage.js';
import { isParquetPath } from '../io/parquet/format.js';
import { NetworkSchema } from '../model/request.js';
import { TAPE_HEADER_FLAGS, tapeHeaderOptions } from './tape-header-flags.js';

export const WALLET_HELP =
  `copysim wallet deals|indicators|pnl-chart|investment-chart ADDRESS` +
  ` --tape TAPE --network NETWORK [flags]

Prints the result payload of a wallet analytics read (interface 4.2 to 4.5) as JSON: the
wallet's own values ("initial") beside those of a follower copying it alone ("following").

  deals             the wallet's deals, newest first (4.5)
  indicators        PnL, ROI, winrate, deals, volume, investment per period (4.2)
  pnl-chart         cumulative realized PnL at regular points (4.3)
  investment-chart  USD invested in open deals at regular points (4.4)

Query flags (named after the query parameters; each read accepts its own):
  --network sol|eth     required: the tape's network
  --page N --per-page N deals: page (from 1) and deals a page (1 to 150, default 30)
  --search TEXT         deals: part of the token name, its whole symbol or whole address
  --period P            charts: 12h, 24h, 7d, 1m or 1y (or give --from-time and --to-time)
  --from-time T         deals opened at or after T (seconds)
  --to-time T           trades after T left out, deals recomputed
  --type realized       pnl-chart: the PnL type (only realized)

Other flags:
  --tape FILE            the tape: JSON, JSONL (.jsonl) or Parquet (.parquet)
  --now T                the analytics' now, seconds (default: the tape's last swap)
  --options FILE         engine options JSON for the follower (as for simulate)
  --copy-settings FILE   the follower's copy settings JSON (defaults: docs/analytics.md)
  --pretty               indent the JSON output
  --tokens FILE          for a Parquet tape another program wrote (no copysim header in it): its
  --native-prices FILE   tokens and native prices, as copysim simulate takes them; --network then
                         names its network too (see docs/columnar-tape.md)

Exit codes: 0 the result on standard output; 2 an invalid query (the 400 body {"code","detail"}
on standard output); 1 the tape or a file cannot be used (a message on standard error).`;

const READS = {
  deals: walletDeals,
  indicators: walletIndicators,
  'pnl-chart': walletPnlChart,
  'investment-chart': walletInvestmentChart,
} as const;

/** Query flag → query parameter. */
const QUERY_FLAGS = {
  network: 'network',
  page: 'page',
  'per-page': 'per_page',
  search: 'search',
  period: 'period',
  'from-time': 'from_time',
  'to-time': 'to_time',
  type: 'type',
} as const;

/** Flags shared by `wallet` and `wallets`: the tape and how to index it. */
export const INDEX_FLAGS = {
  tape: { type: 'string' },
  now: { type: 'string' },
  options: { type: 'string' },
  'copy-settings': { type: 'string' },
  pretty: { type: 'boolean', default: false },
  tokens: TAPE_HEADER_FLAGS.tokens,
  'native-prices': TAPE_HEADER_FLAGS['native-prices'],
} as const;

/**
 * Reads the tape and builds the analytics index from the shared flags. The query's `--network`
 * also names the network of a Parquet tape without copysim's header (a file another program
 * wrote); beside a JSON tape, or when it is no network, it is the query's alone.
 */
export function loadIndex(
  command: string,
  values: {
    tape?: string;
    now?: string;
    options?: string;
    'copy-settings'?: string;
    network?: string;
    tokens?: string;
    'native-prices'?: string;
  },
): AnalyticsIndex {
  if (values.tape === undefined) throw new UsageError(`${command} needs --tape FILE`);
  let now: number | undefined;
  if (values.now !== undefined) {
    if (!/^\d+$/.test(values.now))
      throw new UsageError(`--now must be whole seconds since the epoch, got "${values.now}"`);
    now = Number(values.now);
  }
  const engineOptions = values.options === undefined ? {} : (readJson(values.options, 'options') as object);
  const copySettings =
    values['copy-settings'] === undefined ? {} : (readJson(values['copy-settings'], 'copy settings') as object);
  const network =
    isParquetPath(values.tape) && NetworkSchema.safeParse(values.network).success ? values.network : undefined;
  const header = tapeHeaderOptions({ ...values, network }, values.tape);
  return buildAnalyticsIndex(readTapeFile(values.tape, header), { now, engineOptions, copySettings });
}

/** Prints a result, or the 400 body of a {@link RequestError}; returns the exit code. */
export function printResult(io: CliIo, pretty: boolean, read: () => unknown): number {
  try {
    io.out(formatJson(read(), pretty));
    return EXIT_OK;
  } catch (e) {
    if (e instanceof RequestError) {
      io.out(formatJson(e.body, pretty));
      return EXIT_REQUEST;
    }
    throw e;
  }
}

/** Notes the sells the deal rules set aside, on standard error. */
export function printWarnings(io: CliIo, command: string, index: AnalyticsIndex, address?: string): void {
  const w = analyticsWarnings(index, address);
  const whose = address === undefined ? 'in the tape' : 'of this wallet';
  if (w.ignored_sells > 0)
    io.err(`copysim ${command}: note: ${w.ignored_sells} sell(s) ${whose} had no open deal and were ignored\n`);
  if (w.oversold_sells > 0) {
    io.err(
      `copysim ${command}: note: ${w.oversold_sells} sell(s) ${whose}` +
        ` sold more than was held; only the held part counts\n`,
    );
  }
}

export function walletCommand(args: string[], io: CliIo): number {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ...INDEX_FLAGS,
      network: { type: 'string' },
      page: { type: 'string' },
      'per-page': { type: 'string' },
      search: { type: 'string' },
      period: { type: 'string' },
      'from-time': { type: 'string' },
      'to-time': { type: 'string' },
      type: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [readName, address, ...extra] = positionals;
  if (readName === undefined || !(readName in READS)) {
    throw new UsageError(
      `wallet needs one of ${Object.keys(READS).join(', ')}${readName === undefined ? '' : `, not "${readName}"`}`,
    );
  }
  if (address === undefined) throw new UsageError(`wallet ${readName} needs the wallet ADDRESS`);
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const query: Record<string, string> = {};
  for (const [flag, param] of Object.entries(QUERY_FLAGS)) {
    const value = values[flag as keyof typeof QUERY_FLAGS];
    if (value !== undefined) query[param] = value;
  }
  const index = loadIndex('wallet', values);
  const read = READS[readName as keyof typeof READS];
  const code = printResult(io, values.pretty, () => read(index, address, query));
  if (code === EXIT_OK) printWarnings(io, 'wallet', index, address);
  return code;
}
