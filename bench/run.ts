/**
 * The benchmark: prints a table (swaps/s, follower trades/s, ns per swap, peak RSS, ratio to
 * the JSON.parse floor, sweep speed-up) and writes it as JSON to bench/results/.
 *
 *   npm run bench                      every suite, full sizes (data generated on first run)
 *   npm run bench -- --quick           small sizes, a smoke run of a minute or two
 *   npm run bench -- --only loop,floor
 *
 * Suites: decimal (the cost of one decimal operation), loop (replay in memory), floor (simulate against read + JSON.parse of a 1M-swap
 * JSON tape, following 100 and 10 leaders), report (the HTML report of that simulation: size,
 * and the time headless chromium takes to open it), stream (a 10M-swap JSONL tape, peak RSS, following
 * one leader and ten), sweep
 * (1,000 requests over a 100k-swap tape on N workers; the speed-up against 1 worker on the
 * first 100 of them), distributed (the same 1,000 requests through Redis on one and on two
 * `copysim worker --threads 1` processes; needs redis-server), columnar (simulate on the 1M tape
 * in Parquet against read + JSON.parse of its JSON form, the files' sizes, and peak RSS on the
 * 10M tape in Parquet), importer (import dune and import flipside rows/s on 100k-row CSV exports),
 * live (copysim follow fed swaps at full speed: swaps/s acknowledged with the log flushed, and
 * the p99 wait from acknowledgement to applied), heavy (the heavy workload of
 * ../shared/bench/heavy-tape.py, whose tapes it writes with python3 into bench/data/heavy-1m and
 * heavy-100k when missing: simulate on the 1M tape from Parquet and from JSON and rank of its
 * 10,100 wallets, each against read + JSON.parse of the JSON tape; a sweep of 1,000 requests
 * over the 100k tape on 2 workers; two `copysim worker --threads 1` against one on 120 of them,
 * and the fixed cost of a queued run; needs redis-server).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { parseSimulatorRequest } from '../src/model/request.js';
import { readTapeFile } from '../src/io/read-tape.js';
import { hasReplayFlags, restartWithReplayFlags } from '../src/cli/node-flags.js';
import { generationBar, requestPathOf, writeTape } from './gen.js';
import { isMain } from '../tools/is-main.js';
import { runScript, scriptOptions, whole } from '../tools/script-args.js';
import { decimalSuite } from './suites/decimal.js';
import { loopSuite } from './suites/loop.js';
import { distributedSuite } from './suites/distributed.js';
import { floorSuite, rankSuite, streamSuite, sweepSuite } from './suites/processes.js';
import { reportSuite } from './suites/report.js';
import { columnarStreamSuite, columnarSuite, importerSuite, parquetOf } from './suites/columnar.js';
import { liveSuite } from './suites/live.js';
import { heavySuite } from './suites/heavy.js';
import { table, type Row } from './suites/row.js';
import { requestVariants, TapeGenerator } from './tape-generator.js';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url)).replace(/[/\\]dist[/\\]bench$/, '/bench');
const DATA_DIR = join(BENCH_DIR, 'data');
const RESULTS_DIR = join(BENCH_DIR, 'results');
/** The heavy workload's tape writer, in the shared folder beside the project. */
const HEAVY_SCRIPT = join(BENCH_DIR, '..', '..', 'shared', 'bench', 'heavy-tape.py');

/** The tape of `swaps` swaps in bench/data (written on first use), and its request file. */
function ensureTape(swaps: number, extension: 'json' | 'jsonl'): { tape: string; request: string } {
  const tape = join(DATA_DIR, `tape-${swaps}.${extension}`);
  if (!existsSync(tape) || !existsSync(requestPathOf(tape))) {
    process.stderr.write(`generating ${tape} …\n`);
    const bar = generationBar('generating');
    writeTape(tape, { swaps }, bar.update);
    bar.finish();
  }
  return { tape, request: requestPathOf(tape) };
}

/** `count` sweep requests for the tape of `swaps` swaps. */
function ensureRequests(swaps: number, count: number): string {
  const path = join(DATA_DIR, `sweep-${swaps}-${count}.requests.jsonl`);
  if (!existsSync(path)) {
    const base = new TapeGenerator({ swaps }).request();
    writeFileSync(
      path,
      `${requestVariants(base, count)
        .map((r) => JSON.stringify(r))
        .join('\n')}\n`,
    );
  }
  return path;
}

