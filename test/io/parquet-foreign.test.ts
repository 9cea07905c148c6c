/**
 * Parquet tapes written by other programs: DuckDB (@duckdb/node-api), arrow-rs (parquet-wasm) and
 * hyparquet-writer, with DOUBLE, FLOAT, integer, DECIMAL and TIMESTAMP columns and no copysim
 * metadata. Read with --network, --tokens and --native-prices, each gives `simulate` the same
 * response, byte for byte, as the same swaps in a JSON tape.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { fileWriter, ParquetWriter } from 'hyparquet-writer';
import { Compression, readParquet, writeParquet, WriterPropertiesBuilder, WriterVersion } from 'parquet-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTapeFile } from '../../src/index.js';
import { scaledText, shortestFloat32, signedBigEndian } from '../../src/io/parquet/column-types.js';
import { convertTapeFile } from '../../src/tape.js';
import { cli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'copysim-foreign-parquet-'));
const path = (name: string): string => join(dir, name);

const T0 = 1_710_028_800; // 2024-03-10T00:00:00Z
const WALLETS = ['Lead1', 'Lead2', 'Mkt1', 'Mkt2', 'Mkt3'];
const TOKENS = ['Tok1', 'Tok2', 'Tok3'];

/** A swap as both the JSON tape and the Parquet writers take it: decimals as text. */
interface Row {
  wallet: string;
  token: string;
  type: 'buy' | 'sell';
  time: number;
  quantity: string;
  usd_price: string;
  usd_amount: string | null;
  usd_liquidity: string | null;
  transaction_hash: string | null;
}

/**
 * Sixty swaps: whole quantities, prices of four significant digits (a FLOAT holds them, read as
 * the shortest decimal), amounts with up to eight decimals on every third swap, liquidity on
 * every other one: every value exact in a DOUBLE, a DECIMAL(38,18) and (prices, liquidity) a FLOAT.
 */
const ROWS: Row[] = Array.from({ length: 60 }, (_, k) => {
  const token = TOKENS[k % 3]!;
  const priceUnits = 1000 + ((k * 7919) % 9000); // four digits
  const scale = token === 'Tok3' ? 8 : 4;
  const quantity = 10 + ((k * 104_729) % 5000);
  return {
    wallet: WALLETS[(k * 3) % 5]!,
    token,
    type: k % 4 < 2 ? 'buy' : 'sell',
    time: T0 + 60 * k + (k % 7),
    quantity: String(quantity),
    usd_price: scaledText(BigInt(priceUnits), scale),
    usd_amount: k % 3 === 0 ? scaledText(BigInt(priceUnits * quantity), scale) : null,
    usd_liquidity: k % 2 === 0 ? `${20_000 + k * 250}.5` : null,
    transaction_hash: k % 5 === 4 ? null : `sig${k}`,
  };
});

const TOKENS_MAP = {
  Tok1: { name: 'One', symbol: 'ONE' },
  Tok2: { name: 'Two', symbol: 'TWO', created_at: T0 - 3600 },
};
const NATIVE_PRICES: [number, number][] = [
  [T0, 150.25],
  [T0 + 1800, 151.5],
];

/** The same swaps as a JSON tape, decimals as JSON numbers. */
function jsonTape(): string {
  const swaps = ROWS.map((r) => ({
    wallet: r.wallet,
    token: r.token,
    type: r.type,
    time: r.time,
    quantity: Number(r.quantity),
    usd_price: Number(r.usd_price),
    ...(r.usd_amount !== null ? { usd_amount: Number(r.usd_amount) } : {}),
    ...(r.usd_liquidity !== null ? { usd_liquidity: Number(r.usd_liquidity) } : {}),
    ...(r.transaction_hash !== null ? { transaction_hash: r.transaction_hash } : {}),
  }));
  return JSON.stringify({ network: 'sol', tokens: TOKENS_MAP, native_prices: NATIVE_PRICES, swaps });
}

const REQUEST = JSON.stringify({
  wallets: ['Lead1', 'Lead2'],
  network: 'sol',
  from_date: '2024-03-10',
  to_date: '2024-03-10',
  buy_percentage: 50,
  max_buy_amount: 300,
  max_position_amount: 800,
  priority_fee: 0.0005,
  bribe: 0.0001,
  max_dupe_buy_times: 2,
  close_all: false,
  inactivity_time_fix: null,
  include_bot_fees: true,
});

