/**
 * A JSON tape in time order simulated as a stream, its swaps array parsed a block at a time by a
 * thread of its own: byte for byte the response and the warnings of the tape read whole, and the
 * whole reading (with its errors) for every tape that cannot stream so.
 */
import { constants } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { builtScriptIfAny } from '../../src/built-script.js';
import { dealsOf, diagnose, tradeWarnings } from '../../src/diagnose/index.js';
import { writeResponseParts } from '../../src/io/json-stream.js';
import { BlockNumbering, decodeBlock, swapBlocks } from '../../src/io/json-tape/blocks.js';
import { readJsonTapeLayout } from '../../src/io/json-tape/layout.js';
import { prestartReadingThread, waitingThreads } from '../../src/io/reading-thread.js';
import {
  MARKET_UP_TO_BYTES,
  simulateJsonFileParts,
  simulateJsonFileStreamed,
} from '../../src/io/json-tape/simulate.js';
import { Doubles } from '../../src/io/parquet/column-wire.js';
import { TapeMarket, type MarketPrices } from '../../src/diagnose/market-prices.js';
import { resolveEngineOptions } from '../../src/model/options.js';
import { LazyStrings } from '../../src/io/parquet/fast-strings.js';
import { readTapeFile } from '../../src/io/read-tape.js';
import type { EngineOptionsInput } from '../../src/model/options.js';
import type { TapeInput } from '../../src/model/tape.js';
import type { ResponseParts } from '../../src/report/response.js';
import { simulateParts } from '../../src/simulate.js';
import { Random } from '../../bench/random.js';
import { cli } from '../support/cli.js';
import { copierScenarioArb } from '../support/arbitraries.js';
import { COPIER_CASES_DIR, MODEL_CASES_DIR, present, STRATEGY_CASES_DIR } from '../support/paths.js';
import {
  at,
  buy,
  DAY_START,
  FLAT_OPTIONS,
  LEADER_A,
  MARKET,
  request,
  sell,
  tape,
  TOKEN_X,
} from '../support/scenario.js';

