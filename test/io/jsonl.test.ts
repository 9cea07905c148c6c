/**
 * The JSONL tape form and the streaming replay: the same response as the JSON tape, every
 * problem named by its line, the swaps required in non-decreasing time.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { TapeInput } from '../../src/model/tape.js';
import { simulate, simulateStream } from '../../src/simulate.js';
import { JsonlTapeFile, simulateJsonlFile } from '../../src/io/jsonl-tape.js';
import { readTapeFile } from '../../src/io/read-tape.js';
import { cli } from '../support/cli.js';
import { inputErrorOf } from '../support/errors.js';
import { scenarioArb } from '../support/arbitraries.js';
import { MODEL_CASES_DIR, present } from '../support/paths.js';
import { at, buy, LEADER_A, MARKET, request, sell, tape, TOKEN_X } from '../support/scenario.js';

const dir = mkdtempSync(join(tmpdir(), 'copysim-jsonl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** Writes `tape` as JSONL (header line, one swap a line) and returns the file's path. */
function writeJsonl(t: TapeInput, lineEnd = '\n'): string {
  const { swaps, ...header } = t;
  const path = join(dir, `tape-${files++}.jsonl`);
  writeFileSync(path, [header, ...swaps].map((v) => JSON.stringify(v)).join(lineEnd) + lineEnd);
  return path;
}

function writeText(text: string): string {
  const path = join(dir, `text-${files++}.jsonl`);
  writeFileSync(path, text);
  return path;
}

/** The swaps in event order: a stable sort by time, which leaves the result unchanged. */
function inTimeOrder(t: TapeInput): TapeInput {
  return { ...t, swaps: [...t.swaps].sort((a, b) => a.time - b.time) };
}

// Two leader buys and a sell on one token, with market swaps between: 3 follower trades.
const small = tape([
  buy(LEADER_A, TOKEN_X, at(0), 100, '1.5', { usd_liquidity: 10_000 }),
  buy(MARKET, TOKEN_X, at(10), 50, '1.6'),
  buy(LEADER_A, TOKEN_X, at(20), 100, 2),
  sell(MARKET, TOKEN_X, at(30), 20, '1.9', { usd_liquidity: null }),
  sell(LEADER_A, TOKEN_X, at(40), 150, '2.5'),
]);

