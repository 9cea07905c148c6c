/**
 * Fuzz of the tape readers and the importers (docs/errors.md): random bytes, valid files cut
 * short, bytes spliced in, and valid inputs with one member replaced by any JSON value. Each
 * reader must give a valid tape (which then simulates, or refuses with an input error) or throw
 * a `CopysimError` whose message is text a user can read: never a TypeError, a RangeError, a
 * stack trace or a NaN.
 *
 * Fixed seed, COPYSIM_FUZZ_RUNS inputs a reader (default 200); set it higher for a longer run
 * (COPYSIM_FUZZ_SEED picks another seed).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CopysimError,
  indexTape,
  readTapeFile,
  simulate,
  simulateJsonlFile,
  SimulatorResponseSchema,
} from '../../src/index.js';
import {
  importCsv,
  importPumpSwap,
  importUniswap,
  parseColumnMapping,
  parsePoolInfo,
  parsePriceSeries,
  type ImportResult,
  type UniswapPool,
} from '../../src/import.js';
import {
  at,
  buy,
  FLAT_NATIVE,
  LEADER_A,
  LEADER_B,
  MARKET,
  request,
  sell,
  TOKEN_X,
  TOKEN_Y,
} from '../support/scenario.js';

const RUNS = Number(process.env.COPYSIM_FUZZ_RUNS ?? 200);
const SEED = Number(process.env.COPYSIM_FUZZ_SEED ?? 20_261_125);
const dir = mkdtempSync(join(tmpdir(), 'copysim-reader-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// ---- valid inputs to start from ----

const TAPE = {
  network: 'sol',
  tokens: { [TOKEN_X]: { name: 'X', symbol: 'X' } },
  native_prices: FLAT_NATIVE,
  swaps: [
    buy(MARKET, TOKEN_X, at(50), 5, 1, { usd_liquidity: 50_000 }),
    buy(LEADER_A, TOKEN_X, at(100), 1000, '1.5'),
    buy(LEADER_B, TOKEN_Y, at(120), '20', 3, { transaction_hash: '0xabc' }),
    sell(LEADER_A, TOKEN_X, at(200), 500, 2, { usd_amount: 1000 }),
    sell(LEADER_B, TOKEN_Y, at(300), 20, '2.5'),
  ],
};
const REQUEST = request({ wallets: [LEADER_A, LEADER_B] });
const JSON_TAPE = JSON.stringify(TAPE);
const JSONL_TAPE = [
  JSON.stringify({ network: TAPE.network, tokens: TAPE.tokens, native_prices: TAPE.native_prices }),
  ...TAPE.swaps.map((s) => JSON.stringify(s)),
].join('\n');

const CSV_COLUMNS = parseColumnMapping(
  'wallet=Trader,token=Token,type=Side,time=Time,quantity=Amount,usd_price=Price,usd_liquidity=Liq,transaction_hash=Tx',
);
const CSV = [
  'Trader,Token,Side,Time,Amount,Price,Liq,Tx',
  'W1,T1,BUY,1710028800,10,2.5,50000,0xa',
  '"W,2",T1,sell,2024-03-10 01:00:00,4,3,,',
  'W1,T2,buy,1710028900123,1,1e-3,,',
].join('\n');

const SOL_USD = parsePriceSeries('{"hourly_close": [[0, 100], [3600, 200], [7200, 150]]}', 'sol.json');
const PUMP_LINE = JSON.stringify({
  mint: 'MintA',
  created: 3600,
  swaps: [
    { trader: 'Trader1', side: 'buy', sol: 0.5, tokens: 500000, price: 0.000001, ts: 3700, src: 'PUMP_AMM', sig: 's1' },
    { trader: 'Trader1', side: 'sell', sol: 0.3, tokens: 200000, price: null, ts: 7300, src: 'PUMP_AMM' },
  ],
});

const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const XDAO = '0x71eeba415a523f5c952cc2f06361d5443545ad28';
const POOLS: UniswapPool[] = [
  {
    id: '0xpool2',
    token0: { id: XDAO, symbol: 'XDAO', name: 'XDAO' },
    token1: { id: WETH, symbol: 'WETH', name: null },
    token: XDAO,
  },
];
const UNISWAP_SWAPS = [
  {
    amount0In: '0',
    amount0Out: '10',
    amount1In: '0.5',
    amount1Out: '0',
    amountUSD: '600',
    from: '0xAbC',
    id: '0xh-0',
    logIndex: '1',
    timestamp: '1000',
    transaction: { blockNumber: '10' },
  },
  {
    amount0In: '4',
    amount0Out: '0',
    amount1In: '0',
    amount1Out: '0.2',
    amountUSD: '240',
    from: '0xAbC',
    id: '0xh2-0',
    logIndex: '1',
    timestamp: '2000',
    transaction: { blockNumber: '11' },
  },
];
const POOL_CSV =
  'id,token0_id,token0_symbol,token1_id,token1_symbol\n0xPool,0xAA,AAA,0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2,WETH\n';
const PRICES = 'Date,Open,High,Low,Close\n2024-03-10,100,110,90,105\n2024-03-11,105,120,100,115\n';

// ---- mutations ----

/** Odd values a member may be given instead of its own. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    -1,
    0,
    1e308,
    -0,
    1e-320,
    2 ** 53,
    1_710_064_800_000,
    '',
    ' ',
    'NaN',
    '1e99999',
    '-5',
    '0x10',
    '1,5',
    null,
    [],
    {},
    true,
  ),
);

/** Replaces (or deletes) the member at a path chosen by `picks` in a JSON value. */
function mutateJson(value: unknown, picks: readonly number[], replacement: unknown, remove: boolean): unknown {
  if (picks.length === 0 || value === null || typeof value !== 'object') return replacement;
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  if (keys.length === 0) return replacement;
  const key = keys[picks[0]! % keys.length]!;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  if (picks.length === 1 && remove) {
    if (Array.isArray(copy)) copy.splice(key as number, 1);
    else delete copy[key];
  } else {
    copy[key] = mutateJson(copy[key], picks.slice(1), replacement, remove);
  }
  return copy;
}

