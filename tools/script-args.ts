/**
 * The command lines of the benchmark scripts: `--help`, options checked against a zod schema,
 * and errors that name the option and what is wrong with it, never a stack trace.
 *
 * @example
 * runScript('gen', USAGE, (argv) => {
 *   const options = scriptOptions(argv, { swaps: { type: 'string', default: '1m' } }, z.object({ swaps: count(1) }), USAGE);
 *   if (options === null) return; // --help was printed
 *   …
 * });
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { z } from 'zod';
import { isUsageError, UsageError } from '../src/cli/usage.js';

/** Parses a count such as `250000`, `250k` or `1.5m`. */
export function parseCount(text: string): number {
  const match = COUNT.exec(text.trim());
  if (match === null) throw new UsageError(`not a count: "${text}" (try 100000, 100k or 1m)`);
  const scale = { '': 1, k: 1e3, m: 1e6 }[match[2]!.toLowerCase() as '' | 'k' | 'm'];
  return Math.round(Number(match[1]) * scale);
}

const COUNT = /^(\d+(?:\.\d+)?)([km]?)$/i;

/** An option holding a count (`100000`, `100k`, `1m`) of at least `min`. */
export function count(min: number): z.ZodType<number, string> {
  return z
    .string()
    .regex(COUNT, 'expected a count such as 100000, 100k or 1m')
    .transform((text) => parseCount(text))
    .pipe(z.number().min(min, `expected at least ${min}`));
}

/** An option holding a whole number (`3`) of at least `min`. */
export function whole(min: number): z.ZodType<number, string> {
  return z
    .string()
    .regex(/^\d+$/, 'expected a whole number')
    .transform(Number)
    .pipe(z.number().min(min, `expected at least ${min}`));
}

/** An option holding a number (`0.5`, `30`) that `check` accepts. */
export function number(check: z.ZodNumber): z.ZodType<number, string> {
  return z
    .string()
    .regex(/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/, 'expected a number')
    .transform(Number)
    .pipe(check);
}

/**
 * The script's options from `argv`, parsed by `config` and checked by `schema`; null when
 * `--help` (or `-h`) asked for `usage`, which is then printed. A wrong option is a
 * {@link UsageError} naming it.
 */
export function scriptOptions<S extends z.ZodType>(
  argv: readonly string[],
  config: NonNullable<ParseArgsConfig['options']>,
  schema: S,
  usage: string,
): z.output<S> | null {
  if (printedHelp(argv, usage)) return null;
  const { values } = parseArgs({ args: [...argv], options: config, allowPositionals: false });
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    throw new UsageError(`--${name} ${String(values[name])}: ${issue.message}`);
  }
  return parsed.data;
}

/** True, after printing `usage`, when `argv` asks for it (`--help` or `-h`). */
export function printedHelp(argv: readonly string[], usage: string): boolean {
  if (!argv.includes('--help') && !argv.includes('-h')) return false;
  process.stdout.write(`${usage}\n`);
  return true;
}

/**
 * Runs a script's `main` with the command line's arguments. A wrong command line prints what
 * is wrong and the usage; any other error prints its message. Both exit with 1.
 */
export function runScript(name: string, usage: string, main: (argv: readonly string[]) => void | Promise<void>): void {
  const fail = (e: unknown): void => {
    process.stderr.write(`${name}: ${(e as Error).message}\n${isUsageError(e) ? `\n${usage}\n` : ''}`);
    process.exitCode = 1;
  };
  try {
    const done = main(process.argv.slice(2));
    if (done instanceof Promise) done.catch(fail);
  } catch (e) {
    fail(e);
  }
}

/**
 * {@link scriptOptions} for a script that runs at the top level of its module: prints the usage
 * and exits 0 on `--help`, prints what is wrong and the usage and exits 1 on a wrong option.
 */
export function topLevelOptions<S extends z.ZodType>(
  name: string,
  config: NonNullable<ParseArgsConfig['options']>,
  schema: S,
  usage: string,
): z.output<S> {
  let options: z.output<S> | null = null;
  runScript(name, usage, (argv) => {
    options = scriptOptions(argv, config, schema, usage);
  });
  if (options === null) process.exit(process.exitCode ?? 0);
  return options;
}
