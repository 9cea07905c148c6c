import fc from 'fast-check';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { readDeltaInt64 } from '../../src/io/parquet/fast-int64.js';

/** One INT64 column written DELTA_BINARY_PACKED, small pages so that a chunk has several. */
function int64File(values: readonly bigint[]): ArrayBuffer {
  const bytes = parquetWriteBuffer({
    columnData: [{ name: 'time', data: values as bigint[], encoding: 'DELTA_BINARY_PACKED' }],
    schema: [
      { name: 'root', num_children: 1 },
      { name: 'time', type: 'INT64', repetition_type: 'REQUIRED' },
    ],
    codec: 'UNCOMPRESSED',
    pageSize: 512,
  });
  return bytes;
}

function fastRead(file: ArrayBuffer): number[] | null {
  const meta = parquetMetadata(file);
  const out: number[] = [];
  for (const group of meta.row_groups) {
    const chunk = group.columns[0]!.meta_data!;
    const start = Number(chunk.data_page_offset);
    const bytes = new Uint8Array(file, start, Number(chunk.total_compressed_size));
    const values = readDeltaInt64(bytes, chunk.codec, {}, Number(group.num_rows));
    if (values === null) return null;
    out.push(...values);
  }
  return out;
}

describe('the INT64 delta decoder for times', () => {
  it('decodes hand-made times, rising, equal and falling back, as hyparquet does', async () => {
    const times = [1_709_251_273n, 1_709_251_273n, 1_709_251_284n, 1_709_250_000n, 1_700_000_000n, 1_800_000_000n];
    expect(fastRead(int64File(times))).toEqual(times.map(Number));
    const file = int64File(times);
    const rows = (await parquetReadObjects({ file })) as { time: bigint }[];
    expect(rows.map((r) => r.time)).toEqual(times);
  });

  it('equals hyparquet on any run of safe integers (deltas of every width up to 32 bits), and gives way beyond', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: -5, max: 5 }), fc.constant(0)), {
          minLength: 1,
          maxLength: 600,
        }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        async (steps, first) => {
          const values: bigint[] = [];
          let v = BigInt(first);
          for (const step of steps) values.push((v += BigInt(step)));
          const file = int64File(values);
          const expected = ((await parquetReadObjects({ file })) as { time: bigint }[]).map((r) => Number(r.time));
          expect(fastRead(file)).toEqual(expected);
        },
      ),
      { numRuns: 60, seed: 7 },
    );
  });

  it('declines values past 2^53 and deltas wider than 32 bits (hyparquet reads those)', () => {
    // Deltas of +2^40 and -2^40: residuals of 42 bits above the block's least delta.
    expect(fastRead(int64File([0n, 2n ** 40n, 0n]))).toBeNull();
    // One large delta alone is the block's least delta, with nothing packed: read.
    expect(fastRead(int64File([0n, 2n ** 40n]))).toEqual([0, 2 ** 40]);
    expect(fastRead(int64File([2n ** 53n + 2n, 2n ** 53n + 3n]))).toBeNull();
    expect(fastRead(int64File([5n, 6n, 7n]))).toEqual([5, 6, 7]);
  });
});