/** The flags that give a header-less file the JSON tape's header. */
const HEADER_FLAGS = ['--network', 'sol', '--tokens', path('tokens.json'), '--native-prices', path('prices.json')];

let duckdb: DuckDBInstance;
let db: DuckDBConnection;
let reference: string;

/** A SQL literal: text quoted, null as NULL. */
const sql = (value: string | number | null): string =>
  value === null ? 'NULL' : typeof value === 'number' ? String(value) : `'${value.replaceAll("'", "''")}'`;

/** Writes the swaps with DuckDB's COPY, each column as `columns` casts it from the text table `raw`. */
async function duckdbParquet(name: string, columns: string, options = '(FORMAT parquet)'): Promise<string> {
  await db.run(`COPY (SELECT ${columns} FROM raw ORDER BY k) TO '${path(name)}' ${options}`);
  return path(name);
}

beforeAll(async () => {
  writeFileSync(path('ref.json'), jsonTape());
  writeFileSync(path('request.json'), REQUEST);
  writeFileSync(path('tokens.json'), JSON.stringify(TOKENS_MAP));
  writeFileSync(path('prices.json'), JSON.stringify(NATIVE_PRICES));
  // The importers' price file form: "unix,price" lines.
  writeFileSync(path('prices.csv'), NATIVE_PRICES.map(([t, p]) => `${t},${p}`).join('\n'));
  const run = await cli('simulate', '--tape', path('ref.json'), '--request', path('request.json'));
  expect(run.code, run.err).toBe(0);
  expect(JSON.parse(run.out).deals.length).toBeGreaterThan(1);
  reference = run.out;

  duckdb = await DuckDBInstance.create(':memory:');
  db = await duckdb.connect();
  const values = ROWS.map((r, k) =>
    [k, r.wallet, r.token, r.type, r.time, r.quantity, r.usd_price, r.usd_amount, r.usd_liquidity, r.transaction_hash]
      .map(sql)
      .join(', '),
  );
  await db.run(
    'CREATE TABLE raw AS SELECT * FROM (VALUES ' +
      values.map((v) => `(${v})`).join(', ') +
      ') t(k, wallet, token, type, time, quantity, usd_price, usd_amount, usd_liquidity, transaction_hash)',
  );
}, 60_000);

afterAll(() => {
  db?.closeSync();
  duckdb?.closeSync();
});

const TEXT = 'wallet, token, type, transaction_hash';
/** A TIMESTAMP (microseconds) half a second past each swap's time: the sub-second part is dropped. */
const MICROS = 'make_timestamp(CAST(time AS BIGINT) * 1000000 + 500000) AS time';