const jsonMutation = (seed: unknown): fc.Arbitrary<unknown> =>
  fc
    .record({ picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), replacement: oddValue, remove: fc.boolean() })
    .map(({ picks, replacement, remove }) => mutateJson(seed, picks, replacement, remove));

/** Text derived from a valid text: cut short, bytes spliced in, or random text altogether. */
const textMutation = (seed: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.nat().map((n) => seed.slice(0, n % (seed.length + 1))),
    fc
      .array(
        fc.record({ at: fc.nat(), cut: fc.nat({ max: 6 }), insert: fc.string({ unit: 'binary', maxLength: 6 }) }),
        { minLength: 1, maxLength: 4 },
      )
      .map((edits) =>
        edits.reduce(
          (s, e) => s.slice(0, e.at % (s.length + 1)) + e.insert + s.slice((e.at % (s.length + 1)) + e.cut),
          seed,
        ),
      ),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.constantFrom('', '\n', '{}', '[]', 'null', `\uFEFF${seed}`),
  );

/** Bytes for a file: the text mutations, a mutated JSON value, or random bytes (not always UTF-8). */
const fileBytes = (seed: string, json: unknown): fc.Arbitrary<Uint8Array> =>
  fc.oneof(
    textMutation(seed).map((t) => new TextEncoder().encode(t)),
    jsonMutation(json).map((v) => new TextEncoder().encode(JSON.stringify(v) ?? '')),
    fc.uint8Array({ maxLength: 300 }),
  );

// ---- the outcome every reader must have ----

/** The input as a file: one file an extension, written over for each input (the runs go one at a time). */
function fileOf(bytes: Uint8Array, extension: string): string {
  const path = join(dir, `input${extension}`);
  writeFileSync(path, bytes);
  return path;
}

/** A clear error (a `CopysimError` with a readable message), or a result that passes `check`. */
function clearErrorOr<T>(input: string, run: () => T, check: (result: T) => void): void {
  let result: T;
  try {
    result = run();
  } catch (e) {
    if (!(e instanceof CopysimError))
      throw new Error(
        `not a clear error for input ${JSON.stringify(input.slice(0, 300))}: ${(e as Error)?.stack ?? String(e)}`,
      );
    expect(e.message.length).toBeGreaterThan(0);
    expect(e.message).not.toMatch(/\n\s+at /); // no stack trace in the message
    if (!input.includes('NaN')) expect(e.message).not.toMatch(/\bNaN\b/);
    expect(e.message).not.toContain('[object Object]');
    return;
  }
  check(result);
}

/** A tape read or imported: valid, and a simulation over it answers or refuses clearly. */
function simulatesOrRefuses(input: string, tape: Parameters<typeof simulate>[0]): void {
  clearErrorOr(
    input,
    () => simulate(tape, { ...REQUEST, network: indexTape(tape).network }),
    (response) => {
      expect(SimulatorResponseSchema.safeParse(response).success).toBe(true);
    },
  );
}

