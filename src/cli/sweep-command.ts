import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ErrorBody } from '../model/errors.js';
import { readJson, readText } from '../io/files.js';
import { writeJson } from '../io/json-stream.js';
import type { SweepResult } from '../sweep/index.js';
import { EXIT_OK, formatJson, type CliIo } from './io.js';
import { progressBar } from './progress.js';
import { UsageError } from './usage.js';
import { TAPE_HEADER_FLAGS, TAPE_HEADER_HELP, tapeHeaderOptions } from './tape-header-flags.js';

export const SWEEP_HELP =
  `copysim sweep --tape TAPE --requests REQUESTS.jsonl [--workers N] [--full DIR]` +
  ` [--options OPTIONS.json] [--html FILE]
copysim sweep --tape TAPE --requests REQUESTS.jsonl --queue redis://HOST:PORT [--chunk N]` +
  ` [--full DIR] [--options OPTIONS.json]

Runs many simulator requests over one tape: the tape is read and indexed once, the requests
are spread over worker threads. Prints one JSON line per request, in input order:
{"index", "summary"}, with "copier" after the summary when the request reports the copier's
wallet (any of its strategy members set, model 3.0), or {"index", "error"} with the 400 body for
a request that fails validation or asks for another network than the tape's; the other
requests still run.

  --tape FILE       the tape: JSON, JSONL (.jsonl) or Parquet (.parquet), held in memory
  --requests FILE   one request body (interface 4.1) a line; blank lines are skipped and
                    "index" counts the requests from 0
  --workers N       worker threads (default: the available cores; 0: this thread only)
  --full DIR        also write each whole 200 body to DIR/<index>.json (index zero-padded)
  --html FILE       also write an HTML page of the sweep: a heatmap of a summary figure (or a
                    copier figure, copier.…) over two of the settings that vary, strategy
                    members included (chosen on the page), coloured by rank so that close
                    values differ, and every run
  --options FILE    engine options as JSON, the same for every request
  --queue URL       run the requests on queue workers instead (copysim worker, on any number
                    of machines) through Redis at URL (redis://HOST:PORT, unix:///PATH): the same
                    lines. The workers read the tape at the same path (shared storage) and check
                    its SHA-256; this machine does not read it
  --chunk N         with --queue: requests a job (default: about a hundred jobs, at most 100)

${TAPE_HEADER_HELP}
With --queue the workers are sent these (their files are read here).

Exit codes: 0 every request answered (400 bodies included); 1 the tape, options or requests
file cannot be used, or the tape cannot serve a request, or (--queue) Redis does not answer or
a job fails on the workers (a message on standard error).`;

/** The requests of a JSONL file: parsed values, or the 400 body of a line that is not JSON. */
function readRequests(path: string): { requests: unknown[]; notJson: Map<number, ErrorBody> } {
  const requests: unknown[] = [];
  const notJson = new Map<number, ErrorBody>();
  readText(path, 'requests')
    .split('\n')
    .forEach((line, lineIndex) => {
      if (line.trim() === '') return;
      try {
        requests.push(JSON.parse(line));
      } catch (e) {
        const message = `line ${lineIndex + 1} is not valid JSON: ${(e as Error).message}`;
        notJson.set(requests.length, { code: 'validation_error', detail: [{ path: '', message }] });
        requests.push(null);
      }
    });
  return { requests, notJson };
}

/** Writes a whole response as one JSON line, in pieces (see `writeJson`). */
function writeResponseFile(path: string, response: unknown): void {
  const fd = openSync(path, 'w');
  try {
    writeJson(response, (text) => writeSync(fd, text));
    writeSync(fd, '\n');
  } finally {
    closeSync(fd);
  }
}

function parseWhole(flag: string, text: string | undefined, least: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < least)
    throw new UsageError(`--${flag} must be a whole number ≥ ${least}, not "${text}"`);
  return n;
}

