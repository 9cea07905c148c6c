import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { parquetMetadata } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { ColumnsReceiver, ColumnsSender } from '../../src/io/parquet/column-wire.js';
import { rowGroupsAhead } from '../../src/io/parquet/decode-ahead.js';
import { LazyStrings } from '../../src/io/parquet/fast-strings.js';
import type { DecodedRowGroup, RowGroupColumns } from '../../src/io/parquet/row-group.js';
import { ParquetTapeFile, writeParquetTape } from '../../src/tape.js';
import { builtScriptIfAny } from '../../src/built-script.js';
import { doubleWord, rawToWord } from '../../src/numeric/double-word.js';
import { cli } from '../support/cli.js';
import { request as scenarioRequest } from '../support/scenario.js';

const dir = mkdtempSync(join(tmpdir(), 'copysim-decode-ahead-'));
const path = (name: string): string => join(dir, name);

/** Swaps of three wallets (W0 followed) over four tokens, every value form a tape takes. */
function swaps(count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, k) => {
    const swap: Record<string, unknown> = {
      // A wallet and a token first seen in a later row group too.
      wallet: k < 12 ? `W${k % 2}` : `W${k % 3}`,
      token: `T${k < 20 ? k % 3 : k % 4}`,
      type: k % 4 === 3 ? 'sell' : 'buy',
      time: 1000 + 600 * k,
      quantity: k % 5 === 0 ? `${k + 1}.000000000000000000123` : String(10 + k),
      usd_price: k % 2 === 0 ? `0.00${k + 1}` : `${k + 1}e-4`,
    };
    if (k % 3 === 0) swap.usd_amount = 1.5 + k;
    if (k % 4 === 0) swap.usd_liquidity = 20_000 + k;
    else if (k % 4 === 1) swap.usd_liquidity = null;
    if (k % 2 === 0) swap.transaction_hash = `sig${k}`;
    return swap;
  });
}

const header = { network: 'sol', tokens: {}, native_prices: [[0, '150']] };

/** Each row group as its readers give it: where it starts, its check, and every row read every way. */
function readings(groups: Iterable<DecodedRowGroup>): unknown[] {
  return [...groups].map((g) => ({
    start: g.start,
    rows: g.rows,
    valid: g.valid,
    rowsRead: Array.from({ length: g.rows }, (_, i) => [g.swap(i), g.wallet(i), g.token(i), g.tick(i)]),
  }));
}

describe("a Parquet tape's row groups decoded by the reader and a thread of their own together", () => {
  it('uses the compiled thread script (the tests run after the build)', () => {
    expect(builtScriptIfAny('io/parquet/decode-thread.js'), 'run `npm run build` first').not.toBeNull();
  });

  it('gives every row group as the decoding here does, in order, each row read every way', () => {
    // Row 9's explicit null usd_amount is no valid swap: its group fails the column check.
    const rows = swaps(40).map((swap, k) => (k === 9 ? { ...swap, usd_amount: null } : swap));
    writeParquetTape(path('groups.parquet'), { ...header, swaps: rows } as never, 7);
    const file = new ParquetTapeFile(path('groups.parquet'));
    try {
      expect(file.rowGroupCount).toBe(6);
      for (const without of [[], ['transaction_hash']] as const) {
        const here = readings(file.rowGroups(without));
        // Every group from the other thread, then shared between the two as a reader shares them.
        const ahead = readings(rowGroupsAhead(file, without, false));
        expect(ahead).toEqual(here);
        expect(readings(rowGroupsAhead(file, without))).toEqual(here);
        expect(ahead.map((g) => (g as { valid: boolean }).valid)).toEqual([true, false, true, true, true, true]);
        expect(ahead.map((g) => (g as { start: number }).start)).toEqual([0, 7, 14, 21, 28, 35]);
      }
      // The thread makes the prices' words of the valid groups it decodes: rawToWord of each row's price.
      const words = [...rowGroupsAhead(file, [], false)].map((g) => g.priceWords && [...g.priceWords]);
      const word = doubleWord();
      const expected = (g: number): number[] =>
        rows.slice(7 * g, 7 * g + 7).flatMap((swap) => {
          rawToWord(word, swap.usd_price as string);
          return [word[0]!, word[1]!];
        });
      expect(words).toEqual([expected(0), null, expected(2), expected(3), expected(4), expected(5)]);
      // Decoded here, a group carries none: the replay makes a word when a valuation asks for it.
      expect([...file.rowGroups([])].map((g) => g.priceWords)).toEqual([null, null, null, null, null, null]);
    } finally {
      file.close();
    }
  });

  it('tells the progress callback after each row group', () => {
    writeParquetTape(path('groups.parquet'), { ...header, swaps: swaps(40) } as never, 7);
    const seen: number[] = [];
    const file = new ParquetTapeFile(path('groups.parquet'), (done, total) => seen.push(done, total));
    try {
      for (const _ of rowGroupsAhead(file, [], false)) {
        // each group taken in turn
      }
    } finally {
      file.close();
    }
    expect(seen).toEqual([7, 40, 14, 40, 21, 40, 28, 40, 35, 40, 40, 40]);
  });

  it('throws the error of a row group it cannot decode when its turn comes, with the same message', () => {
    writeParquetTape(path('groups.parquet'), { ...header, swaps: swaps(40) } as never, 7);
    const bytes = readFileSync(path('groups.parquet'));
    const footer = bytes.readUInt32LE(bytes.length - 8);
    const metadata = parquetMetadata(bytes.subarray(bytes.length - 8 - footer).buffer.slice(0) as ArrayBuffer);
    const chunk = metadata.row_groups[3]!.columns.find((c) => c.meta_data?.path_in_schema[0] === 'quantity')!;
    const at = Number(chunk.meta_data!.data_page_offset);
    bytes.fill(0xff, at, at + Number(chunk.meta_data!.total_compressed_size));
    writeFileSync(path('corrupt.parquet'), bytes);

    const errorOf = (groups: () => Iterable<DecodedRowGroup>): { taken: number; message: string } => {
      let taken = 0;
      try {
        for (const _ of groups()) taken++;
      } catch (e) {
        return { taken, message: (e as Error).message };
      }
      throw new Error('no error');
    };
    const file = new ParquetTapeFile(path('corrupt.parquet'));
    try {
      const here = errorOf(() => file.rowGroups([]));
      expect(here.taken).toBe(3);
      expect(here.message).toMatch(/corrupt\.parquet: row group 3, column "quantity": cannot be decoded .*corrupt/);
      expect(errorOf(() => rowGroupsAhead(file, [], false))).toEqual(here);
      expect(errorOf(() => rowGroupsAhead(file, []))).toEqual(here);
    } finally {
      file.close();
    }
  });

  it('gives simulate the response of the JSON tape, byte for byte, and names a bad row of a later group', async () => {
    const tape = { ...header, swaps: swaps(40) };
    writeFileSync(path('t.json'), JSON.stringify(tape));
    writeParquetTape(path('t.parquet'), tape as never, 7);
    const request = scenarioRequest({
      wallets: ['W0'],
      from_date: '1970-01-01',
      to_date: '1970-01-01',
      priority_fee: 0.0005,
      max_dupe_buy_times: 2,
      inactivity_time_fix: { hours: 1 },
      include_bot_fees: true,
    });
    writeFileSync(path('r.json'), JSON.stringify(request));
    const json = await cli('simulate', '--tape', path('t.json'), '--request', path('r.json'));
    const parquet = await cli('simulate', '--tape', path('t.parquet'), '--request', path('r.json'));
    expect(json.code, json.err).toBe(0);
    expect((JSON.parse(json.out) as { deals: unknown[] }).deals.length).toBeGreaterThan(3);
    expect(parquet.out).toBe(json.out);

    const bad = swaps(40).map((swap, k) => (k === 30 ? { ...swap, quantity: '-5' } : swap));
    writeParquetTape(path('bad.parquet'), { ...header, swaps: bad } as never, 7);
    const refused = await cli('simulate', '--tape', path('bad.parquet'), '--request', path('r.json'));
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/bad\.parquet: row 30: tape: swap 30: swaps\[30\]\.quantity: /);
  });
});

