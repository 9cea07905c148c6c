/**
 * Replays one tape for one request N times in one thread, for counting instructions with
 * cachegrind (which the machine's load does not move, unlike a time), as the loop rows replay it:
 *
 *   node dist/bench/replay-runs.js N [chart|summary|trades|full] [TAPE.json] [REQUEST.json]
 *
 * `chart` keeps the PnL chart's points, `trades` the trade records, `full` both (as `simulate`),
 * `summary` neither (as a sweep). Defaults: `chart`, `bench/data/tape-100000.json` and its
 * request (every leader followed). It reads and indexes the tape, replays 3 times to warm up,
 * then N more; the difference between the counts of two values of N is the cost of that many
 * replays:
 *
 *   for n in 2 12; do valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
 *     node --single-threaded --predictable --max-semi-space-size=64 dist/bench/replay-runs.js $n chart 2>&1 | grep 'I *refs'; done
 *
 * (count for 12 − count for 2) / 10 = instructions per replay (docs/performance.md). Without
 * valgrind it prints the time a replay took.
 */
import { existsSync, readFileSync } from 'node:fs';
import { replay } from '../src/engine/replay.js';
import { readTapeFile } from '../src/io/read-tape.js';
import { resolveEngineOptions } from '../src/model/options.js';
import { parseSimulatorRequest } from '../src/model/request.js';
import { isMain } from './is-main.js';

const WARM_UP = 3;
const MODES = {
  chart: { chart: true, trades: false },
  summary: { chart: false, trades: false },
  trades: { chart: false, trades: true },
  full: { chart: true, trades: true },
} as const;

function main(argv: readonly string[]): void {
  const count = Number(argv[0] ?? 10);
  const mode = argv[1] ?? 'chart';
  const tapePath = argv[2] ?? 'bench/data/tape-100000.json';
  const requestPath = argv[3] ?? tapePath.replace(/\.jsonl?$/, '.request.json');
  if (!Number.isInteger(count) || count < 0) throw new Error(`N must be a whole number of replays, not ${argv[0]}`);
  if (!Object.hasOwn(MODES, mode)) throw new Error(`the mode is one of ${Object.keys(MODES).join(', ')}, not ${mode}`);
  for (const path of [tapePath, requestPath]) {
    if (!existsSync(path)) throw new Error(`${path} is missing: \`npm run bench -- --only sweep\` generates the default tape and request`);
  }
  const parsed = parseSimulatorRequest(JSON.parse(readFileSync(requestPath, 'utf8')));
  if (!parsed.success) throw new Error(`${requestPath} is not a valid request`);
  const tape = readTapeFile(tapePath);
  const options = resolveEngineOptions({});
  const control = MODES[mode as keyof typeof MODES];
  for (let i = 0; i < WARM_UP; i++) replay(tape, parsed.data, options, control);
  let trades = 0;
  const start = performance.now();
  for (let i = 0; i < count; i++) trades = replay(tape, parsed.data, options, control).deals.reduce((n, d) => n + d.tradeCount, 0);
  const ms = performance.now() - start;
  const each = count > 0 ? `${(ms / count).toFixed(1)} ms a replay` : '-';
  process.stdout.write(`${count} replays (${mode}, ${trades} follower trades each) after ${WARM_UP} to warm up: ${each}\n`);
}

if (isMain(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`replay-runs: ${(e as Error).message}\n`);
    process.exitCode = 1;
  }
}
