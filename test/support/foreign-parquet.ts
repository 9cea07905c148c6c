import { readFileSync, writeFileSync } from 'node:fs';
import { fileWriter, ParquetWriter } from 'hyparquet-writer';

/** A JSON tape's parts, as this helper reads them. */
interface TapeJson {
  network: string;
  tokens?: unknown;
  native_prices?: unknown;
  swaps: Record<string, unknown>[];
}

const text = (name: string, optional = false) =>
  ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: optional ? 'OPTIONAL' : 'REQUIRED' }) as const;

/**
 * Writes the JSON tape `tapePath` as a Parquet file another program might write: no copysim
 * metadata, times as TIMESTAMP(MICROS), decimals as text (a JSON number as its shortest text, the
 * same decimal), an explicit null as a null. Its header goes to `<header>.tokens.json` and
 * `<header>.prices.json` (`header`: `out` by default); returns the flags that give it back.
 */
export function writeForeignParquet(tapePath: string, out: string, header = out): string[] {
  const tape = JSON.parse(readFileSync(tapePath, 'utf8')) as TapeJson;
  const column = (field: string) => tape.swaps.map((s) => (s[field] == null ? null : String(s[field])));
  const writer = new ParquetWriter({
    writer: fileWriter(out),
    schema: [
      { name: 'schema', num_children: 9 },
      text('wallet'),
      text('token'),
      text('type'),
      {
        name: 'time',
        type: 'INT64',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
        repetition_type: 'REQUIRED',
      },
      text('quantity'),
      text('usd_price'),
      text('usd_amount', true),
      text('usd_liquidity', true),
      text('transaction_hash', true),
    ],
  });
  writer.write({
    columnData: [
      ...['wallet', 'token', 'type'].map((name) => ({ name, data: column(name) })),
      { name: 'time', data: tape.swaps.map((s) => BigInt(s.time as number) * 1_000_000n) },
      ...['quantity', 'usd_price', 'usd_amount', 'usd_liquidity', 'transaction_hash'].map((name) => ({
        name,
        data: column(name),
      })),
    ] as never,
  });
  writer.finish();
  writeFileSync(`${header}.tokens.json`, JSON.stringify(tape.tokens ?? {}));
  writeFileSync(`${header}.prices.json`, JSON.stringify(tape.native_prices ?? []));
  return ['--network', tape.network, '--tokens', `${header}.tokens.json`, '--native-prices', `${header}.prices.json`];
}
