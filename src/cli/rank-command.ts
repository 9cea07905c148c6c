import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { queueRunner } from '../distributed/rank-queue.js';
import { RankHelpers } from '../rank/helpers.js';
import { copyInWordsApplies } from '../rank/word-copy.js';
import { planTapeParts } from '../rank/tape-rows.js';
import { hasHeaderOptions } from '../io/parquet/header.js';
import { outOfSampleWith, rankWith, type CopyRunner } from '../rank/pipeline.js';
import { WALLETS_A_WALK } from '../engine/followers.js';
import { indexTape } from '../engine/tape-index.js';
import { readJson, readText } from '../io/files.js';
import { readTapeFile } from '../io/read-tape.js';
import { InputError, RequestError } from '../model/errors.js';
import { SimulationSummarySchema } from '../model/response.js';
import type { OutOfSample, SplitRow } from '../rank/out-of-sample.js';
import { metricOf, RANK_METRICS, type RankedWallet, type RankMetric } from '../rank/rank.js';
import { shortAddress } from '../report/text-report.js';
import { EXIT_OK, EXIT_REQUEST, formatJson, type CliIo } from './io.js';
import { progressBar } from './progress.js';
import { UsageError } from './usage.js';
import { TAPE_HEADER_FLAGS, TAPE_HEADER_HELP, tapeHeaderOptions } from './tape-header-flags.js';
import { rankReportHtml } from '../report/html/grid-data.js';
import { writeHtmlFile } from '../report/html/index.js';

const FORMATS = ['table', 'csv', 'jsonl'] as const;
type Format = (typeof FORMATS)[number];

/** The default of --threads: every core, but no more copies of the tape in memory than this. */
const DEFAULT_THREADS_AT_MOST = 4;

export function defaultRankThreads(): number {
  return Math.min(DEFAULT_THREADS_AT_MOST, availableParallelism());
}

export const RANK_HELP = `copysim rank --tape TAPE --request REQUEST [--wallets FILE] [--balance USD] [--sort-by METRIC]
    [--min-deals N] [--top N] [--format table|csv|jsonl] [--split YYYY-MM-DD] [--html FILE] [--threads N]
copysim rank ... --queue redis://HOST:PORT [--chunk N]

Ranks wallets by what copying each alone would have made: every wallet with a swap in the
request's window (or those of --wallets) is followed with the request's settings, its "wallets"
replaced by that one wallet and its strategy's "report_wallet" set (which changes no deal). A
row: the wallet; the copier's summary (the simulator's); its deals, closed deals, winrate,
profit factor and max drawdown (of closed deals' PnL); capital_required, the most money the
copier had in use at once, fees included (what copying that wallet alone needs); the copies
skipped for cash (with a balance); the wallet's own results over the window (own_pnl_total,
own_roi_total, own_winrate, own_deals). jsonl rows also carry the copier's whole "copier" member.

  --tape FILE       the tape: JSON, JSONL (.jsonl) or Parquet (.parquet)
  --request FILE    the simulator request (interface 4.1), strategy included
  --wallets FILE    rank only these wallets: one address a line (blank lines skipped)
  --balance USD     every copier starts with USD (strategy.starting_balance_usd, over the
                    request's own): a copied buy whose amount and fees exceed its cash left is
                    skipped (insufficient_balance) and the row shows what copying with that money
                    made: "which wallets can I afford to copy with 1,000 USD". A wallet whose
                    capital_required is at most USD is copied as with unlimited money
  --sort-by METRIC  largest first, ties by address (default pnl_total): ${RANK_METRICS.join(', ')}
  --min-deals N     leave out wallets whose copier made fewer than N deals
  --top N           at most N rows (with --split, also the wallets copied together after it; default 10 there).
                    Up to 500 rows by pnl_total, roi_total, investment_amount, trading_volume, deals or
                    closed_deals, with no strategy but a balance: every wallet is first screened in
                    doubles with a proven error bound, and only those that can be among the first N
                    are copied exactly (the same rows; docs/rank.md)
  --format F        table (default), csv, or jsonl (one object a line: wallet, summary and the figures)
  --html FILE       also write the ranking as an HTML page: the table, and a scatter of each
                    wallet's own ROI against its copier's; with --split, the after-split columns,
                    the correlation, the top wallets' result, and a scatter of before against after
  --split DAY       rank on the window before DAY, then evaluate the same wallets from DAY to to_date:
                    each row gains the after-split summary, and the output ends with Spearman's rank
                    correlation of the sort metric before and after (wallets with --min-deals deals in
                    both) and the after-split result of copying the before-split top N together
                    (csv: that ending goes to standard error; jsonl: a last line {"out_of_sample": …})
  --threads N       threads copying the wallets, this one included (default: the cores, at
                    most ${DEFAULT_THREADS_AT_MOST}: here ${defaultRankThreads()}); 1: this thread only. The threads
                    read a JSON tape in parts when the rows are made in double words (docs/rank.md);
                    otherwise each other thread reads the tape itself: memory for a copy of the
                    tape each. The same output
  --queue URL       copy the wallets on queue workers instead (copysim worker, on any number of
                    machines sharing the tape's path): the same output
  --chunk N         with --queue: wallets a job (default: about a hundred jobs, at most 100)

${TAPE_HEADER_HELP}

Exit codes: 0 printed; 1 a file, a wallet or an option cannot be used, or (--queue) Redis does not
answer or a job fails; 2 the request fails validation (its 400 body on standard output).`;

