/**
 * Where a replay's time goes, mode against mode: replays one tape for one request in two modes
 * by turns in one process under V8's sampling profiler, and prints each function's own time per
 * replay in each mode and the difference, largest first (what the first mode costs beyond the
 * second). Taking turns keeps the machine's drift from falling on one mode alone.
 *
 *   node --max-semi-space-size=64 dist/tools/profile/profile-modes.js [ROUNDS] [MODE,MODE] [TAPE.json] [REQUEST.json]
 *
 * Modes as in `replay-input.ts` (`full`, `chart`, `trades`, `summary`); defaults: 4 rounds,
 * `full,summary`, `bench/data/tape-1000000.json` and its request. Two rounds warm up first.
 */
import { Session } from 'node:inspector/promises';
import type { Profiler } from 'node:inspector';
import { replay } from '../../src/engine/replay.js';
import { resolveEngineOptions } from '../../src/model/options.js';
import { isMain } from '../is-main.js';
import { readReplayInput, replayMode } from './replay-input.js';
import { runScript } from '../script-args.js';

const USAGE = 'usage: node dist/tools/profile/profile-modes.js [ROUNDS] [MODE,MODE] [TAPE.json] [REQUEST.json]';

const WARM_UP = 2;
/** Sampling interval, µs. */
const INTERVAL = 200;

async function main(argv: readonly string[]): Promise<void> {
  const rounds = Number(argv[0] ?? 4);
  const modes = (argv[1] ?? 'full,summary').split(',');
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`ROUNDS must be a whole number above 0, not ${argv[0]}`);
  if (modes.length !== 2) throw new Error(`give two modes, as full,summary; not ${argv[1]}`);
  const controls = modes.map(replayMode);
  const { tape, request } = readReplayInput(
    argv[2] ?? 'bench/data/tape-1000000.json',
    argv[3],
    'npm run bench -- --only loop',
  );
  const options = resolveEngineOptions({});
  for (let i = 0; i < WARM_UP; i++) for (const control of controls) replay(tape, request, options, control);

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: INTERVAL });
  await session.post('Profiler.start');
  // Each replay's span on the profiler's clock (µs, the monotonic clock of hrtime).
  const spans: { mode: string; start: number; end: number }[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const [k, mode] of modes.entries()) {
      const start = Number(process.hrtime.bigint() / 1000n);
      replay(tape, request, options, controls[k]);
      spans.push({ mode, start, end: Number(process.hrtime.bigint() / 1000n) });
    }
  }
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  report(profile, spans, modes, rounds);
}

/** Own time per function and mode, in ms per replay, from the samples inside each replay's span. */
function report(
  profile: Profiler.Profile,
  spans: readonly { mode: string; start: number; end: number }[],
  modes: readonly string[],
  rounds: number,
): void {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const own = modes.map(() => new Map<string, number>());
  const totals = modes.map(() => 0);
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let t = profile.startTime;
  for (let i = 0; i < samples.length; i++) {
    t += deltas[i] ?? 0;
    const span = spans.find((s) => t >= s.start && t <= s.end);
    if (span === undefined) continue;
    const frame = nodes.get(samples[i]!)!.callFrame;
    const name = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/.*\/dist\//, '')}:${frame.lineNumber + 1}`;
    const k = modes.indexOf(span.mode);
    const weight = deltas[i + 1] ?? 0; // the time until the next sample
    own[k]!.set(name, (own[k]!.get(name) ?? 0) + weight);
    totals[k] = totals[k]! + weight;
  }
  const ms = (us: number): string => (us / 1000 / rounds).toFixed(1).padStart(8);
  const wall = modes.map((m) => spans.filter((s) => s.mode === m).map((s) => ((s.end - s.start) / 1000).toFixed(0)));
  process.stdout.write(`replays, ms: ${modes.map((m, k) => `${m} ${wall[k]!.join(' ')}`).join('; ')}\n`);
  process.stdout.write(`${modes[0]!.padStart(8)}${modes[1]!.padStart(8)}    diff  ms of own time per replay\n`);
  process.stdout.write(`${ms(totals[0]!)}${ms(totals[1]!)}${ms(totals[0]! - totals[1]!)}  (all sampled)\n`);
  const names = [...new Set([...own[0]!.keys(), ...own[1]!.keys()])];
  const a = (n: string): number => own[0]!.get(n) ?? 0;
  const b = (n: string): number => own[1]!.get(n) ?? 0;
  names.sort((x, y) => b(x) - a(x) - (b(y) - a(y)) || (x < y ? -1 : 1));
  for (const n of names.slice(0, 40)) process.stdout.write(`${ms(a(n))}${ms(b(n))}${ms(a(n) - b(n))}  ${n}\n`);
}

if (isMain(import.meta.url)) runScript('profile-modes', USAGE, main);