describe('row group columns sent to another thread', () => {
  /** `columns` sent through a real message port and received, group after group. */
  function sent(groups: RowGroupColumns[], numbers: ReadonlySet<string> = new Set()): unknown[][][] {
    const sender = new ColumnsSender(numbers);
    const receiver = new ColumnsReceiver();
    const { port1, port2 } = new MessageChannel();
    try {
      return groups.map((columns) => {
        const wire = sender.wire(columns);
        port1.postMessage(wire.columns, wire.transfer);
        const got = receiver.columns(receiveMessageOnPort(port2)!.message as never);
        return Object.values(got).map((column) =>
          Array.from({ length: column.length }, (_, i) =>
            'at' in column && typeof column.at === 'function' ? column.at(i) : (column as ArrayLike<unknown>)[i],
          ),
        );
      });
    } finally {
      port1.close();
    }
  }

  const group = (wallets: (string | null)[], nulls: (number | undefined)[]): RowGroupColumns =>
    ({
      wallet: wallets,
      token: ['A', 'B', 'A'],
      type: ['buy', 'sell', 'buy'],
      time: Float64Array.from([1, 2, 3]),
      quantity: new LazyStrings('1.52e-3', Int32Array.from([0, 3, -1]), Int32Array.from([3, 7, 0])),
      usd_price: [0.5, 2, 3],
      usd_amount: [undefined, 1.5, null],
      usd_liquidity: [undefined, undefined, undefined],
      transaction_hash: new Array(3),
      explicit_nulls: nulls,
    }) as unknown as RowGroupColumns;

  it('keeps every value, a string table grown group by group, a mask missing as none set', () => {
    // Every column as the group held it, but a null of a string column missing and a missing mask 0.
    const received = (wallets: (string | undefined)[], masks: number[]): unknown[][] => [
      wallets,
      ['A', 'B', 'A'],
      ['buy', 'sell', 'buy'],
      [1, 2, 3],
      ['1.5', '2e-3', undefined],
      [0.5, 2, 3],
      [undefined, 1.5, null],
      [undefined, undefined, undefined],
      [undefined, undefined, undefined],
      masks,
    ];
    expect(sent([group(['W1', 'W2', 'W1'], [0, 1, undefined]), group(['W3', null, 'W1'], [2, 0, 5])])).toEqual([
      received(['W1', 'W2', 'W1'], [0, 1, 0]),
      received(['W3', undefined, 'W1'], [2, 0, 5]),
    ]);
  });

  it('sends a decimal column of JSON numbers as the doubles its text reads as, a missing one missing', () => {
    const amounts = new LazyStrings('1.50.1', Int32Array.from([0, -1, 3]), Int32Array.from([3, 0, 6]));
    const [columns] = sent([{ ...group(['W1', 'W2', 'W1'], [0, 0, 0]), usd_amount: amounts }], new Set(['usd_amount']));
    expect(columns![6]).toEqual([1.5, undefined, 0.1]);
  });
});