function whole(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag} must be a whole number ≥ 0, not "${text}"`);
  return Number(text);
}

/** An amount of USD above 0, as `--balance` takes it. */
function usd(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (!(n > 0 && Number.isFinite(n))) {
    throw new UsageError(`${flag} takes an amount of USD above 0, such as 1000, not "${text}"`);
  }
  return n;
}

function readWallets(path: string): string[] {
  return readText(path, 'wallets')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

const RANK_FLAGS = {
  tape: { type: 'string' },
  request: { type: 'string' },
  wallets: { type: 'string' },
  'sort-by': { type: 'string' },
  'min-deals': { type: 'string' },
  top: { type: 'string' },
  format: { type: 'string', default: 'table' },
  split: { type: 'string' },
  options: { type: 'string' },
  queue: { type: 'string' },
  chunk: { type: 'string' },
  threads: { type: 'string' },
  html: { type: 'string' },
  balance: { type: 'string' },
  ...TAPE_HEADER_FLAGS,
} as const;

export async function rankCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: RANK_FLAGS, strict: true });
  if (values.tape === undefined) throw new UsageError('rank needs --tape FILE');
  if (values.request === undefined) throw new UsageError('rank needs --request FILE');
  const sortBy = (values['sort-by'] ?? 'pnl_total') as RankMetric;
  if (!RANK_METRICS.includes(sortBy))
    throw new UsageError(`--sort-by takes one of ${RANK_METRICS.join(', ')}; "${values['sort-by']}" is none`);
  const format = values.format as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format takes table, csv or jsonl, not "${values.format}"`);
  const minDeals = whole('--min-deals', values['min-deals']);
  const top = whole('--top', values.top);
  const chunk = whole('--chunk', values.chunk);
  if (chunk === 0) throw new UsageError('--chunk must be a whole number ≥ 1, not "0"');
  if (values.queue === undefined && chunk !== undefined) throw new UsageError('--chunk needs --queue');
  const threads = whole('--threads', values.threads);
  if (threads === 0) throw new UsageError('--threads must be a whole number ≥ 1, not "0"');
  if (values.queue !== undefined && threads !== undefined)
    throw new UsageError('--threads and --queue do not go together: the workers of a queue set their own threads');
  const balance = usd('--balance', values.balance);
  const wallets = values.wallets === undefined ? undefined : readWallets(values.wallets);
  const request = readJson(values.request, 'request');
  const engineOptions = values.options === undefined ? {} : (readJson(values.options, 'options') as object);
  const tapePath = values.tape;
  const header = tapeHeaderOptions(values, tapePath);
  const queue = values.queue;
  // Here and on helper threads, which start reading the tape now, as this thread reads it too
  // (a list of wallets that fits one walk needs none); with --queue, a walk a chunk on the workers.
  let helpers: RankHelpers | null = null;
  let runner: CopyRunner;
  if (queue === undefined) {
    const onlyOneWalk = wallets !== undefined && wallets.length <= WALLETS_A_WALK;
    const count = onlyOneWalk ? 0 : (threads ?? defaultRankThreads()) - 1;
    // Rows made in double words: the helpers copy from this thread's rows and read no tape but
    // their part of it, when it is read as rows by parts (a JSON tape in time order).
    // (A balance, as `strategy.starting_balance_usd`, is copied in double words too.)
    const inWords = copyInWordsApplies(request, engineOptions);
    const byParts = inWords && values.split === undefined && !hasHeaderOptions(header);
    const plan = byParts ? planTapeParts(tapePath, count + 1) : null;
    helpers = RankHelpers.start(tapePath, header, count, inWords, WALLETS_A_WALK, plan);
    runner = helpers.runner;
  } else {
    runner = queueRunner(tapePath, {
      url: queue,
      tapeHeader: header,
      onNotice: (line: string) => io.err(`${io.errIsTty ? '\r\x1b[2K' : ''}copysim rank: ${line}\n`),
      ...(chunk !== undefined ? { chunkSize: chunk } : {}),
    });
  }
  const bar = progressBar(io, 'rank', 'wallets');
  const options = {
    sortBy,
    engineOptions,
    onProgress: (done: number, total: number) => bar.update(done, total),
    ...(minDeals !== undefined ? { minDeals } : {}),
    ...(top !== undefined ? { top } : {}),
    ...(wallets !== undefined ? { wallets } : {}),
    ...(balance !== undefined ? { balance } : {}),
  };
  const html = values.html;
  try {
    const tape = (await helpers?.rowsTape()) ?? indexTape(readTapeFile(tapePath, header));
    if (values.split === undefined) {
      const rows = await rankWith(runner, tape, request, options);
      bar.finish();
      if (html !== undefined) writeHtmlFile(html, rankReportHtml(`copysim rank: ${values.request}`, rows));
      printRanking(io, rows, format, sortBy);
    } else {
      const check = await outOfSampleWith(runner, tape, request, values.split, options);
      bar.finish();
      const title = `copysim rank: ${values.request}, before ${values.split}`;
      if (html !== undefined) writeHtmlFile(html, rankReportHtml(title, check.rows, check));
      printOutOfSample(io, check, format, sortBy);
    }
  } catch (e) {
    bar.finish();
    if (e instanceof RequestError) {
      io.out(formatJson(e.body, false));
      return EXIT_REQUEST;
    }
    throw withFlag(e);
  } finally {
    await helpers?.close();
  }
  return EXIT_OK;
}

