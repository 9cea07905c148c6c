/**
 * How much two replays slow each other on this machine: `sweep-requests.js N` alone, then two
 * at once, for each set of node flags in turns, ROUNDS times:
 *
 *   COPYSIM_SWEEP_BATCH=sweep COPYSIM_SWEEP_WARM_UP=4 node dist/tools/profile/two-at-once.js 40 4 \
 *     "--max-semi-space-size=64 --expose-gc" \
 *     "--max-semi-space-size=64 --expose-gc --no-concurrent-recompilation"
 *
 * Each line gives a request's time alone and in each of the two processes, and the gain of two
 * at once over one, `2 × alone / mean(two)` (2 when they do not slow each other). The
 * environment (`COPYSIM_SWEEP_*`, see sweep-requests.ts) is passed on. A time on a shared
 * machine moves by a third from minute to minute: only flags measured in turns are compared.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isMain } from '../is-main.js';
import { runScript } from '../script-args.js';
import { UsageError } from '../../src/cli/usage.js';

const USAGE = 'usage: node dist/tools/profile/two-at-once.js N ROUNDS "NODE FLAGS" ["OTHER NODE FLAGS" ...]';

const SWEEP_REQUESTS = fileURLToPath(new URL('./sweep-requests.js', import.meta.url));

/** One run of sweep-requests: its milliseconds a request. */
function msARequest(flags: readonly string[], count: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...flags, SWEEP_REQUESTS, String(count)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    // 'close', not 'exit': the output is read whole only once the streams have closed.
    child.on('close', (code) => {
      const ms = /([\d.]+) ms a request/.exec(out)?.[1];
      if (code !== 0 || ms === undefined)
        reject(new Error(`sweep-requests with node flags [${flags.join(' ')}] failed (${code}): ${err.trim()}`));
      else resolve(Number(ms));
    });
  });
}

async function main(argv: readonly string[]): Promise<void> {
  const [count, rounds] = [Number(argv[0]), Number(argv[1])];
  const flagSets = argv.slice(2).map((set) => set.split(/\s+/).filter((f) => f !== ''));
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(rounds) || rounds < 1 || flagSets.length === 0) {
    throw new UsageError('give N, ROUNDS and one or more sets of node flags');
  }
  for (let round = 1; round <= rounds; round++) {
    for (const flags of flagSets) {
      const alone = await msARequest(flags, count);
      const two = await Promise.all([msARequest(flags, count), msARequest(flags, count)]);
      const gain = (2 * alone) / ((two[0] + two[1]) / 2);
      process.stdout.write(
        `round ${round} [${flags.join(' ')}]: alone ${alone} ms, two ${two[0]} and ${two[1]} ms: ${gain.toFixed(2)}×\n`,
      );
    }
  }
}

if (isMain(import.meta.url)) runScript('two-at-once', USAGE, main);
