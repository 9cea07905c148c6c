import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { formatPath, InputError } from '../model/errors.js';
import { parseSimulatorRequest, type SimulatorRequest } from '../model/request.js';
import { SimulatorResponseSchema, type SimulatorResponse } from '../model/response.js';
import { readJson } from '../io/files.js';
import { readTapeFile } from '../io/read-tape.js';
import { simulationReportHtml, writeHtmlFile } from '../report/html/index.js';
import { addressOfOtherNetwork, requestMismatches } from '../report/response-match.js';
import { assembleResponse } from '../report/response.js';
import { simulateParts } from '../simulate.js';
import type { IndexedTape } from '../engine/tape-index.js';
import { EXIT_OK, type CliIo } from './io.js';
import { UsageError } from './usage.js';
import { TAPE_HEADER_FLAGS, TAPE_HEADER_HELP, tapeHeaderOptions } from './tape-header-flags.js';

export const REPORT_HELP = `copysim report --response RESPONSE.json [--request REQUEST.json] [--tape TAPE]
                      [--options OPTIONS.json] [--out FILE.html]

Draws a simulator response (the output of "copysim simulate") as one HTML file that opens in
any browser, offline: the summary, risk figures and settings, PnL, fees and drawdown over time,
the copier's wallet and each leader's share (when the response has them), every deal's PnL by
how it closed, the deals table (sortable, filterable, a deal's trades on a click) and, with the
tape, the token's price over each deal's life with the trades marked.

  --response FILE   the response JSON (the 200 body of POST /wallets/simulator)
  --request FILE    the request that produced it: its settings are shown beside the summary and
                    its wallets are the leaders marked on the price charts
  --tape FILE       the tape it was simulated on (JSON, JSONL or Parquet): for the price charts
  --options FILE    the engine options it was simulated with, if any (see copysim simulate)
  --out FILE        where to write the report (default: report.html)

${TAPE_HEADER_HELP}

A response that does not match the request (another network, trades outside its window, members
its strategy does not ask for, settings its trades contradict) is refused. Given both the
request and the tape, the request is run again: a response that differs from that run is
refused, and the run gives the copier's cash and equity chart, which the response does not
hold (without them the report says so).

Exit codes: 0 written; 1 a file cannot be used or the response does not match the request.

"copysim simulate ... --html FILE" writes the same report straight from a simulation.`;

export function reportCommand(args: string[], io: CliIo): number {
  const { values } = parseArgs({
    args,
    options: {
      response: { type: 'string' },
      request: { type: 'string' },
      tape: { type: 'string' },
      options: { type: 'string' },
      out: { type: 'string', default: 'report.html' },
      ...TAPE_HEADER_FLAGS,
    },
    strict: true,
  });
  const header = tapeHeaderOptions(values, values.tape);
  if (values.response === undefined)
    throw new UsageError('report needs --response FILE (the output of copysim simulate)');
  const response = readResponse(values.response);
  const request = values.request === undefined ? null : readRequest(values.request);
  const tape = values.tape === undefined ? null : readTapeFile(values.tape, header);
  if (tape !== null && request !== null && tape.network !== request.network) {
    // A request of another network than the tape's would mark nobody: say so instead.
    throw new InputError(
      `the request is for ${request.network} but the tape ${values.tape} is ${tape.network}` +
        `: give the tape the response was simulated on`,
      { source: values.tape! },
    );
  }
  const other = tape === null ? null : addressOfOtherNetwork(response, tape.network);
  if (other !== null) {
    throw new InputError(
      `the tape ${values.tape} is ${tape!.network}, but the response ${values.response} holds the address ${other}: ` +
        'give the tape the response was simulated on',
      { source: values.response },
    );
  }
  if (request !== null) refuseMismatch(values.response, values.request!, requestMismatches(response, request));
  const options = values.options === undefined ? {} : (readJson(values.options, 'options') as object);
  const copierPoints = tape !== null && request !== null ? runAgain(values, response, tape, request, options) : null;
  const title = titleOf(values.response);
  return write(io, values.out, simulationReportHtml({ title, response, request, tape, copierPoints }));
}

