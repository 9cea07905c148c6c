/**
 * Replays one tape for one request N times in one thread, for counting instructions with
 * cachegrind (which the machine's load does not move, unlike a time), as the loop rows replay it:
 *
 *   node dist/tools/profile/replay-runs.js N [chart|summary|trades|full] [TAPE.json] [REQUEST.json]
 *
 * `chart` keeps the PnL chart's points, `trades` the trade records, `full` both (as `simulate`),
 * `summary` neither (as a sweep). Defaults: `chart`, `bench/data/tape-100000.json` and its
 * request (every leader followed). It reads and indexes the tape, replays 3 times to warm up,
 * then N more; the difference between the counts of two values of N is the cost of that many
 * replays:
 *
 *   for n in 2 8; do setarch -R valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
 *     node --single-threaded --predictable --hash-seed=1 --random-seed=1 \
 *     --max-semi-space-size=64 --min-semi-space-size=64 dist/tools/profile/replay-runs.js $n chart 2>&1 | grep 'I *refs'; done
 *
 * (count for 8 − count for 2) / 6 = instructions per replay (docs/performance.md). The young
 * generation held at 64 MB makes the count reproducible (to 0.5 M in 11,500 M). Without
 * valgrind it prints the time a replay took.
 */
import { replay } from '../../src/engine/replay.js';
import { resolveEngineOptions } from '../../src/model/options.js';
import { isMain } from '../is-main.js';
import { readReplayInput, replayMode } from './replay-input.js';
import { runScript } from '../script-args.js';

const USAGE = 'usage: node dist/tools/profile/replay-runs.js N [chart|summary|trades|full] [TAPE.json] [REQUEST.json]';

const WARM_UP = 3;

function main(argv: readonly string[]): void {
  const count = Number(argv[0] ?? 10);
  const mode = argv[1] ?? 'chart';
  if (!Number.isInteger(count) || count < 0) throw new Error(`N must be a whole number of replays, not ${argv[0]}`);
  const control = replayMode(mode);
  const { tape, request } = readReplayInput(
    argv[2] ?? 'bench/data/tape-100000.json',
    argv[3],
    'npm run bench -- --only sweep',
  );
  const options = resolveEngineOptions({});
  for (let i = 0; i < WARM_UP; i++) replay(tape, request, options, control);
  let trades = 0;
  const start = performance.now();
  for (let i = 0; i < count; i++)
    trades = replay(tape, request, options, control).deals.reduce((n, d) => n + d.tradeCount, 0);
  const ms = performance.now() - start;
  const each = count > 0 ? `${(ms / count).toFixed(1)} ms a replay` : '-';
  process.stdout.write(
    `${count} replays (${mode}, ${trades} follower trades each) after ${WARM_UP} to warm up: ${each}\n`,
  );
}

if (isMain(import.meta.url)) runScript('replay-runs', USAGE, main);
