/**
 * The heavy workload: tapes written by `../shared/bench/heavy-tape.py` (Python 3, standard
 * library only), on which the follower trades far more for each swap read than on the
 * generator's tapes, so that the replay, not the parse, decides the time. Each command is
 * measured side by side with its floor (reading the JSON tape and `JSON.parse`-ing it, nothing
 * else) in one run, by the suites of processes.ts, columnar.ts and distributed.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliNodeFlags } from '../measure.js';
import { columnarSuite } from './columnar.js';
import { distributedSuite } from './distributed.js';
import { floorSuite, rankSuite, sweepWallSuite } from './processes.js';
import type { Row } from './row.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** A heavy tape and the request beside it: DIR/tape.json, DIR/request.json. */
interface HeavyTape {
  readonly dir: string;
  readonly swaps: number;
  readonly tape: string;
  readonly request: string;
}

/**
 * The heavy tape of `swaps` swaps in `dataDir` (`heavy-1m`, `heavy-100k`), written by the
 * script with `seed` when missing.
 */
function heavyTape(script: string, dataDir: string, swaps: number, seed?: number): HeavyTape {
  const dir = join(dataDir, swaps >= 1_000_000 ? `heavy-${swaps / 1_000_000}m` : `heavy-${swaps / 1_000}k`);
  const tape = join(dir, 'tape.json');
  const request = join(dir, 'request.json');
  if (!existsSync(tape) || !existsSync(request)) {
    if (!existsSync(script)) throw new Error(`the heavy suite writes its tapes with ${script}, which is missing`);
    const args = [
      script,
      '--swaps',
      String(swaps),
      '--out',
      dir,
      ...(seed !== undefined ? ['--seed', String(seed)] : []),
    ];
    process.stderr.write(`generating ${tape}: python3 ${args.join(' ')} …\n`);
    const child = spawnSync('python3', args, { stdio: ['ignore', 'inherit', 'inherit'] });
    if (child.error !== undefined) throw new Error(`the heavy suite needs python3: ${child.error.message}`);
    if (child.status !== 0) throw new Error(`heavy-tape.py exited with code ${child.status}`);
  }
  return { dir, swaps, tape, request };
}

/** The Parquet form of a heavy tape beside it, converted once with `copysim convert`. */
function heavyParquet({ tape }: HeavyTape): void {
  const out = tape.replace(/\.json$/, '.parquet');
  if (existsSync(out)) return;
  process.stderr.write(`copysim convert ${tape} ${out} …\n`);
  execFileSync(process.execPath, [...cliNodeFlags(), CLI, 'convert', tape, out], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/**
 * The first `count` of the sweep's 1,000 requests (written once beside the tape): the heavy
 * request with buy_percentage 1 to 100, each with max_dupe_buy_times 0 to 9.
 */
function sweepRequests({ dir, request }: HeavyTape, count: number): { readonly file: string; readonly count: number } {
  const file = join(dir, `sweep-${count}.requests.jsonl`);
  if (!existsSync(file)) {
    const base = JSON.parse(readFileSync(request, 'utf8')) as Record<string, unknown>;
    const lines: string[] = [];
    for (let buy = 1; buy <= 100; buy++) {
      for (let dupes = 0; dupes <= 9; dupes++) {
        lines.push(JSON.stringify({ ...base, buy_percentage: buy, max_dupe_buy_times: dupes }));
      }
    }
    writeFileSync(file, `${lines.slice(0, count).join('\n')}\n`);
  }
  return { file, count };
}

/**
 * Two requests that take no time on the tape (one leader, the window's last day), for the fixed
 * cost of a queued run: what is left is starting, hashing, reading and queueing.
 */
function idleRequests({ dir, request }: HeavyTape): string {
  const file = join(dir, 'idle-2.requests.jsonl');
  if (!existsSync(file)) {
    const base = JSON.parse(readFileSync(request, 'utf8')) as { wallets: string[]; to_date: string };
    const idle = { ...base, wallets: base.wallets.slice(0, 1), from_date: base.to_date };
    writeFileSync(file, `${[1, 2].map((k) => JSON.stringify({ ...idle, buy_percentage: k })).join('\n')}\n`);
  }
  return file;
}

/** What the heavy suite runs on: full sizes (and the targets), or --quick's small ones. */
export interface HeavyOptions {
  /** `../shared/bench/heavy-tape.py`. */
  readonly script: string;
  readonly dataDir: string;
  readonly quick: boolean;
  /** Rounds of the floor, columnar and rank parts, each keeping its best. */
  readonly rounds: number;
  /** Called before each part, with its name. */
  readonly onPart?: (name: string) => void;
}

/**
 * The heavy suite. Full sizes, with the targets: on the 1,000,000-swap tape (seed 7),
 * `copysim simulate` from Parquet (at most 1.0× the floor), from JSON (at most 2.0×) and `copysim
 * rank` of its 10,100 wallets (at most 3×), and the same with `--top 20` (screened); on the 100,000-swap tape (seed 11), `copysim sweep`
 * of 1,000 requests on 2 workers (at most 40 s) and two `copysim worker --threads 1` against
 * one on its first 120 (at least 1.8×), with the fixed cost of a queued run (at most 0.5 s).
 * `quick`: the 100,000-swap tape throughout, 20 requests, no targets.
 */
export async function heavySuite(options: HeavyOptions): Promise<Row[]> {
  const { script, dataDir, quick, rounds } = options;
  const part = options.onPart ?? (() => {});
  const small = heavyTape(script, dataDir, 100_000, 11);
  const big = quick ? small : heavyTape(script, dataDir, 1_000_000);
  const target = (value: number): number | undefined => (quick ? undefined : value);
  const rows: Row[] = [];
  heavyParquet(big);
  part('heavy: simulate from Parquet');
  rows.push(
    ...columnarSuite(big.tape, big.request, big.swaps, rounds, { ...(quick ? {} : { ratio: 1 }) }, 'heavy Parquet'),
  );
  part('heavy: simulate');
  rows.push(...floorSuite(big.tape, big.request, big.swaps, rounds, 'heavy, 100 leaders', target(2)));
  part('heavy: rank');
  rows.push(...rankSuite(big.tape, big.request, big.swaps, rounds, target(3), 'heavy rank'));
  part('heavy: rank --top 20');
  rows.push(...rankSuite(big.tape, big.request, big.swaps, rounds, undefined, 'heavy rank --top 20', 20));
  part('heavy: sweep');
  const sweep = sweepRequests(small, quick ? 20 : 1_000);
  rows.push(...sweepWallSuite('heavy sweep', small.tape, sweep, small.swaps, 2, target(40)));
  part('heavy: distributed');
  const queued = sweepRequests(small, quick ? 20 : 120);
  rows.push(
    ...(await distributedSuite(small.tape, queued, small.swaps, {
      suite: 'heavy distributed',
      starts: ['kept', 'fresh'],
      control: queued,
      fixedCost: { file: idleRequests(small), ...(quick ? {} : { atMost: 0.5 }) },
      ...(quick ? {} : { atLeast: 1.8 }),
    })),
  );
  return rows;
}
