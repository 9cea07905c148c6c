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
import { parseArgs } from 'node:util';
import { isMain } from './is-main.js';
import { DEFAULT_SHAPE, requestVariants, TapeGenerator, type TapeShape } from './tape-generator.js';

/** Parses a count such as `250000`, `250k` or `1.5m`. */
export function parseCount(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim());
  if (match === null) throw new Error(`not a count: "${text}" (try 100000, 100k or 1m)`);
  const scale = { '': 1, k: 1e3, m: 1e6 }[match[2]!.toLowerCase() as '' | 'k' | 'm'];
  return Math.round(Number(match[1]) * scale);
}

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
export function writeTape(path: string, shape: Partial<TapeShape>): TapeGenerator {
  const generator = new TapeGenerator(shape);
  const jsonl = path.endsWith('.jsonl');
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, 'w');
  const out = new ChunkedWriter(fd);
  const { network, tokens, native_prices } = generator.header;
  if (jsonl) {
    out.write(`${JSON.stringify({ network, tokens, native_prices })}\n`);
    for (const swap of generator.swaps()) out.write(`${JSON.stringify(swap)}\n`);
  } else {
    const head = JSON.stringify({ network, tokens, native_prices });
    out.write(`${head.slice(0, -1)},"swaps":[\n`);
    let first = true;
    for (const swap of generator.swaps()) {
      out.write(first ? JSON.stringify(swap) : `,\n${JSON.stringify(swap)}`);
      first = false;
    }
    out.write('\n]}\n');
  }
  out.flush();
  closeSync(fd);
  writeFileSync(requestPathOf(path), `${JSON.stringify(generator.request(), null, 1)}\n`);
  return generator;
}

/** `bench/data/tape.json` → `bench/data/tape.requests.jsonl`: the settings of a sweep. */
export function requestsPathOf(tapePath: string): string {
  return `${tapePath.replace(/\.jsonl?$/, '')}.requests.jsonl`;
}

/** `bench/data/tape.json` → `bench/data/tape.request.json`. */
export function requestPathOf(tapePath: string): string {
  return `${tapePath.replace(/\.jsonl?$/, '')}.request.json`;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      swaps: { type: 'string', default: String(DEFAULT_SHAPE.swaps) },
      leaders: { type: 'string', default: String(DEFAULT_SHAPE.leaders) },
      tokens: { type: 'string', default: String(DEFAULT_SHAPE.tokens) },
      wallets: { type: 'string', default: String(DEFAULT_SHAPE.marketWallets) },
      'leader-share': { type: 'string', default: String(DEFAULT_SHAPE.leaderShare) },
      days: { type: 'string', default: String(DEFAULT_SHAPE.days) },
      seed: { type: 'string', default: String(DEFAULT_SHAPE.seed) },
      requests: { type: 'string', default: '0' },
      out: { type: 'string' },
    },
  });
  const swaps = parseCount(values.swaps);
  const out = values.out ?? `bench/data/tape-${values.swaps}.json`;
  const generator = writeTape(out, {
    swaps,
    leaders: parseCount(values.leaders),
    tokens: parseCount(values.tokens),
    marketWallets: parseCount(values.wallets),
    leaderShare: Number(values['leader-share']),
    days: Number(values.days),
    seed: Number(values.seed),
  });
  process.stdout.write(`wrote ${out} (${swaps} swaps) and ${requestPathOf(out)}\n`);
  const sweepSize = parseCount(values.requests);
  if (sweepSize > 0) {
    const path = requestsPathOf(out);
    const lines = requestVariants(generator.request(), sweepSize).map((r) => JSON.stringify(r));
    writeFileSync(path, `${lines.join('\n')}\n`);
    process.stdout.write(`wrote ${path} (${sweepSize} requests for a sweep)\n`);
  }
}

if (isMain(import.meta.url)) main();