function printRanking(io: CliIo, rows: readonly RankedWallet[], format: Format, sortBy: RankMetric): void {
  if (format === 'table') io.out(formatRankTable(rows, sortBy));
  else if (format === 'csv') io.out(formatRankCsv(rows));
  else io.out(rows.map((r) => formatJson(r, false)).join(''));
}

/** The rows, then the verdict: csv leaves standard output to the rows, jsonl ends with it as a line. */
function printOutOfSample(io: CliIo, check: OutOfSample, format: Format, sortBy: RankMetric): void {
  if (format === 'table') io.out(formatRankTable(check.rows, sortBy) + formatOutOfSample(check));
  else if (format === 'csv') {
    io.out(formatRankCsv(check.rows));
    io.err(formatOutOfSample(check));
  } else {
    const { rows, ...rest } = check;
    io.out(rows.map((r) => formatJson(r, false)).join('') + formatJson({ out_of_sample: rest }, false));
  }
}

/** The library names its option (`split …`); the command line names the flag that set it. */
function withFlag(e: unknown): unknown {
  if (e instanceof InputError && e.location.source === 'split' && e.message.startsWith('split ')) {
    return new InputError(`--${e.message}`, e.location);
  }
  return e;
}

const SUMMARY_KEYS = SimulationSummarySchema.keyof().options;

