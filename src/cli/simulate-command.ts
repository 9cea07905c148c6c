import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import {
  dealsOf,
  diagnose,
  outcomeOf,
  TapeFactsCollector,
  tradeWarnings,
  warningsOf,
  withSkipLog,
  type Warning,
} from '../diagnose/index.js';
import { simulateParts } from '../simulate.js';
import { simulateJsonlFileParts } from '../io/jsonl-tape.js';
import { isParquetPath } from '../io/parquet/format.js';
import { simulateParquetFileParts } from '../io/parquet/simulate.js';
import { startResponseTexts, writeResponseParts } from '../io/json-stream.js';
import { ResponseTexts } from '../io/response-texts.js';
import { assembleResponse, type ResponseParts } from '../report/response.js';
import { formatTextReport } from '../report/text-report.js';
import { parseSimulatorRequest, requestWindow, type SimulatorRequest } from '../model/request.js';
import type { ErrorBody } from '../model/errors.js';
import { isJsonlPath, readTapeFile } from '../io/read-tape.js';
import { simulateJsonFileStreamed } from '../io/json-tape/simulate.js';
import { streamsJsonTape } from './early-threads.js';
import type { SwapWatcher } from '../io/group-replay.js';
import type { MarketPrices } from '../diagnose/market-prices.js';
import type { IndexedTape } from '../engine/tape-index.js';
import { readJson, readText } from '../io/files.js';
import { EXIT_INPUT, EXIT_OK, EXIT_REQUEST, formatJson, type CliIo } from './io.js';
import { progressBar, type Progress } from './progress.js';
import { simulationReportHtml, writeHtmlFile } from '../report/html/index.js';
import { UsageError } from './usage.js';
import { TAPE_HEADER_FLAGS, TAPE_HEADER_HELP, tapeHeaderOptions } from './tape-header-flags.js';
import type { TapeHeaderOptions } from '../io/parquet/header.js';

export const SIMULATE_HELP =
  `copysim simulate --tape TAPE --request REQUEST.json [--options OPTIONS.json]` +
  ` [--pretty | --report] [--html FILE] [--strict]
                  [--network sol|eth] [--tokens FILE] [--native-prices FILE]

Replays TAPE for the simulator request and prints the 200 body of POST /wallets/simulator.

  --tape FILE       the tape: one JSON file (streamed while a second thread parses its swaps
                    when they are in time order and "swaps" is its last member; else read
                    whole), or JSONL (name ending in .jsonl: a header line
                    {"network","tokens","native_prices"}, then one swap a line, in
                    non-decreasing time; it is streamed, never held in memory), or Parquet
                    (name ending in .parquet, written by copysim convert or an import; read a
                    row group at a time)
  --request FILE    the request body (interface 4.1) as JSON
  --options FILE    engine options as JSON: bot_fee_percent, base_fee_native {sol, eth},
                    unknown_liquidity_slippage_percent (missing names take the defaults)
  --pretty          indent the JSON output
  --report          print a readable report instead of the JSON: the inputs, the summary, the
                    best deals, the deals closed by each rule, and with the strategy's
                    report_skipped the leader swaps not copied, counted by reason
  --html FILE       also write the run as an HTML report that opens offline in a browser
                    (charts, the deals table, each deal's trades on the token's price; a
                    streamed JSONL or Parquet tape is not kept in memory: no price charts)
  --strict          treat the warnings as errors: print them and exit 1, without the response

${TAPE_HEADER_HELP}

Warnings (on standard error, the output unchanged): a followed wallet with no swap in the tape
or none in the window, a window beside the tape's days, an empty tape, no follower trade at
all (with the reasons). See docs/errors.md.

Exit codes: 0 the response on standard output; 2 the request fails validation (the 400 body
{"code","detail"} on standard output, and one line on standard error); 1 the tape or options
cannot be used, or --strict and a warning (a message on standard error).`;

/** The command line of `copysim simulate`. */
interface SimulateFlags {
  readonly tape: string;
  readonly request: string;
  readonly options?: string;
  readonly pretty: boolean;
  readonly report: boolean;
  readonly strict: boolean;
  readonly html?: string;
  /** The header of a Parquet tape another program wrote. */
  readonly header: TapeHeaderOptions;
}

