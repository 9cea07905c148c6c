import { spawn } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';

/**
 * Node flags of the commands that replay large tapes:
 * - a larger young generation, so that fewer short-lived objects are promoted while a 1 GB tape
 *   sits in the old one (`copysim simulate` on a 1M-swap tape takes about a fifth less time);
 * - `gc` exposed, so that a sweep collects the young generation between walks of the tape, when
 *   the walk's objects are dead (`collectYoungGeneration` in src/threads/, passed by the hosts);
 * - hot functions optimized on the thread that runs them, not on a background thread. A replay
 *   process keeps its cores busy (a queue worker, a sweep's threads, several workers on one
 *   machine): a background compiler thread then waits for a core, and until it is done the
 *   function runs in a slower tier. The engine's functions are optimized, deoptimized as new
 *   shapes appear and optimized again over the first dozens of requests, so that wait stretches
 *   the whole warm-up. The compiling costs the same either way; with a core to spare (one
 *   `simulate`) the two measure the same.
 *
 * V8 reads these flags when an isolate starts, and a `#!/usr/bin/env -S node …` line would not
 * run where `env` has no `-S` (BusyBox, the BSDs), so a command that replays in its main thread
 * starts node again with them; one that replays only on worker threads sets them for its threads
 * ({@link giveThreadsReplayFlags}).
 */
export const REPLAY_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=64',
  '--expose-gc',
  '--no-concurrent-recompilation',
];

/** The commands that replay in their main thread. */
const REPLAY_COMMANDS = new Set(['simulate', 'sweep', 'rank', 'latency']);

/** True when this node was started with the replay flags (on its command line or in `NODE_OPTIONS`). */
export function hasReplayFlags(execArgv: readonly string[], nodeOptions = ''): boolean {
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)]);
  return REPLAY_NODE_FLAGS.every((flag) => given.has(flag));
}

/**
 * True when `argv` is a replay command and this node was started without the flags. A sweep on
 * the queue (`sweep --queue`) replays nothing here: it reads the requests, hashes the tape and
 * prints the workers' lines, so it starts no second node.
 */
export function needsReplayFlags(argv: readonly string[], execArgv: readonly string[], nodeOptions = ''): boolean {
  const [command, ...args] = argv;
  if (!REPLAY_COMMANDS.has(command ?? '')) return false;
  if (command === 'sweep' && args.some((arg) => arg === '--queue' || arg.startsWith('--queue='))) return false;
  return !hasReplayFlags(execArgv, nodeOptions);
}

/**
 * Gives the worker threads this node starts from now on the replay flags, when it was started
 * without them: each thread's isolate reads them as it starts (its young generation, `gc`, its
 * compiling on the thread itself). This thread keeps the flags it started with, so only a command
 * that replays on worker threads alone (`copysim worker`) may save the second node start with it.
 */
export function giveThreadsReplayFlags(): void {
  if (!hasReplayFlags(process.execArgv, process.env.NODE_OPTIONS)) setFlagsFromString(REPLAY_NODE_FLAGS.join(' '));
}

/**
 * Runs `script argv` in a new node with the replay flags, standard streams shared, and ends this
 * process as the child ends: the same exit code, or the same signal. Signals sent to this
 * process are passed on, so the child never outlives it.
 */
export function restartWithReplayFlags(script: string, argv: readonly string[]): void {
  const child = spawn(process.execPath, [...process.execArgv, ...REPLAY_NODE_FLAGS, script, ...argv], {
    stdio: 'inherit',
  });
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const pass = (signal: NodeJS.Signals): void => void child.kill(signal);
  for (const signal of signals) process.on(signal, pass);
  child.on('error', (e) => {
    process.stderr.write(`copysim: cannot start node again with ${REPLAY_NODE_FLAGS.join(' ')}: ${e.message}\n`);
    process.exitCode = 70;
  });
  child.on('exit', (code, signal) => {
    for (const s of signals) process.off(s, pass);
    if (signal !== null) process.kill(process.pid, signal);
    else process.exitCode = code ?? 70;
  });
}