/** Each writer's file, made once. */
const FILES: Record<string, () => Promise<string>> = {
  'DuckDB: DOUBLE, BIGINT seconds': () =>
    duckdbParquet(
      'duck-double.parquet',
      `${TEXT}, CAST(time AS BIGINT) AS time, CAST(quantity AS DOUBLE) AS quantity,` +
        ' CAST(usd_price AS DOUBLE) AS usd_price, CAST(usd_amount AS DOUBLE) AS usd_amount,' +
        ' CAST(usd_liquidity AS DOUBLE) AS usd_liquidity',
    ),
  'DuckDB: DECIMAL on INT32, INT64 and FIXED_LEN_BYTE_ARRAY, FLOAT, TIMESTAMP micros': () =>
    duckdbParquet(
      'duck-decimal.parquet',
      `${TEXT}, ${MICROS}, CAST(quantity AS DECIMAL(9,0)) AS quantity,` +
        ' CAST(usd_price AS DECIMAL(18,8)) AS usd_price, CAST(usd_amount AS DECIMAL(38,18)) AS usd_amount,' +
        ' CAST(usd_liquidity AS FLOAT) AS usd_liquidity',
    ),
  'DuckDB: INTEGER, FLOAT, TIMESTAMP millis, gzip': () =>
    duckdbParquet(
      'duck-int.parquet',
      `${TEXT}, CAST(make_timestamp(CAST(time AS BIGINT) * 1000000) AS TIMESTAMP_MS) AS time,` +
        ' CAST(quantity AS INTEGER) AS quantity, CAST(usd_price AS FLOAT) AS usd_price,' +
        ' CAST(usd_amount AS DECIMAL(18,8)) AS usd_amount, CAST(usd_liquidity AS DECIMAL(12,1)) AS usd_liquidity',
      '(FORMAT parquet, COMPRESSION gzip)',
    ),
  'DuckDB: UBIGINT, DECIMAL(38,30), TIMESTAMP nanos, decimal text': () =>
    duckdbParquet(
      'duck-nanos.parquet',
      `${TEXT}, CAST(make_timestamp(CAST(time AS BIGINT) * 1000000) AS TIMESTAMP_NS) AS time,` +
        ' CAST(quantity AS UBIGINT) AS quantity, CAST(usd_price AS DECIMAL(38,30)) AS usd_price,' +
        ' usd_amount, usd_liquidity',
    ),
  'parquet-wasm (arrow-rs): its defaults, from the DECIMAL file': async () => {
    const source = await FILES['DuckDB: DECIMAL on INT32, INT64 and FIXED_LEN_BYTE_ARRAY, FLOAT, TIMESTAMP micros']!();
    writeFileSync(path('wasm-default.parquet'), writeParquet(readParquet(readFileSync(source))));
    return path('wasm-default.parquet');
  },
  'parquet-wasm (arrow-rs): v2 pages, no dictionary, brotli, from the DOUBLE file': async () => {
    const source = await FILES['DuckDB: DOUBLE, BIGINT seconds']!();
    const properties = new WriterPropertiesBuilder()
      .setWriterVersion(WriterVersion.V2)
      .setDictionaryEnabled(false)
      .setCompression(Compression.BROTLI)
      .build();
    writeFileSync(path('wasm-v2.parquet'), writeParquet(readParquet(readFileSync(source)), properties));
    return path('wasm-v2.parquet');
  },
  'hyparquet-writer: plain BYTE_ARRAY text, INT64, DECIMAL in BYTE_ARRAY, FLOAT, DOUBLE seconds': async () => {
    const writer = new ParquetWriter({
      writer: fileWriter(path('hyparquet.parquet')),
      schema: [
        { name: 'root', num_children: 9 },
        { name: 'wallet', type: 'BYTE_ARRAY', repetition_type: 'REQUIRED' },
        { name: 'token', type: 'BYTE_ARRAY', repetition_type: 'REQUIRED' },
        { name: 'type', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
        { name: 'time', type: 'DOUBLE', repetition_type: 'REQUIRED' },
        { name: 'quantity', type: 'INT64', repetition_type: 'REQUIRED' },
        {
          name: 'usd_price',
          type: 'BYTE_ARRAY',
          converted_type: 'DECIMAL',
          scale: 8,
          precision: 30,
          repetition_type: 'REQUIRED',
        },
        { name: 'usd_amount', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
        { name: 'usd_liquidity', type: 'FLOAT', repetition_type: 'OPTIONAL' },
        { name: 'transaction_hash', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
      ],
    });
    const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
    const units = (text: string): bigint => BigInt(Math.round(Number(text) * 1e8));
    writer.write({
      columnData: [
        { name: 'wallet', data: ROWS.map((r) => bytes(r.wallet)) },
        { name: 'token', data: ROWS.map((r) => bytes(r.token)) },
        { name: 'type', data: ROWS.map((r) => r.type) },
        { name: 'time', data: ROWS.map((r) => r.time) },
        { name: 'quantity', data: ROWS.map((r) => BigInt(r.quantity)) },
        { name: 'usd_price', data: ROWS.map((r) => units(r.usd_price)) },
        { name: 'usd_amount', data: ROWS.map((r) => (r.usd_amount === null ? null : Number(r.usd_amount))) },
        { name: 'usd_liquidity', data: ROWS.map((r) => (r.usd_liquidity === null ? null : Number(r.usd_liquidity))) },
        { name: 'transaction_hash', data: ROWS.map((r) => r.transaction_hash) },
      ] as never,
    });
    writer.finish();
    return path('hyparquet.parquet');
  },
};

/** Each file's swaps, values as numbers: what the JSON tape holds. */
function asNumbers(swaps: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return swaps.map((swap) =>
    Object.fromEntries(
      Object.entries(swap).map(([k, v]) =>
        ['quantity', 'usd_price', 'usd_amount', 'usd_liquidity'].includes(k) ? [k, Number(v)] : [k, v],
      ),
    ),
  );
}

describe('a Parquet tape another program wrote', () => {
  it.each(Object.keys(FILES))(
    '%s: simulate gives the JSON tape its response, byte for byte',
    async (name) => {
      const file = await FILES[name]!();
      const run = await cli('simulate', '--tape', file, '--request', path('request.json'), ...HEADER_FLAGS);
      expect(run.err).toBe('');
      expect(run.code).toBe(0);
      expect(run.out).toBe(reference);
    },
    30_000,
  );

  it.each(Object.keys(FILES))(
    '%s: convert gives the JSON tape its swaps and header',
    async (name) => {
      const file = await FILES[name]!();
      const out = path(`${name.replace(/\W+/g, '-')}.json`);
      const run = await cli(
        'convert',
        file,
        out,
        '--network',
        'sol',
        '--tokens',
        path('tokens.json'),
        '--native-prices',
        path('prices.csv'),
      );
      expect(run.err).toBe('');
      expect(run.code).toBe(0);
      const converted = JSON.parse(readFileSync(out, 'utf8'));
      const expected = JSON.parse(jsonTape());
      expect(converted.network).toBe('sol');
      expect(converted.tokens).toEqual(TOKENS_MAP);
      expect(converted.native_prices.map(([t, p]: [number, string]) => [t, Number(p)])).toEqual(NATIVE_PRICES);
      expect(asNumbers(converted.swaps)).toEqual(expected.swaps);
      const simulated = await cli('simulate', '--tape', out, '--request', path('request.json'));
      expect(simulated.out).toBe(reference);
    },
    30_000,
  );

  it('keeps every digit of a DECIMAL and reads a FLOAT as its shortest decimal', async () => {
    const file = await FILES['DuckDB: UBIGINT, DECIMAL(38,30), TIMESTAMP nanos, decimal text']!();
    const tape = readTapeFile(file, { network: 'sol' });
    // DECIMAL(38,30): the exact text, trailing zeros dropped; the VARCHAR amounts as written.
    expect(tape.swaps[0]!.usd_price).toBe(ROWS[0]!.usd_price);
    expect(tape.swaps.map((s) => s.usd_amount ?? null)).toEqual(ROWS.map((r) => r.usd_amount));
    const floats = readTapeFile(await FILES['DuckDB: INTEGER, FLOAT, TIMESTAMP millis, gzip']!(), { network: 'sol' });
    expect(floats.swaps.map((s) => s.usd_price)).toEqual(ROWS.map((r) => Number(r.usd_price)));
    expect(floats.swaps.map((s) => s.quantity)).toEqual(ROWS.map((r) => Number(r.quantity)));
    expect(floats.native.length).toBe(0);
  }, 30_000);

  it('takes the library options as the flags: network, tokens, native prices', async () => {
    const file = await FILES['DuckDB: DOUBLE, BIGINT seconds']!();
    const options = { network: 'sol', tokens: TOKENS_MAP, nativePrices: NATIVE_PRICES } as const;
    expect(readTapeFile(file, options).swaps).toEqual(JSON.parse(jsonTape()).swaps);
    convertTapeFile(file, path('library.json'), options);
    expect(readFileSync(path('library.json'), 'utf8')).toBe(
      readFileSync(path('ref.json'), 'utf8')
        .replace('"swaps":[', '"swaps":[\n')
        .replaceAll('},{"wallet"', '},\n{"wallet"')
        .replace(/]}$/, '\n]}\n'),
    );
  }, 30_000);

  it('reads a DATE column as midnight of each day', async () => {
    const file = await duckdbParquet(
      'duck-date.parquet',
      `${TEXT}, CAST(to_timestamp(time) AT TIME ZONE 'UTC' AS DATE) AS time, quantity, usd_price,` +
        ' usd_amount, usd_liquidity',
    );
    const tape = readTapeFile(file, { network: 'sol' });
    expect(new Set(tape.swaps.map((s) => s.time))).toEqual(new Set([T0]));
  }, 30_000);

  it('reads zstd pages where node:zlib has zstd, and names the codec where it has none', async () => {
    const file = await duckdbParquet(
      'duck-zstd.parquet',
      `${TEXT}, CAST(time AS BIGINT) AS time, quantity, usd_price, usd_amount, usd_liquidity`,
      '(FORMAT parquet, COMPRESSION zstd)',
    );
    const run = await cli('simulate', '--tape', file, '--request', path('request.json'), ...HEADER_FLAGS);
    if ('zstdDecompressSync' in zlib) {
      expect(run.out).toBe(reference);
    } else {
      expect(run.code).toBe(1);
      expect(run.err).toMatch(/duck-zstd\.parquet: column "\w+" is compressed with ZSTD, which copysim cannot/);
      expect(run.err).toMatch(/COMPRESSION snappy/);
    }
  }, 30_000);
});

describe('a Parquet tape another program wrote: clear errors, exit 1', () => {
  const errorOf = async (...args: string[]): Promise<string> => {
    const run = await cli(...args);
    expect(run.code).toBe(1);
    expect(run.out).toBe('');
    expect(run.err).not.toMatch(/ at .*\.(ts|js):\d+/);
    return run.err;
  };
  const simulate = (file: string, ...flags: string[]): Promise<string> =>
    errorOf('simulate', '--tape', file, '--request', path('request.json'), ...flags);

  it('without --network: says which flag to give', async () => {
    const file = await FILES['DuckDB: DOUBLE, BIGINT seconds']!();
    const message =
      'duck-double.parquet: no "copysim.tape.header" key-value metadata (the file was not written by copysim):' +
      " give the tape's network as --network (sol or eth)";
    expect(await simulate(file)).toContain(message);
    expect(await errorOf('convert', file, path('x.json'))).toContain(message);
    expect(await errorOf('rank', '--tape', file, '--request', path('request.json'))).toContain(message);
    expect(() => readTapeFile(file)).toThrow(/give the tape's network as `network` \(sol or eth\)/);
  }, 30_000);

  it('a missing column: names it, the columns the file has, and how to rename', async () => {
    const file = await duckdbParquet(
      'no-price.parquet',
      `${TEXT}, time, quantity, usd_price AS price, usd_amount, usd_liquidity`,
    );
    expect(await simulate(file, '--network', 'sol')).toContain(
      'no-price.parquet: no column "usd_price": a tape needs the columns wallet, token, type, time, quantity,' +
        ' usd_price (and may have usd_amount, usd_liquidity, transaction_hash); the file has wallet, token, type,' +
        ' transaction_hash, time, quantity, price, usd_amount, usd_liquidity: name the column that holds it' +
        ' "usd_price" (in DuckDB: SELECT … AS usd_price)',
    );
  }, 30_000);

  it.each([
    [
      'a BOOLEAN quantity',
      'CAST(quantity AS INTEGER) > 100 AS quantity, usd_price',
      /column "quantity" is BOOLEAN, expected a decimal: DOUBLE, FLOAT, .*CAST\(quantity AS DECIMAL\(38,18\)\)/,
    ],
    [
      'a TIMESTAMP price',
      'quantity, make_timestamp(0) AS usd_price',
      /column "usd_price" is INT64 \(TIMESTAMP\(MICROS\)\), expected a decimal/,
    ],
  ])(
    '%s: names the column, its type and the cast',
    async (_name, columns, message) => {
      const file = await duckdbParquet(
        `bad-${_name.replace(/\W+/g, '-')}.parquet`,
        `${TEXT}, time, ${columns}, usd_amount, usd_liquidity`,
      );
      expect(await simulate(file, '--network', 'sol')).toMatch(message);
    },
    30_000,
  );

  it('a text time and a numeric wallet', async () => {
    const textTime = await duckdbParquet(
      'text-time.parquet',
      `${TEXT}, CAST(time AS VARCHAR) AS time, quantity, usd_price, usd_amount, usd_liquidity`,
    );
    expect(await simulate(textTime, '--network', 'sol')).toMatch(
      /column "time" is BYTE_ARRAY \(UTF8\), expected a time: .*, or epoch\(time\) for seconds/,
    );
    const intWallet = await duckdbParquet(
      'int-wallet.parquet',
      'k AS wallet, token, type, transaction_hash, time, quantity, usd_price, usd_amount, usd_liquidity',
    );
    expect(await simulate(intWallet, '--network', 'sol')).toMatch(
      /column "wallet" is INT32 \(INT_32\), expected text .*CAST\(wallet AS VARCHAR\)/,
    );
  }, 30_000);

  it('a null where a swap needs a value: the row and the field', async () => {
    const file = await duckdbParquet(
      'null-wallet.parquet',
      'CASE WHEN k = 3 THEN NULL ELSE wallet END AS wallet, token, type, transaction_hash,' +
        ' CAST(time AS BIGINT) AS time, quantity, usd_price, usd_amount, usd_liquidity',
    );
    expect(await simulate(file, ...HEADER_FLAGS)).toMatch(
      /null-wallet\.parquet: row 3: tape: swap 3: swaps\[3\]\.wallet: Invalid input: expected string, received null/,
    );
  }, 30_000);

  it('flags beside a tape that has its own header: refused where they contradict it', async () => {
    writeFileSync(path('own.json'), jsonTape());
    convertTapeFile(path('own.json'), path('own.parquet'));
    expect(await simulate(path('own.parquet'), '--network', 'eth')).toMatch(
      /own\.parquet: its header's network is sol, but --network is eth: leave --network out/,
    );
    writeFileSync(path('other-tokens.json'), JSON.stringify({ Tok3: { name: 'Three' } }));
    expect(await simulate(path('own.parquet'), '--tokens', path('other-tokens.json'))).toMatch(
      /own\.parquet: its header has tokens of its own \(2\), and --tokens gives others: leave --tokens out/,
    );
    expect(await simulate(path('own.parquet'), '--native-prices', path('prices.csv'))).toMatch(
      /own\.parquet: its header has native prices of its own \(2 points\), and others are given: leave them out/,
    );
    // Agreeing flags, or one that fills what the header lacks, are taken.
    const agreeing = await cli(
      'simulate',
      '--tape',
      path('own.parquet'),
      '--request',
      path('request.json'),
      ...HEADER_FLAGS,
    );
    expect(agreeing.out).toBe(reference);
    const { native_prices: _prices, ...withoutPrices } = JSON.parse(jsonTape());
    writeFileSync(path('no-prices.json'), JSON.stringify(withoutPrices));
    convertTapeFile(path('no-prices.json'), path('no-prices.parquet'));
    const filled = await cli(
      'simulate',
      '--tape',
      path('no-prices.parquet'),
      '--request',
      path('request.json'),
      '--native-prices',
      path('prices.json'),
    );
    expect(filled.out).toBe(reference);
  }, 30_000);

  it('bad flags: another network name, a JSON tape, a bad tokens or prices file', async () => {
    const file = await FILES['DuckDB: DOUBLE, BIGINT seconds']!();
    expect(await simulate(file, '--network', 'solana')).toMatch(/--network must be sol or eth, not "solana"/);
    expect(await simulate(path('ref.json'), '--network', 'sol')).toMatch(
      /--network: for a Parquet tape without copysim's header; the tape .*ref\.json holds its own header/,
    );
    writeFileSync(path('bad-tokens.json'), JSON.stringify({ Tok1: { scam_status: 'maybe' } }));
    expect(await simulate(file, '--network', 'sol', '--tokens', path('bad-tokens.json'))).toMatch(
      /bad-tokens\.json: expected a tokens map .*: Tok1\.scam_status: /,
    );
    writeFileSync(path('bad-prices.json'), JSON.stringify([[T0, -1]]));
    expect(await simulate(file, '--network', 'sol', '--native-prices', path('bad-prices.json'))).toMatch(
      /bad-prices\.json: expected \[\[unix, usd\], …\]: 0\.1: /,
    );
  }, 30_000);
});

describe('the conversions of DECIMAL and FLOAT values', () => {
  it.each([
    [12345n, 2, '123.45'],
    [1500n, 3, '1.5'],
    [5n, 3, '0.005'],
    [100n, 2, '1'],
    [0n, 4, '0'],
    [-12345n, 2, '-123.45'],
    [7n, 0, '7'],
    [7n, -2, '700'],
    [123456789012345678901234567890n, 30, '0.12345678901234567890123456789'],
  ])('%s × 10^-%s is "%s"', (unscaled, scale, text) => {
    expect(scaledText(unscaled, scale)).toBe(text);
  });

  it('reads big-endian two’s complement of any length', () => {
    expect(signedBigEndian(new Uint8Array([0x01, 0x00]))).toBe(256n);
    expect(signedBigEndian(new Uint8Array([0xff, 0xfe]))).toBe(-2n);
    const sixteen = new Uint8Array(16);
    sixteen[0] = 0x7f;
    sixteen[15] = 0x01;
    expect(signedBigEndian(sixteen)).toBe((0x7fn << 120n) + 1n);
    expect(signedBigEndian(new Uint8Array(16).fill(0xff))).toBe(-1n);
  });

  it('a FLOAT is the shortest decimal that reads back as the same float32', () => {
    expect(shortestFloat32(Math.fround(0.1))).toBe(0.1);
    expect(shortestFloat32(Math.fround(3.4567))).toBe(3.4567);
    expect(shortestFloat32(Math.fround(20_000.5))).toBe(20_000.5);
    expect(shortestFloat32(Math.fround(1e-30))).toBe(1e-30);
    expect(shortestFloat32(Math.fround(123_456.789))).toBe(123_456.79);
    expect(shortestFloat32(Math.fround(16_777_217))).toBe(16_777_216);
  });
});