function importResult(input: string): (result: ImportResult) => void {
  return (result) => {
    expect(() => indexTape(result.tape)).not.toThrow();
    simulatesOrRefuses(input, result.tape);
  };
}

const decode = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');
const options = { seed: SEED, numRuns: RUNS };

describe(`tape readers and importers under fuzzed input (${RUNS} inputs each, seed ${SEED})`, () => {
  it('the seeds themselves are valid', () => {
    expect(
      simulate(readTapeFile(fileOf(new TextEncoder().encode(JSON_TAPE), '.json')), REQUEST).deals.length,
    ).toBeGreaterThan(0);
    expect(
      simulateJsonlFile(fileOf(new TextEncoder().encode(JSONL_TAPE), '.jsonl'), REQUEST).deals.length,
    ).toBeGreaterThan(0);
    expect(importCsv(CSV, { network: 'sol', columns: CSV_COLUMNS }).report.kept).toBe(3);
    expect(importPumpSwap([PUMP_LINE], SOL_USD).report.kept).toBe(2);
    expect(importUniswap([{ pool: '0xpool2', swaps: UNISWAP_SWAPS, source: 'p.json' }], POOLS).report.kept).toBe(2);
  });

  it('readTapeFile, a JSON tape', () => {
    fc.assert(
      fc.property(fileBytes(JSON_TAPE, TAPE), (bytes) => {
        clearErrorOr(
          decode(bytes),
          () => readTapeFile(fileOf(bytes, '.json')),
          (tape) => simulatesOrRefuses(decode(bytes), tape),
        );
      }),
      options,
    );
  });

  it('readTapeFile, a JSONL tape', () => {
    const lines = JSONL_TAPE.split('\n').map((l) => JSON.parse(l) as unknown);
    const jsonl = jsonMutation(lines).map((v) =>
      Array.isArray(v) ? v.map((l) => JSON.stringify(l) ?? '').join('\n') : (JSON.stringify(v) ?? ''),
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fileBytes(JSONL_TAPE, TAPE),
          jsonl.map((t) => new TextEncoder().encode(t)),
        ),
        (bytes) => {
          clearErrorOr(
            decode(bytes),
            () => readTapeFile(fileOf(bytes, '.jsonl')),
            (tape) => simulatesOrRefuses(decode(bytes), tape),
          );
        },
      ),
      options,
    );
  });

  it('simulateJsonlFile, a JSONL tape streamed', () => {
    fc.assert(
      fc.property(fileBytes(JSONL_TAPE, TAPE), (bytes) => {
        clearErrorOr(
          decode(bytes),
          () => simulateJsonlFile(fileOf(bytes, '.jsonl'), REQUEST),
          (response) => {
            expect(SimulatorResponseSchema.safeParse(response).success).toBe(true);
          },
        );
      }),
      options,
    );
  });

  it('importCsv', () => {
    fc.assert(
      fc.property(textMutation(CSV), fc.constantFrom('sol' as const, 'eth' as const), (text, network) => {
        clearErrorOr(text, () => importCsv(text, { network, columns: CSV_COLUMNS }, 'fuzz.csv'), importResult(text));
      }),
      options,
    );
  });

  it('importPumpSwap', () => {
    const line = fc.oneof(
      textMutation(PUMP_LINE),
      jsonMutation(JSON.parse(PUMP_LINE)).map((v) => JSON.stringify(v) ?? ''),
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 3 }), (lines) => {
        clearErrorOr(lines.join('\n'), () => importPumpSwap(lines, SOL_USD), importResult(lines.join('\n')));
      }),
      options,
    );
  });

  it('importUniswap', () => {
    fc.assert(
      fc.property(jsonMutation(UNISWAP_SWAPS), (swaps) => {
        const text = JSON.stringify(swaps) ?? '';
        clearErrorOr(
          text,
          () => importUniswap([{ pool: '0xpool2', swaps: swaps as unknown[], source: 'p.json' }], POOLS),
          importResult(text),
        );
      }),
      options,
    );
  });

  it('parsePoolInfo and parsePriceSeries', () => {
    fc.assert(
      fc.property(textMutation(POOL_CSV), textMutation(PRICES), (pools, prices) => {
        clearErrorOr(
          pools,
          () => parsePoolInfo(pools, 'pools.csv'),
          (list) => expect(Array.isArray(list)).toBe(true),
        );
        clearErrorOr(
          prices,
          () => parsePriceSeries(prices, 'prices.csv'),
          (series) => expect(Array.isArray(series)).toBe(true),
        );
      }),
      options,
    );
  });
});