/** A copy of the request at `path` that follows only its wallets at `positions`. */
function pickLeaders(path: string, positions: readonly number[]): string {
  const out = path.replace(/\.json$/, `-leaders-${positions.join('-')}.json`);
  const request = JSON.parse(readFileSync(path, 'utf8')) as { wallets: string[] };
  const wallets = positions.map((p) => request.wallets[p]!);
  writeFileSync(out, `${JSON.stringify({ ...request, wallets }, null, 1)}\n`);
  return out;
}

function readRequest(path: string): ReturnType<typeof parseSimulatorRequest> & { success: true } {
  const parsed = parseSimulatorRequest(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new Error(`${path}: ${JSON.stringify(parsed.error)}`);
  return parsed;
}

const SUITES = [
  'decimal',
  'loop',
  'floor',
  'rank',
  'report',
  'stream',
  'sweep',
  'distributed',
  'columnar',
  'importer',
  'live',
  'heavy',
] as const;

const USAGE = `Usage: npm run bench -- [options]   (or node dist/bench/run.js [options])

Runs the benchmark suites, prints a table and writes it as JSON to bench/results/. The tapes
are generated into bench/data/ on first use.

  --only LIST     suites to run, comma-separated: ${SUITES.join(', ')} (default: all)
  --quick         small sizes: a smoke run of a few minutes
  --rounds N      rounds of the loop and floor suites, each keeping its best (default 3; 2 with --quick)
  --workers N     workers of the sweep suite (default: the cores, ${availableParallelism()})`;

/** The runner's options, as their strings are checked and read. */
export const RunOptions = z.object({
  quick: z.boolean(),
  only: z
    .string()
    .transform((list) => list.split(',').map((name) => name.trim()))
    .pipe(
      z.array(
        z.enum(SUITES, {
          error: (issue) => `unknown suite "${String(issue.input)}": the suites are ${SUITES.join(', ')}`,
        }),
      ),
    )
    .optional(),
  rounds: whole(1).optional(),
  workers: whole(1),
});

/** The runner's options as the command line gives them: strings, read by {@link RunOptions}. */
export const RUN_ARGS = {
  quick: { type: 'boolean', default: false },
  only: { type: 'string' },
  rounds: { type: 'string' },
  workers: { type: 'string', default: String(availableParallelism()) },
} as const;

async function main(argv: readonly string[]): Promise<void> {
  const values = scriptOptions(argv, RUN_ARGS, RunOptions, USAGE);
  if (values === null) return;
  const quick = values.quick;
  const sizes = {
    tape: quick ? 100_000 : 1_000_000,
    stream: quick ? 1_000_000 : 10_000_000,
    sweepTape: 100_000,
    sweepRequests: quick ? 20 : 1_000,
    rounds: values.rounds ?? (quick ? 2 : 3),
  };
  const only = new Set<string>(values.only ?? SUITES);
  const workers = values.workers;
  const startLoad = loadavg();
  const rows: Row[] = [];
  const say = (rs: Row[]): void => {
    rows.push(...rs);
    process.stderr.write(`${table(rs)}\n\n`);
  };

  if (only.has('decimal')) {
    process.stderr.write('decimal …\n');
    say(await decimalSuite());
  }
  if (only.has('loop') || only.has('floor') || only.has('rank') || only.has('report')) {
    const { tape, request } = ensureTape(sizes.tape, 'json');
    if (only.has('loop')) {
      process.stderr.write('loop …\n');
      say(await loopSuite(readTapeFile(tape), readRequest(request).data, sizes.rounds));
    }
    if (only.has('floor')) {
      process.stderr.write('floor …\n');
      say(floorSuite(tape, request, sizes.tape, sizes.rounds, 'all 100 leaders followed', quick ? undefined : 3));
      say(
        floorSuite(
          tape,
          pickLeaders(request, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
          sizes.tape,
          sizes.rounds,
          '10 leaders followed',
          quick ? undefined : 3,
        ),
      );
    }
    if (only.has('rank')) {
      process.stderr.write('rank …\n');
      say(rankSuite(tape, request, sizes.tape, sizes.rounds, quick ? undefined : 3));
    }
    if (only.has('report')) {
      process.stderr.write('report …\n');
      say(await reportSuite(tape, request, sizes.tape, sizes.rounds, !quick));
    }
  }
  if (only.has('stream')) {
    const { tape, request } = ensureTape(sizes.stream, 'jsonl');
    process.stderr.write('stream …\n');
    // Memory grows with the response (every follower trade), not with the tape: one leader
    // followed shows the streaming itself, ten show what a large response costs.
    say(streamSuite(tape, pickLeaders(request, [50]), sizes.stream, 'leader 50 followed', !quick));
    say(
      streamSuite(
        tape,
        pickLeaders(request, [0, 10, 20, 30, 40, 50, 60, 70, 80, 90]),
        sizes.stream,
        'every 10th leader followed',
        !quick,
      ),
    );
  }
  if (only.has('sweep')) {
    const { tape } = ensureTape(sizes.sweepTape, 'json');
    const all = ensureRequests(sizes.sweepTape, sizes.sweepRequests);
    const sampleCount = Math.min(sizes.sweepRequests, 100);
    const sample = ensureRequests(sizes.sweepTape, sampleCount);
    const smallCount = Math.max(1, Math.floor(sampleCount / 5));
    const small = ensureRequests(sizes.sweepTape, smallCount);
    process.stderr.write('sweep …\n');
    say(
      sweepSuite(
        tape,
        { all, count: sizes.sweepRequests, sample, sampleCount, small, smallCount },
        sizes.sweepTape,
        workers,
        !quick,
      ),
    );
  }

  if (only.has('columnar')) {
    const { tape, request } = ensureTape(sizes.tape, 'json');
    process.stderr.write('columnar …\n');
    say(columnarSuite(tape, request, sizes.tape, sizes.rounds, quick ? {} : { ratio: 0.5, size: 0.25 }));
    // The large tape's Parquet form is enough when it is there: its JSONL is only converted from.
    const big = join(DATA_DIR, `tape-${sizes.stream}.parquet`);
    const bigRequest = requestPathOf(big);
    if (!existsSync(big)) parquetOf(ensureTape(sizes.stream, 'jsonl').tape);
    if (!existsSync(bigRequest))
      writeFileSync(bigRequest, `${JSON.stringify(new TapeGenerator({ swaps: sizes.stream }).request(), null, 1)}\n`);
    say(columnarStreamSuite(big, pickLeaders(bigRequest, [50]), sizes.stream, !quick));
  }
  if (only.has('importer')) {
    const { tape } = ensureTape(sizes.sweepTape, 'json');
    process.stderr.write('importer …\n');
    say(importerSuite(tape, sizes.rounds, !quick));
  }

  if (only.has('live')) {
    process.stderr.write('live …\n');
    say(await liveSuite(quick ? 5 : 20, !quick));
  }

  if (only.has('distributed')) {
    const { tape } = ensureTape(sizes.sweepTape, 'json');
    const file = ensureRequests(sizes.sweepTape, sizes.sweepRequests);
    const controlCount = Math.min(sizes.sweepRequests, 100);
    const control = { file: ensureRequests(sizes.sweepTape, controlCount), count: controlCount };
    process.stderr.write('distributed …\n');
    say(
      await distributedSuite(tape, { file, count: sizes.sweepRequests }, sizes.sweepTape, {
        control,
        ...(quick ? {} : { atLeast: 1.7 }),
      }),
    );
  }

  if (only.has('heavy')) {
    const onPart = (name: string): void => void process.stderr.write(`${name} …\n`);
    say(await heavySuite({ script: HEAVY_SCRIPT, dataDir: DATA_DIR, quick, rounds: sizes.rounds, onPart }));
  }

  const machine = {
    cpus: cpus().length,
    model: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    nodeFlags: process.execArgv,
    loadAverageAtStart: startLoad,
    loadAverageAtEnd: loadavg(),
  };
  process.stdout.write(
    `${table(rows)}\n\nmachine: ${machine.cpus} × ${machine.model}, node ${machine.node} ${machine.nodeFlags.join(' ')}, ` +
      `load average ${startLoad.map((l) => l.toFixed(1)).join(' ')} at start, ${machine.loadAverageAtEnd.map((l) => l.toFixed(1)).join(' ')} at end\n`,
  );
  mkdirSync(RESULTS_DIR, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const out = join(RESULTS_DIR, `bench-${stamp}.json`);
  writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), quick, sizes, machine, rows }, null, 1)}\n`);
  process.stdout.write(`written to ${out}\n`);
}

// Every suite measures the engine as the command runs it: in a node with the replay flags.
if (isMain(import.meta.url)) {
  if (hasReplayFlags(process.execArgv, process.env.NODE_OPTIONS)) runScript('bench', USAGE, main);
  else restartWithReplayFlags(fileURLToPath(import.meta.url), process.argv.slice(2));
}