const dir = mkdtempSync(join(tmpdir(), 'copysim-json-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

function writeText(text: string): string {
  const path = join(dir, `tape-${files++}.json`);
  writeFileSync(path, text);
  return path;
}

/** The tape as a JSON file, one swap a line (as copysim writes tapes), its swaps last. */
function writeTape(t: TapeInput): string {
  const { swaps, ...header } = t;
  const head = JSON.stringify(header).slice(0, -1);
  return writeText(`${head},"swaps":[\n${swaps.map((s) => JSON.stringify(s)).join(',\n')}\n]}\n`);
}

function text(parts: ResponseParts): string {
  let out = '';
  writeResponseParts(parts, (t) => (out += t));
  return out;
}

/** The response and warnings of the tape file read whole, as `copysim simulate` prints them. */
function whole(path: string, req: unknown, options: EngineOptionsInput = {}): { out: string; err: string } {
  const indexed = readTapeFile(path);
  const parts = simulateParts(indexed, req, options, { copierPoints: true });
  const warnings = diagnose(indexed, req, { response: parts, options });
  return {
    out: `${text(parts)}\n`,
    err: warnings.map((w) => `copysim simulate: warning: ${w.message}\n`).join(''),
  };
}

/** `copysim simulate` of the tape file, the request and options written beside it. */
async function simulateCli(path: string, req: unknown, options: EngineOptionsInput = {}) {
  const requestPath = join(dir, `request-${files++}.json`);
  const optionsPath = join(dir, `options-${files++}.json`);
  writeFileSync(requestPath, JSON.stringify(req));
  writeFileSync(optionsPath, JSON.stringify(options));
  return cli('simulate', '--tape', path, '--request', requestPath, '--options', optionsPath);
}

const wallet = (k: number): string => `W${String(k).padStart(43, '1')}`;
const token = (k: number): string => `T${String(k).padStart(43, 'x')}`;

/**
 * A tape of `count` swaps in time order: 40 wallets (the first 4 followed) on 12 tokens, prices
 * drifting, every value form a tape takes (decimal strings, numbers, both in one field, null and
 * missing liquidities), and now and then a dust swap at a tenth of the price: a junk print the
 * warnings name.
 */
function generatedTape(count: number, seed: number): TapeInput {
  const random = new Random(seed);
  const next = (): number => random.next();
  const prices = Array.from({ length: 12 }, (_, t) => 0.001 * (t + 1));
  const swaps = Array.from({ length: count }, (_, k) => {
    const t = Math.floor(next() * 12);
    prices[t]! *= 0.97 + 0.06 * next();
    const junk = next() < 0.01;
    const price = junk ? prices[t]! / 10 : prices[t]!;
    const amount = junk ? 0.5 : Math.round(10 + 2000 * next());
    const swap: Record<string, unknown> = {
      wallet: wallet(Math.floor(next() * 40)),
      token: token(t),
      type: next() < 0.55 ? 'buy' : 'sell',
      time: DAY_START + Math.floor(k * 3.7),
      quantity: (amount / price).toPrecision(12),
      usd_price: k % 7 === 0 ? price : price.toPrecision(10),
      usd_amount: k % 5 === 0 ? String(amount) : amount,
    };
    if (k % 3 === 0) swap.usd_liquidity = 50_000 + k;
    else if (k % 3 === 1) swap.usd_liquidity = null;
    if (k % 4 === 0) swap.transaction_hash = `sig${k}`;
    return swap;
  });
  return tape(swaps as never, { tokens: { [token(0)]: { name: 'Token 0', symbol: 'T0' } } });
}

const followed = request({
  wallets: [wallet(0), wallet(1), wallet(2), wallet(3)],
  max_dupe_buy_times: 2,
  inactivity_time_fix: { hours: 1 },
  strategy: { copy_delay_seconds: 5 },
} as never);

describe('a JSON tape streamed while a thread parses its swaps', () => {
  it('uses the compiled thread script (the tests run after the build)', () => {
    expect(builtScriptIfAny('io/json-tape/block-thread.js'), 'run `npm run build` first').not.toBeNull();
  });

  it('gives the response and the warnings of the tape read whole, on a tape of many blocks', async () => {
    const path = writeTape(generatedTape(30_000, 7));
    expect(readJsonTapeLayout(path)).not.toBeNull();
    const streamed = simulateJsonFileStreamed(path, followed, FLAT_OPTIONS);
    expect(streamed, 'the tape streams').not.toBeNull();
    const expected = whole(path, followed, FLAT_OPTIONS);
    expect(`${text(streamed!.parts)}\n`).toBe(expected.out);
    // The junk prints are named, with the swaps they were priced from, as with the tape in memory.
    expect(expected.err).toMatch(/follower trades? (was|were) filled at a price 10× or more away/);
    expect(expected.err).toMatch(/priced from swaps\[\d+\] \(/);
    const run = await simulateCli(path, followed, FLAT_OPTIONS);
    expect(run.code).toBe(0);
    expect(run.out).toBe(expected.out);
    expect(run.err).toBe(expected.err);
  });

  it('a thread started ahead of its data is taken by the stream, with the same response', () => {
    const path = writeTape(generatedTape(3_000, 11));
    prestartReadingThread('io/json-tape/block-thread.js');
    expect(waitingThreads()).toEqual(['io/json-tape/block-thread.js']);
    const streamed = simulateJsonFileStreamed(path, followed, FLAT_OPTIONS);
    expect(waitingThreads()).toEqual([]);
    expect(`${text(streamed!.parts)}\n`).toBe(whole(path, followed, FLAT_OPTIONS).out);
  });

  it('a thread started ahead that nothing takes does not keep the process up', () => {
    const script = `import('${pathToFileURL(join('dist', 'src', 'io', 'reading-thread.js')).href}')
      .then((m) => { m.prestartReadingThread('io/json-tape/block-thread.js'); console.log(m.waitingThreads().length); })`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect([run.status, run.signal, run.stdout.trim()]).toEqual([0, null, '1']);
  });

  it('on eth, numbers an address in any case as one wallet or token, as the whole reading does', async () => {
    const mixed = (address: string, k: number) => (k % 3 === 0 ? address.toUpperCase() : address.toLowerCase());
    const sol = generatedTape(6_000, 5);
    const eth = tape(
      sol.swaps.map((s, k) => ({ ...s, wallet: mixed(s.wallet, k), token: mixed(s.token, k + 1) })),
      { network: 'eth', tokens: { [token(1).toUpperCase()]: { name: 'Token 1', symbol: 'T1' } } },
    );
    const path = writeTape(eth);
    const ethRequest = { ...followed, network: 'eth' };
    expect(simulateJsonFileStreamed(path, ethRequest, FLAT_OPTIONS)).not.toBeNull();
    const expected = whole(path, ethRequest, FLAT_OPTIONS);
    expect(expected.out).toMatch(/"symbol":"T1"/);
    expect(await simulateCli(path, ethRequest, FLAT_OPTIONS)).toEqual({ code: 0, ...expected });
  });

  it("gathers the market of the tape in memory: each token's observations, prices and swaps", async () => {
    const path = writeTape(generatedTape(5_000, 11));
    const indexed = readTapeFile(path);
    for (const options of [FLAT_OPTIONS, { ...FLAT_OPTIONS, min_price_swap_usd: 1 }]) {
      const streamed = simulateJsonFileStreamed(path, followed, options)!.market!;
      const inMemory = new TapeMarket(indexed, resolveEngineOptions(options));
      const observations = (market: MarketPrices) =>
        indexed.tokens.map(({ address }) => {
          const t = market.tokenId(address);
          if (t === undefined) return [];
          const positions = Array.from(
            { length: market.start[t + 1]! - market.start[t]! },
            (_, k) => market.start[t]! + k,
          );
          return positions.map((at) => [market.swapIndex(at), market.price(at)]);
        });
      expect(observations(streamed)).toEqual(observations(inMemory));
      // With min_price_swap_usd the dust swaps (0.5 USD) are no observation.
      const count = observations(streamed).flat().length;
      expect(count).toBe(
        options === FLAT_OPTIONS ? 5_000 : indexed.swaps.filter((s) => Number(s.usd_amount) >= 1).length,
      );
      for (const time of [DAY_START - 1, DAY_START + 1000, DAY_START + 9_000, DAY_START + 30_000]) {
        const first = (market: MarketPrices) =>
          indexed.tokens.map(({ address }) => market.firstAfter(market.tokenId(address)!, time));
        expect(first(streamed)).toEqual(first(inMemory));
      }
      const run = await simulateCli(path, followed, options);
      expect(run.err).toBe(whole(path, followed, options).err);
    }
  });

  it('gathers no market for a tape larger than the whole reading takes, as a JSONL stream', () => {
    const path = writeTape(generatedTape(2_000, 3));
    const small = simulateJsonFileStreamed(path, followed, FLAT_OPTIONS);
    const large = simulateJsonFileStreamed(path, followed, FLAT_OPTIONS, undefined, undefined, 1000);
    expect(small!.market).not.toBeNull();
    expect(large!.market).toBeNull();
    expect(text(large!.parts)).toBe(text(small!.parts));
    expect(MARKET_UP_TO_BYTES).toBe(constants.MAX_STRING_LENGTH);
  });

  it('a fill at a junk print: the same warning, its swap read again from the file', async () => {
    const market = Array.from({ length: 41 }, (_, k) => buy(MARKET, TOKEN_X, at(10 * k), 5, 1));
    const JUNK = 'Junk1111111111111111111111111111111111111111';
    const junk = sell(JUNK, TOKEN_X, at(103), 0.01, 0.01, { usd_amount: 0.0001 });
    const leader = [buy(LEADER_A, TOKEN_X, at(100), 1000, 1), sell(LEADER_A, TOKEN_X, at(300), 1000, 1)];
    const swaps = [...market, ...leader, junk].sort((a, b) => a.time - b.time);
    const path = writeTape(tape(swaps));
    const late = request({ strategy: { copy_delay_seconds: 5 } });
    expect(simulateJsonFileStreamed(path, late, FLAT_OPTIONS)).not.toBeNull();
    const run = await simulateCli(path, late, FLAT_OPTIONS);
    const junkIndex = swaps.indexOf(junk);
    expect(run.err).toContain(
      `priced from swaps[${junkIndex}] (sell by ${JUNK} at 2024-03-10T00:01:43Z, 0.0001 USD at 0.01)`,
    );
    expect(run.err).toBe(whole(path, late, FLAT_OPTIONS).err);
  });
});

describe('generated scenarios (every member of the model), streamed in time order', () => {
  it('gives the response of the tape in memory, and its trades checked against the same market', () => {
    fc.assert(
      fc.property(copierScenarioArb(30), ({ tape: t, request: r, options }) => {
        const sorted = { ...t, swaps: [...t.swaps].sort((a, b) => a.time - b.time) };
        const path = writeTape(sorted);
        let expected: ResponseParts;
        try {
          expected = simulateParts(t, r, options, { copierPoints: true });
        } catch (e) {
          // A tape the engine cannot use (no native price for a fee) fails the same way streamed.
          expect(() => simulateJsonFileStreamed(path, r, options)).toThrow((e as Error).message);
          return;
        }
        const streamed = simulateJsonFileStreamed(path, r, options);
        expect(streamed).not.toBeNull();
        expect(text(streamed!.parts)).toBe(text(expected));
        expect(tradeWarnings(dealsOf(streamed!.parts), streamed!.market, options)).toEqual(
          tradeWarnings(dealsOf(expected), readTapeFile(path), options),
        );
      }),
      { numRuns: 60 },
    );
  });
});

describe('every case of ../shared/cases: streamed or read whole, the same output', () => {
  const folders = [MODEL_CASES_DIR, STRATEGY_CASES_DIR, COPIER_CASES_DIR];
  it.skipIf(!folders.every(present))('the response and warnings of each case (skipped: ../shared/cases absent)', () => {
    let streamedCases = 0;
    let cases = 0;
    for (const folder of folders) {
      for (const name of readdirSync(folder).sort()) {
        const tapePath = join(folder, name, 'tape.json');
        if (!existsSync(tapePath)) continue;
        const expected = JSON.parse(readFileSync(join(folder, name, 'expected.json'), 'utf8')) as { exit_code: number };
        if (expected.exit_code !== 0) continue;
        const req = JSON.parse(readFileSync(join(folder, name, 'request.json'), 'utf8')) as unknown;
        const options = JSON.parse(readFileSync(join(folder, name, 'options.json'), 'utf8')) as EngineOptionsInput;
        const t = JSON.parse(readFileSync(tapePath, 'utf8')) as TapeInput;
        const ordered = t.swaps.every((s, i) => i === 0 || s.time >= t.swaps[i - 1]!.time);
        // The case's tape as written, and as copysim writes a tape (its swaps last).
        for (const path of [tapePath, writeTape(t)]) {
          const streamed = simulateJsonFileStreamed(path, req, options);
          if (path !== tapePath) expect(streamed !== null, `${name}: streams when in time order`).toBe(ordered);
          cases++;
          if (streamed === null) continue;
          streamedCases++;
          const indexed = readTapeFile(path);
          const parts = simulateParts(indexed, req, options, { copierPoints: true });
          expect(text(streamed.parts), name).toBe(text(parts));
          // The trades checked against the market gathered as the tape streamed by.
          expect(tradeWarnings(dealsOf(streamed.parts), streamed.market, options), name).toEqual(
            tradeWarnings(dealsOf(parts), indexed, options),
          );
        }
      }
    }
    expect(cases).toBeGreaterThan(50);
    expect(streamedCases).toBeGreaterThan(cases / 4);
  });
});

describe('a JSON tape that cannot stream is read whole', () => {
  const swaps = [
    buy(LEADER_A, TOKEN_X, at(0), 100, '1.5', { usd_liquidity: 10_000 }),
    buy(MARKET, TOKEN_X, at(10), 50, '1.6'),
    sell(LEADER_A, TOKEN_X, at(40), 150, '2.5'),
  ];
  const t = tape(swaps);

  it('finds the swaps array as the last member, whatever the members before it hold', () => {
    const tricky = writeText(
      `{"network":"sol","tokens":{"swaps":{"name":"swaps\\"]"}},"native_prices":${JSON.stringify(t.native_prices)},` +
        `"swaps" : [ ${swaps.map((s) => JSON.stringify(s)).join(' , ')} ] }`,
    );
    const layout = readJsonTapeLayout(tricky)!;
    expect(layout.header).toEqual({
      network: 'sol',
      tokens: { swaps: { name: 'swaps"]' } },
      native_prices: t.native_prices,
      swaps: [],
    });
    expect(JSON.parse(`[${readFileSync(tricky, 'latin1').slice(layout.bodyStart, layout.bodyEnd)}]`)).toEqual(swaps);
    // The key "swaps" across two of the reads (64 KiB each) that look for it.
    const head = `{"network":"sol","tokens":{"T":{"name":"`;
    const tail = `"}},"swaps":[`;
    const name = 'n'.repeat((1 << 16) - head.length - tail.length + 3);
    const straddling = writeText(`${head}${name}${tail}${swaps.map((s) => JSON.stringify(s)).join(',')}]}`);
    expect(readJsonTapeLayout(straddling)?.bodyStart).toBe((1 << 16) + 3);
    // A byte-order mark, an array, no swaps array, an empty file: read whole.
    expect(readJsonTapeLayout(writeText(`\uFEFF${JSON.stringify(t)}`))).toBeNull();
    expect(readJsonTapeLayout(writeText(JSON.stringify([t])))).toBeNull();
    expect(readJsonTapeLayout(writeText('{"network":"sol"}'))).toBeNull();
    expect(readJsonTapeLayout(writeText(''))).toBeNull();
  });

  it('the swaps before other members: the last block does not parse, and the tape is read whole', async () => {
    const { swaps: _, native_prices, ...header } = t;
    const path = writeText(JSON.stringify({ ...header, swaps, native_prices }));
    expect(simulateJsonFileStreamed(path, request())).toBeNull();
    expect(await simulateCli(path, request())).toEqual({ code: 0, ...whole(path, request()) });
  });

  it('cuts the array between swaps only; a cut inside a string leaves a block that does not parse', () => {
    const body = swaps.map((s) => JSON.stringify(s)).join(', \n');
    const path = writeText(`{"swaps":[${body}]}`);
    const layout = readJsonTapeLayout(path)!;
    // Blocks of 64 bytes: each swap (about 130 bytes) is a block of its own, read whole.
    const blocks = [...swapBlocks(path, layout.bodyStart, layout.bodyEnd, 64)];
    expect(blocks.length).toBe(swaps.length);
    expect(blocks.map((b) => b.bytes.toString('latin1')).join(',')).toBe(body);
    expect(blocks.map((b) => JSON.parse(b.bytes.toString('latin1')) as unknown)).toEqual(swaps);
    // A hash holding "},{": the cut there leaves both sides unbalanced.
    const odd = { ...swaps[0], transaction_hash: `x"}, {"y` };
    const oddBody = JSON.stringify(odd).replace('"}, {"', '"}, {"');
    const oddPath = writeText(`{"swaps":[${oddBody}]}`);
    const oddLayout = readJsonTapeLayout(oddPath)!;
    const oddBlocks = [...swapBlocks(oddPath, oddLayout.bodyStart, oddLayout.bodyEnd, 64)];
    expect(oddBlocks.length).toBe(1);
    const numbering = new BlockNumbering('sol', []);
    expect(decodeBlock(oddBlocks[0]!.bytes, 0, numbering, null)).toMatchObject({ rows: 1 });
    const cut = decodeBlock(Buffer.from(oddBody.slice(0, oddBody.indexOf(', {'))), 0, numbering, null);
    expect(cut).toMatchObject({ refused: expect.stringMatching(/^not JSON/) });
  });

  it("turns a block's swaps into columns: strings, doubles, or both as they are", () => {
    const block = [
      { wallet: 'A', token: 'T', type: 'buy', time: 5, quantity: '1.50', usd_price: 2, usd_liquidity: null },
      { wallet: 'B', token: 'T', type: 'sell', time: 6, quantity: '3', usd_price: 4, usd_amount: '7.5' },
      { wallet: 'A', token: 'U', type: 'buy', time: 7, quantity: '2', usd_price: 8, usd_amount: 1.25 },
    ];
    // On eth an address is one in any case: B is followed as b, U numbered as T's successor.
    const numbering = new BlockNumbering('eth', ['x', 'b']);
    numbering.token('t');
    const decoded = decodeBlock(Buffer.from(block.map((s) => JSON.stringify(s)).join(',')), 10, numbering, null);
    if (!('columns' in decoded)) throw new Error(decoded.refused);
    const { columns } = decoded;
    expect([...decoded.leaders]).toEqual([-1, 1, -1]);
    expect([...decoded.tokens]).toEqual([0, 0, 1]);
    expect(columns.quantity).toBeInstanceOf(LazyStrings);
    expect([0, 1, 2].map((i) => (columns.quantity as LazyStrings).at(i))).toEqual(['1.50', '3', '2']);
    expect(columns.usd_price).toBeInstanceOf(Doubles);
    expect(columns.usd_amount).toEqual([undefined, '7.5', 1.25]);
    expect([0, 1, 2].map((i) => (columns.usd_liquidity as LazyStrings).at(i))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect([...(columns.explicit_nulls as Uint8Array)]).toEqual([2, 0, 0]);
    // Each price's double word, high part then low part: whole numbers are exact.
    expect([...decoded.priceWords]).toEqual([2, 0, 4, 0, 8, 0]);
    const bad = decodeBlock(Buffer.from(JSON.stringify({ ...block[0], usd_price: -1 })), 10, numbering, null);
    expect(bad).toEqual({ refused: 'swap 10 is not valid' });
  });

  it('out of time order, a bad swap, another network: the output and errors of the whole reading', async () => {
    const unordered = writeTape(tape([swaps[1]!, swaps[0]!, swaps[2]!]));
    expect(simulateJsonFileStreamed(unordered, request())).toBeNull();
    expect(await simulateCli(unordered, request())).toEqual({ code: 0, ...whole(unordered, request()) });
    const badSwap = writeTape(tape([...swaps, { ...swaps[2]!, time: at(50), quantity: '-1' }]));
    expect(simulateJsonFileStreamed(badSwap, request())).toBeNull();
    const refused = await simulateCli(badSwap, request());
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/swap 3: swaps\[3\]\.quantity/);
    const eth = writeTape(tape(swaps, { network: 'eth' }));
    expect(simulateJsonFileStreamed(eth, request())).toBeNull();
    expect((await simulateCli(eth, request())).err).toMatch(
      /holds swaps of network "eth" but the request asks for "sol"/,
    );
    const notJson = writeText(`${JSON.stringify(t).slice(0, -3)},]}`);
    expect(simulateJsonFileStreamed(notJson, request())).toBeNull();
    expect((await simulateCli(notJson, request())).err).toMatch(/is not valid JSON/);
  });

  it('a tape without swaps streams too, with the warnings of an empty tape', async () => {
    const empty = writeText(`{"network":"sol","native_prices":[[${DAY_START},100]],"swaps":[\n]}`);
    expect(simulateJsonFileStreamed(empty, request())).not.toBeNull();
    const run = await simulateCli(empty, request());
    expect(run).toEqual({ code: 0, ...whole(empty, request()) });
    expect(run.err).toMatch(/warning/);
  });

  it('simulateJsonFileParts streams when it can and reads the tape whole when not', () => {
    const ordered = writeTape(t);
    const unordered = writeTape(tape([swaps[1]!, swaps[0]!, swaps[2]!]));
    for (const path of [ordered, unordered]) {
      expect(text(simulateJsonFileParts(path, request()))).toBe(whole(path, request()).out.slice(0, -1));
    }
  });
});
