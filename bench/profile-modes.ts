/**
 * Where a replay's time goes, mode against mode: replays one tape for one request in two modes
 * by turns in one process under V8's sampling profiler, and prints each function's own time per
 * replay in each mode and the difference, largest first (what the first mode costs beyond the
 * second). Taking turns keeps the machine's drift from falling on one mode alone.
 *
 *   node --max-semi-space-size=64 dist/bench/profile-modes.js [ROUNDS] [MODE,MODE] [TAPE.json] [REQUEST.json]
 *
 * Modes as in `replay-runs.js` (`full`, `chart`, `trades`, `summary`); defaults: 4 rounds,
 * `full,summary`, `bench/data/tape-1000000.json` and its request. Two rounds warm up first.
 */
import { existsSync, readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { Profiler } from 'node:inspector';
import { replay, type ReplayControl } from '../src/engine/replay.js';
import { readTapeFile } from '../src/io/read-tape.js';
import { resolveEngineOptions } from '../src/model/options.js';
import { parseSimulatorRequest } from '../src/model/request.js';
import { isMain } from './is-main.js';

const MODES: Record<string, ReplayControl> = {
  full: { chart: true, trades: true },
  chart: { chart: true, trades: false },
  trades: { chart: false, trades: true },
  summary: { chart: false, trades: false },
};
const WARM_UP = 2;
/** Sampling interval, µs. */
const INTERVAL = 200;

async function main(argv: readonly string[]): Promise<void> {
  const rounds = Number(argv[0] ?? 4);
  const modes = (argv[1] ?? 'full,summary').split(',');
  const tapePath = argv[2] ?? 'bench/data/tape-1000000.json';
  const requestPath = argv[3] ?? tapePath.replace(/\.jsonl?$/, '.request.json');
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`ROUNDS must be a whole number above 0, not ${argv[0]}`);
  if (modes.length !== 2 || !modes.every((m) => Object.hasOwn(MODES, m))) {
    throw new Error(`give two modes out of ${Object.keys(MODES).join(', ')}, as full,summary; not ${argv[1]}`);
  }
  for (const path of [tapePath, requestPath]) {
    if (!existsSync(path)) throw new Error(`${path} is missing: \`npm run bench -- --only loop\` generates the default tape and request`);
  }
  const parsed = parseSimulatorRequest(JSON.parse(readFileSync(requestPath, 'utf8')));
  if (!parsed.success) throw new Error(`${requestPath} is not a valid request`);
  const request = parsed.data;
  const tape = readTapeFile(tapePath);
  const options = resolveEngineOptions({});
  for (let i = 0; i < WARM_UP; i++) for (const m of modes) replay(tape, request, options, MODES[m]);

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: INTERVAL });
  await session.post('Profiler.start');
  // Each replay's span on the profiler's clock (µs, the monotonic clock of hrtime).
  const spans: { mode: string; start: number; end: number }[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const mode of modes) {
      const start = Number(process.hrtime.bigint() / 1000n);
      replay(tape, request, options, MODES[mode]);
      spans.push({ mode, start, end: Number(process.hrtime.bigint() / 1000n) });
    }
  }
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  report(profile, spans, modes, rounds);
}

/** Own time per function and mode, in ms per replay, from the samples inside each replay's span. */
function report(profile: Profiler.Profile, spans: readonly { mode: string; start: number; end: number }[], modes: readonly string[], rounds: number): void {
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

if (isMain(import.meta.url)) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`profile-modes: ${(e as Error).message}\n`);
    process.exitCode = 1;
  });
}