/** One line a wallet, a column per metric; with a split, the after-split summary's columns too (`after_…`). */
export function formatRankCsv(rows: readonly (RankedWallet | SplitRow)[]): string {
  const split = rows.length > 0 && 'after' in rows[0]!;
  const header = [
    'wallet',
    ...RANK_METRICS,
    ...(split ? ['after_deals', ...SUMMARY_KEYS.map((k) => `after_${k}`)] : []),
  ];
  const lines = rows.map((r) => {
    const cells: (string | number | null)[] = [r.wallet, ...RANK_METRICS.map((m) => metricOf(r, m))];
    if ('after' in r) cells.push(r.after_deals, ...SUMMARY_KEYS.map((k) => r.after[k]));
    return cells.map((c) => (c === null ? '' : String(c))).join(',');
  });
  return `${[header.join(','), ...lines].join('\n')}\n`;
}

/**
 * USD with two decimals and thousands separators, as `toLocaleString('en-US', …)` writes it: one
 * formatter for every cell (each `toLocaleString` call makes its own, 1.1 s for the 40,000 cells
 * of a 10,100-wallet table).
 */
const USD = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The rows as a table a person reads: the copier's result beside the wallet's own. */
export function formatRankTable(rows: readonly (RankedWallet | SplitRow)[], sortBy: RankMetric): string {
  if (rows.length === 0) return 'No wallet to rank: none has a swap in the window (or passes --min-deals).\n';
  const split = 'after' in rows[0]!;
  const balance = rows[0]!.copier.starting_balance;
  const money = (v: number): string => USD.format(v);
  const table = [
    [
      ...['#', 'wallet', 'copy PnL', 'copy ROI %', 'deals', 'win %', 'PF', 'max DD', 'capital'],
      ...(balance === null ? [] : ['cash skips']),
      ...['own PnL', 'own ROI %'],
      ...(split ? ['after PnL', 'after ROI %'] : []),
    ],
    ...rows.map((r, i) => [
      String(i + 1),
      shortAddress(r.wallet),
      money(r.summary.pnl_total),
      r.summary.roi_total.toFixed(1),
      String(r.deals),
      r.winrate.toFixed(0),
      r.profit_factor === null ? '-' : r.profit_factor.toFixed(2),
      money(r.max_drawdown),
      money(r.copier.capital_required),
      ...(balance === null ? [] : [String(r.copier.skipped_for_cash)]),
      money(r.own.pnl_total),
      r.own.roi_total.toFixed(1),
      ...('after' in r ? [money(r.after.pnl_total), r.after.roi_total.toFixed(1)] : []),
    ]),
  ];
  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
  const lines = table.map((row) =>
    row.map((cell, c) => (c === 1 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '),
  );
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  const skips =
    balance === null ? '' : `; cash skips: copies skipped for cash, each copier starting with ${money(balance)} USD`;
  const legend = `PF: profit factor; max DD: max drawdown, USD; capital: capital_required, USD${skips}`;
  return `Wallets ranked by the copier's ${sortBy} (${legend})\n${lines.join('\n')}\n`;
}

/** The out-of-sample verdict in a few lines. */
export function formatOutOfSample(check: OutOfSample): string {
  const rho =
    check.spearman === null ? 'not defined (fewer than two wallets, or no spread)' : check.spearman.toFixed(3);
  const top = check.top.summary;
  return [
    '',
    `Out of sample: ranked on ${check.before.from_date} → ${check.before.to_date}` +
      `, evaluated on ${check.after.from_date} → ${check.after.to_date}`,
    `  Spearman's rank correlation of ${check.sort_by},` +
      ` before against after: ${rho} (${check.spearman_wallets} wallets)`,
    top === null
      ? '  No wallet to copy after the split.'
      : `  Copying the before-split top ${check.top.wallets.length} together after the split: ` +
        `PnL ${top.pnl_total.toFixed(2)} USD, ROI ${top.roi_total.toFixed(2)} %${togetherCopier(check)}`,
    '',
  ].join('\n');
}

/** The capital copying the top wallets together needs, and with a balance the copies it skipped for cash. */
function togetherCopier(check: OutOfSample): string {
  const copier = check.top.copier;
  if (copier === null) return '';
  const capital = `, capital required ${copier.capital_required.toFixed(2)} USD`;
  return copier.starting_balance === null ? capital : `${capital}, ${copier.skipped_for_cash} copies skipped for cash`;
}
