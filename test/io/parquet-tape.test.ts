import { closeSync, fstatSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ParquetWriter, fileWriter } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { readTapeFile, simulateParts } from '../../src/index.js';
import { simulateParquetFileParts } from '../../src/io/parquet/simulate.js';
import { convertTapeFile, ParquetTapeFile, writeParquetTape } from '../../src/tape.js';
import { cli } from '../support/cli.js';

/** A simulator request over 1970-01-01 (the tapes' times), following `wallet`. */
const requestFor = (wallet: string): string =>
  JSON.stringify({
    wallets: [wallet],
    network: 'sol',
    from_date: '1970-01-01',
    to_date: '1970-01-01',
    buy_percentage: 50,
    max_buy_amount: 300,
    max_position_amount: 800,
    priority_fee: 0.0005,
    bribe: 0.0001,
    max_dupe_buy_times: 2,
    close_all: false,
    inactivity_time_fix: null,
    include_bot_fees: false,
  });

const dir = mkdtempSync(join(tmpdir(), 'copysim-parquet-'));
const path = (name: string): string => join(dir, name);

// Every form a swap's values take in a JSON tape: decimal strings (one with more digits than a
// double holds), JSON numbers, null and absent optional fields, a non-ASCII wallet name.
const tapeText = `${JSON.stringify({
  network: 'sol',
  tokens: { M1: { name: 'Token', symbol: 'T', created_at: 100 } },
  native_prices: [[0, '150.25']],
}).slice(0, -1)},"swaps":[
{"wallet":"W1","token":"M1","type":"buy","time":1000,"quantity":"123456789.123456789123456789","usd_price":"0.000000012345678901234567","usd_amount":1.5,"usd_liquidity":null,"transaction_hash":"sig1"},
{"wallet":"Wé","token":"M1","type":"sell","time":1000,"quantity":"5","usd_price":"0.3","usd_liquidity":"25000"},
{"wallet":"W1","token":"M1","type":"sell","time":2000,"quantity":"7e-3","usd_price":"1e2","usd_amount":0.7}
]}
`;