describe('a JSONL tape gives the same response as the JSON tape', () => {
  it('on a small tape, through simulateStream, the file reader and the command line', async () => {
    const expected = JSON.stringify(simulate(small, request()));
    const path = writeJsonl(small);
    expect(
      JSON.stringify(simulateStream({ network: 'sol', native_prices: small.native_prices }, small.swaps, request())),
    ).toBe(expected);
    expect(JSON.stringify(simulateJsonlFile(path, request()))).toBe(expected);
    const requestPath = join(dir, 'request.json');
    writeFileSync(requestPath, JSON.stringify(request()));
    const run = await cli('simulate', '--tape', path, '--request', requestPath);
    expect(run.code).toBe(0);
    expect(run.out).toBe(`${expected}\n`);
  });

  it('on generated scenarios (every feature of the model), streamed in time order', () => {
    fc.assert(
      fc.property(scenarioArb({}, 30), ({ tape: t, request: r, options }) => {
        const sorted = inTimeOrder(t);
        const { swaps, ...header } = sorted;
        let expected: string;
        try {
          expected = JSON.stringify(simulate(t, r, options));
        } catch (e) {
          // A tape the engine cannot use (no native price for a fee) fails the same way streamed.
          expect(() => simulateStream(header, swaps, r, options)).toThrow((e as Error).message);
          return;
        }
        expect(JSON.stringify(simulateStream(header, swaps, r, options))).toBe(expected);
        expect(JSON.stringify(simulateJsonlFile(writeJsonl(sorted), r, options))).toBe(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('whatever the chunk size, with CRLF line ends, blank lines and no final newline', () => {
    const expected = JSON.stringify(simulate(small, request()));
    const { swaps, ...header } = small;
    const lines = [header, ...swaps].map((v) => JSON.stringify(v));
    const texts = [`${lines.join('\r\n')}\r\n`, lines.join('\n'), `${lines[0]}\n\n${lines.slice(1).join('\n\n')}\n\n`];
    for (const text of texts) {
      const path = writeText(text);
      for (const chunkBytes of [16, 97, 1 << 20]) {
        const file = new JsonlTapeFile(path, undefined, chunkBytes);
        try {
          expect(JSON.stringify(simulateStream(file.header, file.swaps(), request()))).toBe(expected);
        } finally {
          file.close();
        }
      }
    }
  });

  it('reports progress in bytes up to the whole file', () => {
    const path = writeJsonl(small);
    const seen: [number, number][] = [];
    simulateJsonlFile(path, request(), {}, { onProgress: (read, size) => seen.push([read, size]), chunkBytes: 64 });
    const size = readFileSync(path).length;
    expect(seen.at(-1)).toEqual([size, size]);
  });

  it('in memory (readTapeFile), a JSONL tape may be in any order', () => {
    const shuffled = { ...small, swaps: [...small.swaps].reverse() };
    expect(JSON.stringify(simulate(readTapeFile(writeJsonl(shuffled)), request()))).toBe(
      JSON.stringify(simulate(small, request())),
    );
  });
});

const goldenCases = present(MODEL_CASES_DIR)
  ? readdirSync(MODEL_CASES_DIR)
      .filter((d) => present(join(MODEL_CASES_DIR, d, 'expected.json')))
      .sort()
  : [];
if (goldenCases.length === 0) console.warn(`JSONL golden comparison skipped: no cases under ${MODEL_CASES_DIR}`);

describe.skipIf(goldenCases.length === 0)('golden cases as JSONL tapes (../shared/golden)', () => {
  it.each(goldenCases)('%s', async (name) => {
    const caseDir = join(MODEL_CASES_DIR, name);
    const t = JSON.parse(readFileSync(join(caseDir, 'tape.json'), 'utf8')) as TapeInput;
    const args = ['--request', join(caseDir, 'request.json'), '--options', join(caseDir, 'options.json')];
    const fromJson = await cli('simulate', '--tape', join(caseDir, 'tape.json'), ...args);
    const sortedTimes = t.swaps.every((s, i) => i === 0 || t.swaps[i - 1]!.time <= s.time);
    const streamed = await cli('simulate', '--tape', writeJsonl(t), ...args);
    if (sortedTimes) {
      // The same exit code and output; an error message names the JSONL file instead.
      expect({ code: streamed.code, out: streamed.out }).toEqual({ code: fromJson.code, out: fromJson.out });
      expect(streamed.err === '').toBe(fromJson.err === '');
    } else {
      // Out of time order: refused, naming the first line that comes too early.
      const first = t.swaps.findIndex((s, i) => i > 0 && s.time < t.swaps[i - 1]!.time);
      expect(streamed.code).toBe(fromJson.code === 2 ? 2 : 1);
      if (streamed.code === 1) expect(streamed.err).toContain(`line ${first + 2}: tape: swap ${first}: time`);
      // In time order, the same response as the JSON tape.
      const inOrder = await cli('simulate', '--tape', writeJsonl(inTimeOrder(t)), ...args);
      expect({ code: inOrder.code, out: inOrder.out }).toEqual({ code: fromJson.code, out: fromJson.out });
    }
  });
});

describe('problems in a JSONL tape are named by line', () => {
  const header = JSON.stringify({ network: 'sol', native_prices: [[0, 100]] });
  const swap = (time: number, extra: object = {}): string =>
    JSON.stringify({ ...buy(LEADER_A, TOKEN_X, time, 1, 2), ...extra });

  it.each([
    ['a line that is not JSON', `${header}\n${swap(at(1))}\n{"wallet": oops}\n`, /line 3: not valid JSON/],
    ['two values on one line', `${header}\n${swap(at(1))},${swap(at(2))}\n`, /line 2: not valid JSON/],
    [
      'an invalid swap',
      `${header}\n${swap(at(1))}\n\n${swap(at(2), { usd_price: '-1' })}\n`,
      /line 4: tape: swap 1: swaps\[1\]\.usd_price: expected a decimal > 0/,
    ],
    [
      'a swap out of time order',
      `${header}\n${swap(at(5))}\n${swap(at(5))}\n${swap(at(4))}\n`,
      /line 4: tape: swap 2: time 1710028804 is earlier than the time 1710028805/,
    ],
    [
      'an invalid swap after window_end',
      `${header}\n${swap(at(1))}\n${swap(at(999_999), { type: 'hold' })}\n`,
      /line 3: tape: swap 1: swaps\[1\]\.type/,
    ],
    ['an invalid header', `{"network": "btc"}\n${swap(at(1))}\n`, /line 1: tape: network/],
    ['a blank first line', `\n${header}\n`, /line 1: expected the tape header/],
    ['a JSON tape named .jsonl', `${JSON.stringify(small)}\n`, /line 1: a JSONL tape lists its swaps one a line/],
    ['an empty file', '', /line 1: the file is empty \(0 bytes\): expected the tape header/],
  ])('%s', (_name, text, message) => {
    const path = writeText(text);
    // The same line whatever the size of the blocks the file is read in.
    for (const chunkBytes of [16, 100, undefined]) {
      const e = inputErrorOf(() =>
        simulateJsonlFile(path, request(), {}, chunkBytes === undefined ? {} : { chunkBytes }),
      );
      expect(e.message).toMatch(message);
      expect(e.message.startsWith(`${path}: line `)).toBe(true);
      expect(e.location.source).toBe(path);
    }
  });

  it('the same lines are named when the tape is read into memory', () => {
    const path = writeText(`${header}\n${swap(at(1))}\n${swap(at(2), { quantity: 0 })}\n`);
    expect(inputErrorOf(() => readTapeFile(path)).message).toMatch(/line 3: tape: swap 1: swaps\[1\]\.quantity/);
  });

  it('a missing file is an input error naming it', () => {
    expect(inputErrorOf(() => simulateJsonlFile(join(dir, 'none.jsonl'), request())).message).toMatch(
      /none\.jsonl: no such file/,
    );
  });

  it('an invalid request is refused before any swap is read', () => {
    const path = writeText(`${header}\n{broken\n`);
    expect(() => simulateJsonlFile(path, { ...request(), wallets: [] })).toThrow(/invalid request/);
  });
});
