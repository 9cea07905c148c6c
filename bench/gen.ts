/**
 * Writes a seeded benchmark tape (JSON, or JSONL when the name ends in .jsonl) and a request
 * that follows its leaders beside it (`<name>.request.json`).
 *
 *   npm run bench:gen -- --swaps 1m --out bench/data/tape-1m.json
 *   npm run bench:gen -- --swaps 10m --out bench/data/tape-10m.jsonl
 *   npm run bench:gen -- --swaps 100k --requests 1000 --out bench/data/tape-100k.json
 *
 * `--requests N` also writes N sweep settings to `<name>.requests.jsonl`.
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { processIo } from '../src/cli/io.js';
import { progressBar, type Progress } from '../src/cli/progress.js';
import { isMain } from '../tools/is-main.js';
import { count, number, runScript, scriptOptions } from '../tools/script-args.js';
import { DEFAULT_SHAPE, requestVariants, TapeGenerator, type TapeShape } from './tape-generator.js';

/** Swaps written between two progress reports. */
const PROGRESS_EVERY = 1 << 16;

/** Buffers text and writes it to a file descriptor in large chunks. */
class ChunkedWriter {
  private parts: string[] = [];
  private size = 0;
  constructor(private readonly fd: number) {}
  write(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size > 1 << 20) this.flush();
  }
  flush(): void {
    writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }
}

/** Writes the tape of `shape` to `path`; returns its generator (for its leaders and request). */
export function writeTape(
  path: string,
  shape: Partial<TapeShape>,
  onProgress?: (done: number, total: number) => void,
): TapeGenerator {
  const generator = new TapeGenerator(shape);
  const total = generator.shape.swaps;
  let done = 0;
  const tick = (): void => {
    if (onProgress !== undefined && (++done & (PROGRESS_EVERY - 1)) === 0) onProgress(done, total);
  };
  const jsonl = path.endsWith('.jsonl');
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, 'w');
  const out = new ChunkedWriter(fd);
  const { network, tokens, native_prices } = generator.header;
  if (jsonl) {
    out.write(`${JSON.stringify({ network, tokens, native_prices })}\n`);
    for (const swap of generator.swaps()) {
      out.write(`${JSON.stringify(swap)}\n`);
      tick();
    }
  } else {
    const head = JSON.stringify({ network, tokens, native_prices });
    out.write(`${head.slice(0, -1)},"swaps":[\n`);
    let first = true;
    for (const swap of generator.swaps()) {
      out.write(first ? JSON.stringify(swap) : `,\n${JSON.stringify(swap)}`);
      first = false;
      tick();
    }
    out.write('\n]}\n');
  }
  out.flush();
  closeSync(fd);
  writeFileSync(requestPathOf(path), `${JSON.stringify(generator.request(), null, 1)}\n`);
  onProgress?.(total, total);
  return generator;
}

/** A progress bar for writing a tape, on standard error when it is a terminal. */
export function generationBar(label: string): Progress {
  return progressBar(processIo, label, 'swaps');
}

/** `bench/data/tape.json` → `bench/data/tape.requests.jsonl`: the settings of a sweep. */
export function requestsPathOf(tapePath: string): string {
  return `${tapePath.replace(/\.jsonl?$/, '')}.requests.jsonl`;
}

/** `bench/data/tape.json` → `bench/data/tape.request.json`. */
export function requestPathOf(tapePath: string): string {
  return `${tapePath.replace(/\.jsonl?$/, '')}.request.json`;
}

const USAGE = `Usage: npm run bench:gen -- [options]   (or node dist/bench/gen.js [options])

Writes a seeded benchmark tape and, beside it, a request following its leaders (the first 100).

  --swaps N          swaps in the tape (default ${DEFAULT_SHAPE.swaps}; 100k and 1m work too)
  --leaders N        leaders, the followed wallets (default ${DEFAULT_SHAPE.leaders})
  --tokens N         tokens (default ${DEFAULT_SHAPE.tokens})
  --wallets N        market wallets, not followed (default ${DEFAULT_SHAPE.marketWallets})
  --leader-share X   share of the swaps the leaders make, above 0 and at most 1 (default ${DEFAULT_SHAPE.leaderShare})
  --days X           days over which the tokens launch, above 0 (default ${DEFAULT_SHAPE.days})
  --seed N           the random generator's seed, a whole number (default ${DEFAULT_SHAPE.seed})
  --requests N       also write N sweep settings to <name>.requests.jsonl (default 0)
  --out FILE         the tape, .json or .jsonl (default bench/data/tape-<swaps>.json)`;

/** Each option of the generator, as its string is checked and read. */
export const GenOptions = z.object({
  swaps: count(1),
  leaders: count(1),
  tokens: count(1),
  wallets: count(1),
  'leader-share': number(z.number().gt(0, 'expected a share above 0').max(1, 'expected a share of at most 1')),
  days: number(z.number().gt(0, 'expected a number of days above 0')),
  seed: number(
    z
      .number()
      .int('expected a whole number')
      .min(0, 'expected a whole number of at least 0')
      .max(Number.MAX_SAFE_INTEGER),
  ),
  requests: count(0),
  out: z
    .string()
    .regex(/\.jsonl?$/, 'expected a file name ending in .json or .jsonl')
    .optional(),
});

/** The generator's options as the command line gives them: strings, read by {@link GenOptions}. */
export const GEN_ARGS = {
  swaps: { type: 'string', default: String(DEFAULT_SHAPE.swaps) },
  leaders: { type: 'string', default: String(DEFAULT_SHAPE.leaders) },
  tokens: { type: 'string', default: String(DEFAULT_SHAPE.tokens) },
  wallets: { type: 'string', default: String(DEFAULT_SHAPE.marketWallets) },
  'leader-share': { type: 'string', default: String(DEFAULT_SHAPE.leaderShare) },
  days: { type: 'string', default: String(DEFAULT_SHAPE.days) },
  seed: { type: 'string', default: String(DEFAULT_SHAPE.seed) },
  requests: { type: 'string', default: '0' },
  out: { type: 'string' },
} as const;

function main(argv: readonly string[]): void {
  const values = scriptOptions(argv, GEN_ARGS, GenOptions, USAGE);
  if (values === null) return;
  const { swaps } = values;
  const out = values.out ?? `bench/data/tape-${swaps}.json`;
  const bar = generationBar('bench:gen');
  const generator = writeTape(
    out,
    {
      swaps,
      leaders: values.leaders,
      tokens: values.tokens,
      marketWallets: values.wallets,
      leaderShare: values['leader-share'],
      days: values.days,
      seed: values.seed,
    },
    bar.update,
  );
  bar.finish();
  process.stdout.write(`wrote ${out} (${swaps} swaps) and ${requestPathOf(out)}\n`);
  const sweepSize = values.requests;
  if (sweepSize > 0) {
    const path = requestsPathOf(out);
    const lines = requestVariants(generator.request(), sweepSize).map((r) => JSON.stringify(r));
    writeFileSync(path, `${lines.join('\n')}\n`);
    process.stdout.write(`wrote ${path} (${sweepSize} requests for a sweep)\n`);
  }
}

if (isMain(import.meta.url)) runScript('bench:gen', USAGE, main);
