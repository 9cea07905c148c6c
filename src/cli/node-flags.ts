import { spawn } from 'node:child_process';

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
 * V8 reads these flags only at start-up, and a `#!/usr/bin/env -S node …` line would not run
 * where `env` has no `-S` (BusyBox, the BSDs), so such a command starts node again with them.
 */
export const REPLAY_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=64',
  '--expose-gc',
  '--no-concurrent-recompilation',
];

const REPLAY_COMMANDS = new Set(['simulate', 'sweep', 'worker', 'rank', 'latency']);

/** True when this node was started with the replay flags (on its command line or in `NODE_OPTIONS`). */
export function hasReplayFlags(execArgv: readonly string[], nodeOptions = ''): boolean {
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)]);
  return REPLAY_NODE_FLAGS.every((flag) => given.has(flag));
}

/** True when `argv` is a replay command and this node was started without the flags. */
export function needsReplayFlags(argv: readonly string[], execArgv: readonly string[], nodeOptions = ''): boolean {
  return REPLAY_COMMANDS.has(argv[0] ?? '') && !hasReplayFlags(execArgv, nodeOptions);
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