describe('the Parquet tape', () => {
  it('converts JSON -> Parquet -> JSON and JSONL -> Parquet byte for byte, with every value form kept', () => {
    writeFileSync(path('t.json'), tapeText);
    expect(convertTapeFile(path('t.json'), path('t.parquet'))).toEqual({ swaps: 3 });
    convertTapeFile(path('t.parquet'), path('back.json'));
    expect(readFileSync(path('back.json'), 'utf8')).toBe(tapeText);
    convertTapeFile(path('t.parquet'), path('t.jsonl'));
    convertTapeFile(path('t.jsonl'), path('t2.parquet'));
    expect(readFileSync(path('t2.parquet'))).toEqual(readFileSync(path('t.parquet')));
  });

  it('reads the header from the metadata, the swaps a row group at a time, in order', () => {
    writeFileSync(path('t.json'), tapeText);
    convertTapeFile(path('t.json'), path('t.parquet'));
    const file = new ParquetTapeFile(path('t.parquet'));
    try {
      expect(file.header).toEqual({
        network: 'sol',
        tokens: { M1: { name: 'Token', symbol: 'T', created_at: 100 } },
        native_prices: [[0, '150.25']],
      });
      expect(file.forms).toEqual({ numberFields: ['usd_amount'], timeOrdered: true });
      expect([...file.swaps()].map((s) => [s.wallet, s.quantity, s.usd_amount, s.usd_liquidity])).toEqual([
        ['W1', '123456789.123456789123456789', 1.5, null],
        ['Wé', '5', undefined, '25000'],
        ['W1', '7e-3', 0.7, undefined],
      ]);
    } finally {
      file.close();
    }
    expect(readTapeFile(path('t.parquet')).swaps).toEqual(readTapeFile(path('t.json')).swaps);
  });

  it('leaves out a field it is told not to read, the others as the JSON tape spelled them', () => {
    writeFileSync(path('t.json'), tapeText);
    convertTapeFile(path('t.json'), path('t.parquet'));
    const file = new ParquetTapeFile(path('t.parquet'));
    try {
      expect([...file.swaps()].map((s) => 'transaction_hash' in s)).toEqual([true, false, false]);
      const swaps = [...file.swaps(['transaction_hash'])];
      expect(swaps.map((s) => 'transaction_hash' in s)).toEqual([false, false, false]);
      // The other optional fields keep their forms: 1.5, an explicit null, absent.
      expect(swaps.map((s) => [s.usd_amount, s.usd_liquidity])).toEqual([
        [1.5, null],
        [undefined, '25000'],
        [0.7, undefined],
      ]);
      expect('usd_liquidity' in swaps[0]!).toBe(true);
    } finally {
      file.close();
    }
  });

  it('gives simulate a byte-identical response to the JSON tape', async () => {
    writeFileSync(path('t.json'), tapeText);
    convertTapeFile(path('t.json'), path('t.parquet'));
    writeFileSync(path('r.json'), requestFor('W1'));
    const json = await cli('simulate', '--tape', path('t.json'), '--request', path('r.json'));
    const parquet = await cli('simulate', '--tape', path('t.parquet'), '--request', path('r.json'));
    expect(json.code, json.out + json.err).toBe(0);
    expect(json.out).toMatch(/"trades":\[\{/);
    expect(parquet.out).toBe(json.out);
  });

  it('streams with min_price_swap_usd, which reads the amount of a swap not followed', async () => {
    writeFileSync(path('t.json'), tapeText);
    convertTapeFile(path('t.json'), path('t.parquet'));
    writeFileSync(path('r.json'), requestFor('W1'));
    // Wé's sell, not followed, has no usd_amount: 5 × 0.3 = 1.5 USD, below 2, sets no price.
    for (const min of [1, 2]) {
      writeFileSync(path('o.json'), JSON.stringify({ min_price_swap_usd: min }));
      const flags = ['--request', path('r.json'), '--options', path('o.json')];
      const json = await cli('simulate', '--tape', path('t.json'), ...flags);
      const parquet = await cli('simulate', '--tape', path('t.parquet'), ...flags);
      expect(json.code, json.err).toBe(0);
      expect(parquet.out).toBe(json.out);
    }
  });

  it('reads a tape written out of time order whole (no streaming), as JSON would be', async () => {
    const { swaps, ...header } = JSON.parse(tapeText) as { swaps: { time: number }[] };
    writeParquetTape(path('unordered.parquet'), { ...header, swaps: [...swaps].reverse() } as never);
    const file = new ParquetTapeFile(path('unordered.parquet'));
    expect(file.forms.timeOrdered).toBe(false);
    file.close();
    writeFileSync(path('r.json'), requestFor('W1'));
    const { code } = await cli('simulate', '--tape', path('unordered.parquet'), '--request', path('r.json'));
    expect(code).toBe(0);
  });

  it('closes its file once: a second close leaves alone the file that took the descriptor since', () => {
    writeFileSync(path('t.json'), tapeText);
    convertTapeFile(path('t.json'), path('t.parquet'));
    const file = new ParquetTapeFile(path('t.parquet'));
    file.close();
    const other = openSync(path('t.json'), 'r'); // the lowest free descriptor: most likely the one just freed
    try {
      file.close();
      expect(fstatSync(other).size).toBe(Buffer.byteLength(tapeText));
    } finally {
      closeSync(other);
    }
  });

  it("keeps the copier's cash and equity points for a report, time-ordered or not", () => {
    const { swaps, ...header } = JSON.parse(tapeText) as { swaps: { time: number }[] };
    writeParquetTape(path('ordered.parquet'), { ...header, swaps } as never);
    writeParquetTape(path('unordered.parquet'), { ...header, swaps: [...swaps].reverse() } as never);
    const request = { ...JSON.parse(requestFor('W1')), strategy: { starting_balance_usd: 1000 } };
    for (const name of ['ordered.parquet', 'unordered.parquet']) {
      const streamed = simulateParquetFileParts(path(name), request, {});
      // (time, cash, equity) after each change of cash: the copy of W1's buy at least.
      expect(streamed.copierPoints?.length, name).toBeGreaterThanOrEqual(3);
      expect(streamed.copierPoints![1], name).toBeLessThan(1000);
      const whole = simulateParts(readTapeFile(path(name)), request, {}, { copierPoints: true });
      expect(streamed.copierPoints, name).toEqual(whole.copierPoints);
    }
  });
});

/** A Parquet file of other columns, as another tool might write it. */
function foreignParquet(
  name: string,
  columns: { name: string; data: unknown[]; type: 'STRING' | 'INT64' | 'DOUBLE' }[],
  header = true,
): string {
  const writer = new ParquetWriter({
    writer: fileWriter(path(name)),
    schema: [
      { name: 'root', num_children: columns.length },
      ...columns.map((c) =>
        c.type === 'STRING'
          ? {
              name: c.name,
              type: 'BYTE_ARRAY' as const,
              converted_type: 'UTF8' as const,
              repetition_type: 'REQUIRED' as const,
            }
          : { name: c.name, type: c.type, repetition_type: 'REQUIRED' as const },
      ),
    ],
    ...(header ? { kvMetadata: [{ key: 'copysim.tape.header', value: '{"network":"sol"}' }] } : {}),
  });
  writer.write({ columnData: columns.map((c) => ({ name: c.name, data: c.data as never })) });
  writer.finish();
  return path(name);
}

const good = [
  { name: 'wallet', data: ['W'], type: 'STRING' as const },
  { name: 'token', data: ['M'], type: 'STRING' as const },
  { name: 'type', data: ['buy'], type: 'STRING' as const },
  { name: 'time', data: [5n], type: 'INT64' as const },
  { name: 'quantity', data: ['1'], type: 'STRING' as const },
  { name: 'usd_price', data: ['2'], type: 'STRING' as const },
];

describe('bad Parquet files: a clear error naming the file and what is wrong, exit 1', () => {
  it('reads a minimal tape another tool wrote (no forms metadata, snappy pages)', () => {
    const tape = readTapeFile(foreignParquet('minimal.parquet', good));
    expect(tape.swaps).toEqual([{ wallet: 'W', token: 'M', type: 'buy', time: 5, quantity: '1', usd_price: '2' }]);
  });

  it.each([
    [
      'a truncated file',
      () => {
        writeFileSync(path('t.json'), tapeText);
        convertTapeFile(path('t.json'), path('full.parquet'));
        const bytes = readFileSync(path('full.parquet'));
        writeFileSync(path('cut.parquet'), bytes.subarray(0, bytes.length - 40));
        return path('cut.parquet');
      },
      /cut\.parquet: not a Parquet file \(it does not end with "PAR1"\): truncated or another format/,
    ],
    [
      'a JSON file named .parquet',
      () => {
        writeFileSync(path('json.parquet'), tapeText);
        return path('json.parquet');
      },
      /json\.parquet: not a Parquet file/,
    ],
    [
      'corrupt pages',
      () => {
        writeFileSync(path('t.json'), tapeText);
        convertTapeFile(path('t.json'), path('full.parquet'));
        const bytes = readFileSync(path('full.parquet'));
        bytes.fill(0xff, 8, 200);
        writeFileSync(path('corrupt.parquet'), bytes);
        return path('corrupt.parquet');
      },
      /corrupt\.parquet: row group 0, column "\w+": cannot be decoded .*: the file is corrupt/,
    ],
    [
      'a missing required column',
      () => foreignParquet('nowallet.parquet', good.slice(1)),
      /nowallet\.parquet: no column "wallet": a tape needs the columns wallet, token, type, time, quantity, usd_price/,
    ],
    [
      'a column of the wrong type',
      () =>
        foreignParquet(
          'strtime.parquet',
          good.map((c) => (c.name === 'time' ? { name: 'time', data: ['5'], type: 'STRING' as const } : c)),
        ),
      /strtime\.parquet: column "time" is BYTE_ARRAY \(UTF8\), expected a time: whole seconds since the epoch \(INT64,/,
    ],
    [
      'no header metadata',
      () => foreignParquet('nohead.parquet', good, false),
      /nohead\.parquet: no "copysim\.tape\.header" key-value metadata/,
    ],
    [
      'a bad value in a row',
      () =>
        foreignParquet(
          'badrow.parquet',
          good.map((c) => (c.name === 'type' ? { ...c, data: ['hold'] } : c)),
        ),
      /badrow\.parquet: row 0: tape: swap 0: swaps\[0\]\.type: Invalid option: expected one of "buy"\|"sell"/,
    ],
    [
      'a bad decimal in a later row of a wallet not followed',
      () => {
        // The row group fails its column check; each swap is then checked and the bad one named.
        const { swaps, ...header } = JSON.parse(tapeText) as { swaps: Record<string, unknown>[] };
        writeParquetTape(path('baddecimal.parquet'), {
          ...header,
          swaps: swaps.map((swap, k) => (k === 1 ? { ...swap, quantity: '-5' } : swap)),
        } as never);
        return path('baddecimal.parquet');
      },
      /baddecimal\.parquet: row 1: tape: swap 1: swaps\[1\]\.quantity: /,
    ],
  ])('%s', async (_name, make, message) => {
    const file = make();
    writeFileSync(path('r.json'), requestFor('W'));
    const { code, err } = await cli('simulate', '--tape', file, '--request', path('r.json'));
    expect(code).toBe(1);
    expect(err).toMatch(message);
    expect(err).not.toMatch(/ at .*\.(ts|js):\d+/);
    expect((await cli('convert', file, path('out.json'))).code).toBe(1);
  });
});

describe('a Parquet tape works everywhere a tape is read', () => {
  const example = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'example');
  /** The first leader of the example's sol request. */
  const solRequest = JSON.parse(readFileSync(join(example, 'request-sol.json'), 'utf8')) as { wallets: string[] };
  const LEADER = solRequest.wallets[0]!;
  it.each<[string, (tape: string) => string[]]>([
    ['latency', (t: string) => ['latency', '--tape', t, '--request', join(example, 'request-sol.json'), '--json']],
    ['rank', (t: string) => ['rank', '--tape', t, '--request', join(example, 'request-sol.json'), '--format', 'jsonl']],
    ['wallets', (t: string) => ['wallets', '--tape', t]],
    ...(['deals', 'indicators', 'pnl-chart', 'investment-chart'] as const).map(
      (read): [string, (tape: string) => string[]] => [
        `wallet ${read}`,
        (t) => [
          'wallet',
          read,
          LEADER,
          '--tape',
          t,
          '--network',
          'sol',
          ...(read.endsWith('chart') ? ['--period', '7d'] : []),
        ],
      ],
    ),
    [
      'sweep',
      (t: string) => {
        writeFileSync(
          path('requests.jsonl'),
          `${readFileSync(join(example, 'request-sol.json'), 'utf8').replace(/\n\s*/g, '')}\n`,
        );
        return ['sweep', '--tape', t, '--requests', path('requests.jsonl'), '--workers', '1'];
      },
    ],
  ])('%s gives the same output on the Parquet and the JSON tape', async (_name, args) => {
    convertTapeFile(join(example, 'tape-sol.json'), path('example.parquet'));
    const json = await cli(...args(join(example, 'tape-sol.json')));
    const parquet = await cli(...args(path('example.parquet')));
    expect(json.code, json.err).toBe(0);
    expect(json.out.length).toBeGreaterThan(100);
    expect(parquet.out).toBe(json.out);
  });

  it('report --tape draws the same HTML from the Parquet and the JSON tape', async () => {
    const tape = join(example, 'tape-sol.json');
    const request = join(example, 'request-sol.json');
    convertTapeFile(tape, path('example.parquet'));
    writeFileSync(path('response.json'), (await cli('simulate', '--tape', tape, '--request', request)).out);
    const fromJson = await cli(
      'report',
      '--response',
      path('response.json'),
      '--request',
      request,
      '--tape',
      tape,
      '--out',
      path('json.html'),
    );
    const fromParquet = await cli(
      'report',
      '--response',
      path('response.json'),
      '--request',
      request,
      '--tape',
      path('example.parquet'),
      '--out',
      path('parquet.html'),
    );
    expect(fromJson.code, fromJson.err).toBe(0);
    expect(fromParquet.code, fromParquet.err).toBe(0);
    await cli('report', '--response', path('response.json'), '--request', request, '--out', path('no-tape.html'));
    const html = readFileSync(path('json.html'));
    expect(html.length).toBeGreaterThan(readFileSync(path('no-tape.html')).length); // the tape's prices are drawn
    expect(readFileSync(path('parquet.html')).equals(html)).toBe(true);
  });

  it('wallet on a truncated Parquet tape: one line naming the file, exit 1', async () => {
    convertTapeFile(join(example, 'tape-sol.json'), path('example.parquet'));
    const bytes = readFileSync(path('example.parquet'));
    writeFileSync(path('example-cut.parquet'), bytes.subarray(0, bytes.length - 40));
    const { code, out, err } = await cli(
      'wallet',
      'deals',
      LEADER,
      '--tape',
      path('example-cut.parquet'),
      '--network',
      'sol',
    );
    expect(code).toBe(1);
    expect(out).toBe('');
    const named = `copysim wallet: ${path('example-cut.parquet')}: not a Parquet file (it does not end with "PAR1"): truncated`;
    expect(err.slice(0, named.length)).toBe(named);
    expect(err.split('\n')).toHaveLength(2); // one line, no stack
  });
});