/** A request's line: its index and summary, and its `copier` when the request reports it. */
function summaryLine({ index, summary, copier }: Extract<SweepResult, { summary: unknown }>): SweepResult {
  return copier === undefined ? { index, summary } : { index, summary, copier };
}

export async function sweepCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      tape: { type: 'string' },
      requests: { type: 'string' },
      workers: { type: 'string' },
      full: { type: 'string' },
      options: { type: 'string' },
      queue: { type: 'string' },
      chunk: { type: 'string' },
      html: { type: 'string' },
      ...TAPE_HEADER_FLAGS,
    },
    strict: true,
  });
  if (values.tape === undefined) throw new UsageError('sweep needs --tape FILE');
  const header = tapeHeaderOptions(values, values.tape);
  if (values.requests === undefined) throw new UsageError('sweep needs --requests FILE');
  const workers = parseWhole('workers', values.workers, 0);
  const chunk = parseWhole('chunk', values.chunk, 1);
  const queue = values.queue;
  if (queue !== undefined && workers !== undefined)
    throw new UsageError('--workers and --queue do not go together: the workers of a queue set their own threads');
  if (queue === undefined && chunk !== undefined) throw new UsageError('--chunk needs --queue');
  const engineOptions = values.options === undefined ? {} : (readJson(values.options, 'options') as object);
  const { requests, notJson } = readRequests(values.requests);
  const fullDir = values.full;
  if (fullDir !== undefined) mkdirSync(fullDir, { recursive: true });
  const width = String(Math.max(0, requests.length - 1)).length;

  const bar = progressBar(io, 'sweep', 'requests');
  const answered: SweepResult[] = [];
  const write = (result: SweepResult): void => {
    if (values.html !== undefined) answered.push('summary' in result ? summaryLine(result) : result);
    const error = notJson.get(result.index);
    if (error !== undefined) {
      io.out(formatJson({ index: result.index, error }, false));
    } else if ('error' in result) {
      io.out(formatJson({ index: result.index, error: result.error }, false));
    } else {
      io.out(formatJson(summaryLine(result), false));
      if (fullDir !== undefined)
        writeResponseFile(join(fullDir, `${String(result.index).padStart(width, '0')}.json`), result.response);
    }
  };
  try {
    // Each way loads only its own modules: a sweep on the queue reads no tape, and starts sooner.
    if (queue !== undefined) {
      const { sweepOnQueue } = await import('../distributed/sweep-queue.js');
      await sweepOnQueue(values.tape, requests, write, {
        url: queue,
        full: fullDir !== undefined,
        engineOptions,
        tapeHeader: header,
        onProgress: (done, total) => bar.update(done, total),
        onNotice: (line) => io.err(`${io.errIsTty ? '\r\x1b[2K' : ''}copysim sweep: ${line}\n`),
        ...(chunk !== undefined ? { chunkSize: chunk } : {}),
      });
      return EXIT_OK;
    }
    const [{ readTapeFile }, { sweepEach }, { collectYoungGeneration }] = await Promise.all([
      import('../io/read-tape.js'),
      import('../sweep/index.js'),
      import('../threads/young-collection.js'),
    ]);
    const tape = readTapeFile(values.tape, header);
    await sweepEach(tape, requests, write, {
      full: fullDir !== undefined,
      engineOptions,
      onProgress: (done, total) => bar.update(done, total),
      // With --workers 0 the walks run here, and this command is their host.
      afterWalk: collectYoungGeneration,
      ...(workers !== undefined ? { workers } : {}),
    });
  } finally {
    bar.finish();
  }
  if (values.html !== undefined) {
    const [{ sweepReportHtml }, { writeHtmlFile }] = await Promise.all([
      import('../report/html/grid-data.js'),
      import('../report/html/index.js'),
    ]);
    writeHtmlFile(values.html, sweepReportHtml(`copysim sweep: ${values.requests}`, requests, answered));
  }
  return EXIT_OK;
}
