import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { InputError } from '../model/errors.js';
import { parseSimulatorRequest, type Network } from '../model/request.js';
import { formatTextReport } from '../report/text-report.js';
import { simulationReportHtml, writeHtmlFile } from '../report/html/index.js';
import { simulateParts } from '../simulate.js';
import { assembleResponse } from '../report/response.js';
import { readJson } from '../io/files.js';
import { readTapeFile } from '../io/read-tape.js';
import { EXIT_OK, formatJson, type CliIo } from './io.js';
import { UsageError } from './usage.js';

export const EXAMPLE_HELP = `copysim example [--network sol|eth] [--out DIR]

Simulates the bundled example (fixtures/example: a Solana and an Ethereum tape of a few days
of pump-and-dump trading, each with a request following its leaders), prints a readable report
of each run and writes each full response (the 200 body of POST /wallets/simulator) to
DIR/example-NETWORK.json and its HTML report (charts and deals; open it in a browser) to
DIR/example-NETWORK.html. This is what "npm start" runs.

  --network sol|eth   run one example only (default: both)
  --out DIR           where to write the responses and reports (default: out)`;

const NETWORKS: readonly Network[] = ['sol', 'eth'];

/**
 * The folder of the bundled example, found from this module's own location, so the command
 * works from any working directory, from `src/` (tests) and from `dist/` (the installed CLI).
 */
export function bundledExampleDir(): string {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, 'fixtures', 'example');
    if (existsSync(join(candidate, 'tape-sol.json'))) return candidate;
    if (dirname(dir) === dir) {
      throw new InputError(`the bundled example is missing: no fixtures/example/tape-sol.json above ${start}`, {
        source: 'fixtures/example',
      });
    }
  }
}

export function exampleCommand(args: string[], io: CliIo): number {
  const { values } = parseArgs({
    args,
    options: { network: { type: 'string' }, out: { type: 'string', default: 'out' } },
    strict: true,
  });
  const network = values.network;
  if (network !== undefined && !NETWORKS.includes(network as Network)) {
    throw new UsageError(`--network must be sol or eth, not "${network}"`);
  }
  const dir = bundledExampleDir();
  const optionsFile = join(dir, 'options.json');
  const options = existsSync(optionsFile) ? (readJson(optionsFile, 'options') as object) : {};
  const outDir = values.out;

  for (const net of network === undefined ? NETWORKS : [network as Network]) {
    const requestFile = join(dir, `request-${net}.json`);
    const parsed = parseSimulatorRequest(readJson(requestFile, 'request'));
    if (!parsed.success) {
      throw new InputError(`${requestFile}: the bundled request is invalid: ${JSON.stringify(parsed.error)}`, {
        source: requestFile,
      });
    }
    const tape = readTapeFile(join(dir, `tape-${net}.json`));
    const parts = simulateParts(tape, parsed.data, options, { copierPoints: true });
    const response = assembleResponse(parts);
    const copierPoints = parts.copierPoints;
    const outFile = join(outDir, `example-${net}.json`);
    writeResponse(outFile, formatJson(response, true));
    const htmlFile = join(outDir, `example-${net}.html`);
    const title = `copysim example: ${net} (fixtures/example/tape-${net}.json)`;
    writeHtmlFile(htmlFile, simulationReportHtml({ title, response, request: parsed.data, tape, copierPoints }));
    io.out(formatTextReport(response, parsed.data, { title: `== ${title} ==`, copierPoints }));
    io.out(`\nfull response written to ${outFile}\nHTML report written to ${htmlFile}: open it in a browser\n\n`);
  }
  return EXIT_OK;
}

function writeResponse(file: string, text: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  } catch (e) {
    throw new InputError(`cannot write ${file}: ${(e as Error).message}`, { source: file });
  }
}
