import { parseArgs } from 'node:util';
import { diagnose } from '../diagnose/diagnose.js';
import { readJson } from '../io/files.js';
import { readTapeFile } from '../io/read-tape.js';
import { RequestError } from '../model/errors.js';
import type { CopierResultJson } from '../model/response.js';
import { DEFAULT_DELAYS, latencyCurve, type LatencyCurve } from '../sweep/latency.js';
import { EXIT_OK, EXIT_REQUEST, formatJson, type CliIo } from './io.js';
import { UsageError } from './usage.js';
import { TAPE_HEADER_FLAGS, TAPE_HEADER_HELP, tapeHeaderOptions } from './tape-header-flags.js';
import { latencyReportHtml } from '../report/html/grid-data.js';
import { writeHtmlFile } from '../report/html/index.js';

export const LATENCY_HELP =
  `copysim latency --tape TAPE --request REQUEST [--delays ${DEFAULT_DELAYS.join(',')}]` +
  ` [--options OPTIONS] [--json] [--html FILE]

Runs the request at each copy delay (strategy.copy_delay_seconds) over one indexed tape and
prints how much of the zero-delay PnL a copier keeps as its bot lands later: delay, pnl_total,
roi_total, follower trades, deals and the share of the zero-delay PnL kept, and the first delay
at which half of it is gone. The request's own strategy is kept; only the delay varies. When it
reports the copier's wallet (any of its strategy members set, model 3.0), each delay also shows
the failed transactions and their fees, the sandwiched trades and their loss, and the copies
skipped for cash (--json: each point's "copier").

  --tape FILE      the tape: JSON, JSONL (.jsonl) or Parquet (.parquet)
  --request FILE   the simulator request (interface 4.1), with or without a strategy
  --delays LIST    delays in whole seconds, comma-separated (default ${DEFAULT_DELAYS.join(',')})
  --options FILE   engine options as JSON
  --json           print a JSON array instead, one object a delay (delay_seconds first)
  --html FILE      also write the curve as an HTML page (a chart and the table)

${TAPE_HEADER_HELP}

Exit codes: 0 printed; 1 a file or the delays cannot be used; 2 the request fails validation
(its 400 body on standard output).`;

function parseDelays(text: string | undefined): readonly number[] {
  if (text === undefined) return DEFAULT_DELAYS;
  return text.split(',').map((part) => {
    const d = /^\s*\d+\s*$/.test(part) ? Number(part) : NaN;
    if (!(d >= 0 && d <= 86_400))
      throw new UsageError(`--delays takes whole seconds from 0 to 86400, comma-separated; "${part}" is not one`);
    return d;
  });
}

/** The copier's columns: failed attempts and their fees, sandwiches and their loss, copies skipped for cash. */
const COPIER_HEADERS = ['failed', 'failed fees', 'sandwiched', 'sandwich loss', 'cash skips'];

/** A point's copier figures, as {@link COPIER_HEADERS} name them. */
function copierCells(copier: CopierResultJson): string[] {
  return [
    String(copier.failed_transactions),
    money(copier.failed_transaction_fees),
    String(copier.sandwiched_trades),
    money(copier.sandwich_loss),
    String(copier.skipped_for_cash),
  ];
}

function money(value: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/**
 * The curve as a table a person reads; with the copier's wallet, what the delay costs in failed
 * transactions, sandwiches and copies skipped for cash too.
 */
export function formatLatencyTable(curve: LatencyCurve): string {
  const wallet = curve.points.some((p) => p.copier !== undefined);
  const rows = [
    ['delay (s)', 'pnl_total', 'roi_total %', 'trades', 'deals', 'PnL kept', ...(wallet ? COPIER_HEADERS : [])],
    ...curve.points.map((p) => [
      String(p.delay_seconds),
      money(p.pnl_total),
      p.roi_total.toFixed(2),
      String(p.trades),
      String(p.deals),
      p.pnl_kept === null ? '-' : `${(100 * p.pnl_kept).toFixed(1)} %`,
      ...(p.copier === undefined ? [] : copierCells(p.copier)),
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const lines = rows.map((r) =>
    r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '),
  );
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  const verdict =
    curve.zero_delay_pnl <= 0
      ? `The zero-delay PnL is ${money(curve.zero_delay_pnl)}: there is no profit to keep, so no share is given.`
      : curve.half_pnl_gone_at === null
        ? `Half of the zero-delay PnL (${money(curve.zero_delay_pnl)}) is still kept at every delay tried.`
        : `Half of the zero-delay PnL (${money(curve.zero_delay_pnl)})` +
          ` is gone at a delay of ${curve.half_pnl_gone_at} s.`;
  return `${lines.join('\n')}\n\n${verdict}\n`;
}

export function latencyCommand(args: string[], io: CliIo): number {
  const { values } = parseArgs({
    args,
    options: {
      tape: { type: 'string' },
      request: { type: 'string' },
      delays: { type: 'string' },
      options: { type: 'string' },
      json: { type: 'boolean', default: false },
      html: { type: 'string' },
      ...TAPE_HEADER_FLAGS,
    },
    strict: true,
  });
  if (values.tape === undefined) throw new UsageError('latency needs --tape FILE');
  const header = tapeHeaderOptions(values, values.tape);
  if (values.request === undefined) throw new UsageError('latency needs --request FILE');
  const delays = parseDelays(values.delays);
  const request = readJson(values.request, 'request');
  const options = values.options === undefined ? {} : (readJson(values.options, 'options') as object);
  const tape = readTapeFile(values.tape, header);
  let curve: LatencyCurve;
  try {
    curve = latencyCurve(tape, request, { delays, options });
  } catch (e) {
    if (e instanceof RequestError) {
      io.out(formatJson(e.body, false));
      return EXIT_REQUEST;
    }
    throw e;
  }
  // The warnings of the request at its own settings (a followed wallet with no swap, …).
  for (const w of diagnose(tape, request, { options })) io.err(`copysim latency: warning: ${w.message}\n`);
  if (values.html !== undefined)
    writeHtmlFile(values.html, latencyReportHtml(`copysim latency: ${values.request}`, curve));
  io.out(values.json ? formatJson(curve.points, true) : formatLatencyTable(curve));
  return EXIT_OK;
}
