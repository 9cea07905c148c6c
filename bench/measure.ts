/**
 * Runs one job in a fresh process and reports its cost on standard error as a last line
 * `@measure {"wallMs", "cpuMs", "peakRssMb", "exitCode"}`, wall time counted from the start of
 * the process (module loading included). The benchmark suites start it as a child:
 *
 *   node dist/bench/measure.js floor TAPE.json          read and JSON.parse the file, nothing else
 *   node dist/bench/measure.js cli simulate --tape …    the copysim command line, as a user runs it
 *
 * Both run with the Node flags of `copysim simulate` ({@link cliNodeFlags}).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isMain } from '../tools/is-main.js';
import { REPLAY_NODE_FLAGS } from '../src/cli/node-flags.js';

/** What {@link measure} reports of one child process. */
export interface Measurement {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly peakRssMb: number;
  /** Size of what the job printed on standard output. */
  readonly outputMb: number;
  readonly exitCode: number;
}

export const MEASURE_PREFIX = '@measure ';

/** The child's command line: this script with the CLI's Node flags. */
function childArgs(args: readonly string[]): string[] {
  return [...cliNodeFlags(), fileURLToPath(import.meta.url), ...args];
}

/** The {@link Measurement} a child reported on standard error; throws with that text when it reported none. */
function reportOf(args: readonly string[], stderr: string): Measurement {
  const line = stderr.split('\n').find((l) => l.startsWith(MEASURE_PREFIX));
  if (line === undefined) throw new Error(`measure ${args.join(' ')} failed:\n${stderr}`);
  return JSON.parse(line.slice(MEASURE_PREFIX.length)) as Measurement;
}

/**
 * Runs `measure.js ARGS` in a child process (standard output discarded) and returns what it
 * reports. Throws with the child's standard error when it reports nothing.
 */
export function measure(args: readonly string[]): Measurement {
  const child = spawnSync(process.execPath, childArgs(args), {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  return reportOf(args, child.stderr);
}

/** {@link measure} without waiting: several jobs measured at once, side by side. */
export function measureAsync(args: readonly string[]): Promise<Measurement> {
  const child = spawn(process.execPath, childArgs(args), { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', () => {
      try {
        resolve(reportOf(args, stderr));
      } catch (e) {
        reject(e);
      }
    });
  });
}

/**
 * The Node flags `copysim simulate` and `copysim sweep` run with. Every measured child runs with
 * them, the floor included, so the comparison is with the same Node.
 */
export function cliNodeFlags(): string[] {
  return [...REPLAY_NODE_FLAGS];
}

async function main(): Promise<void> {
  const [job, ...args] = process.argv.slice(2);
  let exitCode = 0;
  let outputChars = 0;
  if (job === 'floor') {
    const value = JSON.parse(readFileSync(args[0]!, 'utf8')) as { swaps?: unknown[] };
    if (!Array.isArray(value.swaps)) exitCode = 1;
  } else if (job === 'cli') {
    // Loaded only here, so that the floor pays for no module it does not use.
    const { runCli } = await import('../src/cli/main.js');
    const out = (text: string): void => {
      outputChars += text.length;
      process.stdout.write(text);
    };
    exitCode = await runCli(args, { out, err: (text) => process.stderr.write(text), errIsTty: false });
  } else {
    process.stderr.write('usage: measure.js floor FILE | cli COMMAND ARGS…\n');
    exitCode = 64;
  }
  const cpu = process.cpuUsage();
  const report: Measurement = {
    wallMs: performance.now(),
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    outputMb: outputChars / 1e6,
    exitCode,
  };
  process.stderr.write(`\n${MEASURE_PREFIX}${JSON.stringify(report)}\n`);
  process.exitCode = exitCode;
}

if (isMain(import.meta.url)) void main();