function parseSimulateFlags(args: string[]): SimulateFlags {
  const { values } = parseArgs({
    args,
    options: {
      tape: { type: 'string' },
      request: { type: 'string' },
      options: { type: 'string' },
      pretty: { type: 'boolean', default: false },
      report: { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
      html: { type: 'string' },
      ...TAPE_HEADER_FLAGS,
    },
    strict: true,
  });
  if (values.tape === undefined) throw new UsageError('simulate needs --tape FILE');
  if (values.request === undefined) throw new UsageError('simulate needs --request FILE');
  if (values.pretty && values.report) {
    throw new UsageError('--pretty and --report are two different outputs: choose one');
  }
  const { network: _network, tokens: _tokens, 'native-prices': _nativePrices, ...flags } = values;
  return { ...flags, tape: values.tape, request: values.request, header: tapeHeaderOptions(values, values.tape) };
}

/** The request as sent (for the engine) and as validated, and the engine options. */
interface SimulateInputs {
  readonly request: unknown;
  readonly parsed: SimulatorRequest;
  readonly options: object;
}

/**
 * Reads the request, then the options. Undefined when the request is not valid JSON or fails
 * validation: its 400 body is then printed, and the options are not read.
 */
function readInputs(flags: SimulateFlags, io: CliIo): SimulateInputs | undefined {
  const requestText = readText(flags.request, 'request');
  let request: unknown;
  try {
    request = JSON.parse(requestText);
  } catch (e) {
    const message = `the request is not valid JSON: ${(e as Error).message}`;
    refused(flags, { code: 'validation_error', detail: [{ path: '', message }] }, io);
    return undefined;
  }
  const parsed = parseSimulatorRequest(request);
  if (!parsed.success) {
    refused(flags, parsed.error, io);
    return undefined;
  }
  const options = flags.options === undefined ? {} : (readJson(flags.options, 'options') as object);
  return { request, parsed: parsed.data, options };
}

/**
 * A refused request: its 400 body on standard output (where the response would go), and one line
 * on standard error, so that `simulate … > out.json` does not fail in silence.
 */
function refused(flags: SimulateFlags, body: ErrorBody, io: CliIo): void {
  io.out(formatJson(body, flags.pretty));
  const problems =
    typeof body.detail === 'string' ? [body.detail] : body.detail.map((d) => `${d.path || '(request)'}: ${d.message}`);
  const more = problems.length <= 1 ? '' : ` (and ${problems.length - 1} more)`;
  io.err(
    `copysim simulate: the request ${flags.request} is refused (${body.code}): ${problems[0] ?? ''}${more}; ` +
      'the 400 body is on standard output\n',
  );
}

/** A finished run: the response in parts, its warnings, and the tape when it was held in memory. */
interface SimulationRun {
  readonly parts: ResponseParts;
  readonly warnings: Warning[];
  /** The tape in memory, for the HTML report's price charts (a streamed tape is not kept). */
  readonly tapeInMemory: IndexedTape | null;
  /** The deals' trades being printed on a thread of their own, for the compact JSON output. */
  readonly tradeTexts: ResponseTexts | null;
}

/** Starts printing the trades of a run's response beside the rest, when the output is its compact JSON. */
type TextsStarter = (parts: ResponseParts) => ResponseTexts | null;

/** A streamed run: the response, and the market its trades are checked against when it was gathered. */
interface StreamedRun {
  readonly parts: ResponseParts;
  readonly market: MarketPrices | null;
}

/** Simulates a request over the tape as it streams by, showing each swap to `onSwap`; null: it cannot stream. */
type Streamer = (request: unknown, onSwap?: SwapWatcher) => StreamedRun | null;

/** A JSONL or Parquet tape through the engine, streamed; memory, not time, is the point. */
function streamFile(tape: string, header: TapeHeaderOptions, options: object, bar: Progress): Streamer {
  // Let V8's old generation grow by a quarter after each full collection instead of its
  // default (about double), so garbage is collected sooner. On a 10M-swap stream it cuts the
  // peak from ~920 to ~580 MB for ~15 % more time.
  setFlagsFromString('--heap-growing-percent=25');
  return (request, onSwap) => ({
    parts: isParquetPath(tape)
      ? simulateParquetFileParts(tape, request, options, (done, total) => bar.update(done, total), onSwap, header)
      : simulateJsonlFileParts(tape, request, options, {
          onProgress: (read, size) => bar.update(megabytes(read), megabytes(size)),
          ...(onSwap !== undefined ? { onSwap } : {}),
        }),
    // Without the tape in memory the trades' prices are not checked against the market's.
    market: null,
  });
}

/** A JSON tape in time order, streamed while another thread parses it (null: not such a tape). */
function streamJsonFile(tape: string, options: object, bar: Progress): Streamer {
  return (request, onSwap) =>
    simulateJsonFileStreamed(
      tape,
      request,
      options,
      (read, size) => bar.update(megabytes(read), megabytes(size)),
      onSwap,
    );
}

/** Runs a streamed simulation, gathering the facts its warnings need; null when the tape cannot stream. */
function runStreamed(stream: Streamer, inputs: SimulateInputs, startTexts: TextsStarter): SimulationRun | null {
  const { request, parsed, options } = inputs;
  const facts = new TapeFactsCollector(parsed.network, parsed, requestWindow(parsed));
  const run = stream(request, (swap, leader) => facts.add(swap, leader));
  if (run === null) return null;
  const { parts, market } = run;
  // Before the checks: the thread prints the trades while this one checks them.
  const tradeTexts = startTexts(parts);
  // Only a run without a trade needs the skip log's reasons: then the file is read again.
  const outcome = () => {
    if (parts.dealCount > 0 || parts.skipped !== null) return outcomeOf(parts);
    const again = stream(withSkipLog(parsed));
    if (again === null) throw new Error('the tape streamed once, and not the second time');
    return outcomeOf(again.parts);
  };
  const tradeChecks = tradeWarnings(dealsOf(parts), market, options);
  const warnings = [...warningsOf(facts.facts(), parsed, outcome), ...tradeChecks];
  return { parts, warnings, tapeInMemory: null, tradeTexts };
}

/**
 * Runs the simulation ({@link simulateTape}); for the compact JSON output, with the thread that
 * prints the response's bulk started ahead.
 */
function runSimulation(flags: SimulateFlags, inputs: SimulateInputs, io: CliIo): SimulationRun {
  const printsJson = !flags.report && !flags.pretty;
  const startTexts: TextsStarter = printsJson ? startResponseTexts : () => null;
  // Its start and modules while the replay runs, not after it; stopped if the run has no use for it.
  if (printsJson) ResponseTexts.prestart();
  try {
    return simulateTape(flags, inputs, io, startTexts);
  } finally {
    ResponseTexts.releaseUnused();
  }
}

/**
 * Runs the simulation over the tape file, streamed or read whole, with a progress bar. A JSON
 * tape streams when its swaps are in time order (unless the HTML report needs it in memory for
 * its price charts), and is read whole otherwise.
 */
function simulateTape(
  flags: SimulateFlags,
  inputs: SimulateInputs,
  io: CliIo,
  startTexts: TextsStarter,
): SimulationRun {
  const { tape, header } = flags;
  const streamed = isJsonlPath(tape) || isParquetPath(tape);
  const json = streamsJsonTape(tape, flags.html);
  if (streamed || json) {
    const bar = progressBar(io, 'simulate', isParquetPath(tape) ? 'swaps' : 'MB read');
    try {
      if (streamed) return runStreamed(streamFile(tape, header, inputs.options, bar), inputs, startTexts)!;
      const run = runStreamed(streamJsonFile(tape, inputs.options, bar), inputs, startTexts);
      if (run !== null) return run;
    } finally {
      bar.finish();
    }
  }
  const bar = progressBar(io, 'simulate', 'swaps');
  try {
    const whole = readTapeFile(tape);
    const parts = simulateParts(whole, inputs.request, inputs.options, {
      onProgress: (done, total) => bar.update(done, total),
      // The copier's cash and equity after each change, only for the reports that draw them.
      copierPoints: flags.html !== undefined || flags.report,
    });
    const tradeTexts = startTexts(parts);
    const warnings = diagnose(whole, inputs.parsed, { response: parts, options: inputs.options });
    return { parts, warnings, tapeInMemory: whole, tradeTexts };
  } finally {
    bar.finish();
  }
}

/** Writes the HTML report if asked, then the response as JSON (compact or indented) or as a text report. */
function writeOutputs(flags: SimulateFlags, request: SimulatorRequest, run: SimulationRun, io: CliIo): void {
  const title = `copysim simulation of ${basename(flags.tape)}`;
  // The whole response as objects, made once, only for the outputs that need it.
  const response = flags.html !== undefined || flags.report || flags.pretty ? assembleResponse(run.parts) : null;
  const copierPoints = run.parts.copierPoints;
  if (flags.html !== undefined) {
    const inputs = { title, response: response!, request, tape: run.tapeInMemory, copierPoints };
    writeHtmlFile(flags.html, simulationReportHtml(inputs));
  }
  if (flags.report) {
    io.out(formatTextReport(response!, request, { title, copierPoints }));
  } else if (flags.pretty) {
    io.out(formatJson(response!, true));
  } else {
    // In pieces, a deal at a time: a large response never sits whole in memory, as JSON
    // objects or as text.
    writeResponseParts(run.parts, io.out, undefined, run.tradeTexts);
    io.out('\n');
  }
}

export function simulateCommand(args: string[], io: CliIo): number {
  const flags = parseSimulateFlags(args);
  const inputs = readInputs(flags, io);
  if (inputs === undefined) return EXIT_REQUEST;
  const run = runSimulation(flags, inputs, io);
  for (const w of run.warnings) io.err(`copysim simulate: ${flags.strict ? 'error' : 'warning'}: ${w.message}\n`);
  if (flags.strict && run.warnings.length > 0) {
    run.tradeTexts?.stop();
    return EXIT_INPUT;
  }
  writeOutputs(flags, inputs.parsed, run, io);
  return EXIT_OK;
}

function megabytes(bytes: number): number {
  return Math.round(bytes / 1e6);
}
