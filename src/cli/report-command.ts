import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { formatPath, InputError } from '../model/errors.js';
import { parseSimulatorRequest, type SimulatorRequest } from '../model/request.js';
import { SimulatorResponseSchema, type SimulatorResponse } from '../model/response.js';
import { readJson } from '../io/files.js';
import { readTapeFile } from '../io/read-tape.js';
import { simulationReportHtml, writeHtmlFile } from '../report/html/index.js';
import { EXIT_OK, type CliIo } from './io.js';
import { UsageError } from './usage.js';

export const REPORT_HELP = `copysim report --response RESPONSE.json [--request REQUEST.json] [--tape TAPE] [--out FILE.html]

Draws a simulator response (the output of "copysim simulate") as one HTML file that opens in
any browser, offline: the summary and settings, PnL, fees and drawdown over time, every deal's
PnL by how it closed, the deals table (sortable, filterable, a deal's trades on a click) and,
with the tape, the token's price over each deal's life with the trades marked.

  --response FILE   the response JSON (the 200 body of POST /wallets/simulator)
  --request FILE    the request that produced it: its settings are shown beside the summary and
                    its wallets are the leaders marked on the price charts
  --tape FILE       the tape it was simulated on (JSON, JSONL or Parquet): for the price charts
  --out FILE        where to write the report (default: report.html)

"copysim simulate ... --html FILE" writes the same report straight from a simulation.`;

export function reportCommand(args: string[], io: CliIo): number {
  const { values } = parseArgs({
    args,
    options: { response: { type: 'string' }, request: { type: 'string' }, tape: { type: 'string' }, out: { type: 'string', default: 'report.html' } },
    strict: true,
  });
  if (values.response === undefined) throw new UsageError('report needs --response FILE (the output of copysim simulate)');
  const response = readResponse(values.response);
  const request = values.request === undefined ? null : readRequest(values.request);
  const tape = values.tape === undefined ? null : readTapeFile(values.tape);
  if (tape !== null && request !== null && tape.network !== request.network) {
    // A request of another network than the tape's would mark nobody: say so instead.
    throw new InputError(`the request is for ${request.network} but the tape ${values.tape} is ${tape.network}: give the tape the response was simulated on`, { source: values.tape! });
  }
  return write(io, values.out, simulationReportHtml({ title: titleOf(values.response), response, request, tape }));
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
  throw new InputError(
    `response file ${file} is not a simulator response (the output of copysim simulate): ${problems.join('; ')}${checked.error.issues.length > 3 ? `; and ${checked.error.issues.length - 3} more` : ''}`,
    { source: file },
  );
}

function readRequest(file: string): SimulatorRequest {
  const parsed = parseSimulatorRequest(readJson(file, 'request'));
  if (parsed.success) return parsed.data;
  throw new InputError(`request file ${file} fails validation: ${JSON.stringify(parsed.error)}`, { source: file });
}