/** Refuses a response that the request contradicts, naming the first few reasons. */
function refuseMismatch(responseFile: string, requestFile: string, problems: readonly string[]): void {
  if (problems.length === 0) return;
  const more = problems.length > 3 ? `; and ${problems.length - 3} more` : '';
  throw new InputError(
    `the response ${responseFile} does not match the request ${requestFile}: ` +
      `${problems.slice(0, 3).join('; ')}${more}. Give the request it was made from`,
    { source: responseFile },
  );
}

/**
 * Runs the request over the tape again: a response that differs from the run is refused (it was
 * made from other settings, another tape or other options); the run gives the copier's points.
 */
function runAgain(
  files: { response?: string; request?: string; tape?: string },
  response: SimulatorResponse,
  tape: IndexedTape,
  request: SimulatorRequest,
  options: object,
): readonly number[] | null {
  const parts = simulateParts(tape, request, options, { copierPoints: true });
  const difference = firstDifference(response, assembleResponse(parts));
  if (difference !== null) {
    throw new InputError(
      `the response ${files.response} is not what the request ${files.request} gives on the tape ${files.tape}: ` +
        `${difference}. Give the request, the tape and the --options it was made from`,
      { source: files.response! },
    );
  }
  return parts.copierPoints;
}

/** Where two JSON values first differ (`summary.pnl_total: 12.5 in the response, 13 in a run`), or null. */
function firstDifference(given: unknown, run: unknown, path = ''): string | null {
  const shown = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v).slice(0, 60));
  const differ = `${path || '(top level)'}: ${shown(given)} in the response, ${shown(run)} in a run`;
  if (typeof given !== 'object' || given === null || typeof run !== 'object' || run === null) {
    return Object.is(given, run) ? null : differ;
  }
  if (Array.isArray(given) !== Array.isArray(run)) return differ;
  if (Array.isArray(given) && Array.isArray(run) && given.length !== run.length) {
    return `${path}: ${given.length} items in the response, ${run.length} in a run`;
  }
  const keys = new Set([...Object.keys(given), ...Object.keys(run)]);
  for (const key of keys) {
    const inner = Array.isArray(given) ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
    const at = (value: object): unknown => (value as Record<string, unknown>)[key];
    const found = firstDifference(at(given), at(run), inner);
    if (found !== null) return found;
  }
  return null;
}

function write(io: CliIo, file: string, html: string): number {
  writeHtmlFile(file, html);
  io.out(`report written to ${file} (${(html.length / 1e6).toFixed(1)} MB): open it in a browser\n`);
  return EXIT_OK;
}

function titleOf(responseFile: string): string {
  return `copysim simulation: ${basename(responseFile)}`;
}

/** Reads and checks a response file; a wrong one is named with the first problems and their paths. */
export function readResponse(file: string): SimulatorResponse {
  const checked = SimulatorResponseSchema.safeParse(readJson(file, 'response'));
  if (checked.success) return checked.data;
  const problems = checked.error.issues.slice(0, 3).map((i) => `${formatPath(i.path) || '(top level)'}: ${i.message}`);
  const more = checked.error.issues.length > 3 ? `; and ${checked.error.issues.length - 3} more` : '';
  throw new InputError(
    `response file ${file} is not a simulator response (the output of copysim simulate): ${problems.join('; ')}${more}`,
    { source: file },
  );
}

function readRequest(file: string): SimulatorRequest {
  const parsed = parseSimulatorRequest(readJson(file, 'request'));
  if (parsed.success) return parsed.data;
  throw new InputError(`request file ${file} fails validation: ${JSON.stringify(parsed.error)}`, { source: file });
}
