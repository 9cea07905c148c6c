/**
 * `--network`, `--tokens` and `--native-prices`: the header of a Parquet tape another program
 * wrote (DuckDB, pandas, …), which lacks copysim's header metadata. Every command that reads a
 * tape takes them, as the library's `TapeHeaderOptions`.
 */
import type { z } from 'zod';
import { InputError } from '../model/errors.js';
import { NetworkSchema } from '../model/request.js';
import { TapeHeaderSchema } from '../model/tape.js';
import { parseJsonText, readText } from '../io/files.js';
import { parsePriceSeries } from '../io/import/prices.js';
import { tapeNativePrices } from '../io/import/tape-builder.js';
import { isParquetPath } from '../io/parquet/format.js';
import type { TapeHeaderOptions } from '../io/parquet/header.js';
import { UsageError } from './usage.js';

/** The flags, for `parseArgs`. */
export const TAPE_HEADER_FLAGS = {
  network: { type: 'string' },
  tokens: { type: 'string' },
  'native-prices': { type: 'string' },
} as const;

/** The flags' lines of a command's help. */
export const TAPE_HEADER_HELP = [
  'For a Parquet tape another program wrote (DuckDB, pandas, …), which has no copysim header:',
  '  --network sol|eth     its network (required for such a file)',
  '  --tokens FILE         its tokens: the tape\'s "tokens" map as JSON',
  '                        ({"ADDRESS": {"name", "symbol", "created_at", "scam_status"}, …})',
  "  --native-prices FILE  the USD price of the network's coin: JSON [[unix, usd], …], or a price",
  '                        file as copysim import takes it (GeckoTerminal JSON, a CSV with Date',
  '                        and Close, or "unix,price" lines)',
  "A flag fills what the file's header lacks; one that contradicts it is refused",
  '(docs/columnar-tape.md).',
].join('\n');

/** The flags' values as `parseArgs` gives them. */
export interface TapeHeaderFlagValues {
  readonly network?: string | undefined;
  readonly tokens?: string | undefined;
  readonly 'native-prices'?: string | undefined;
}

/**
 * The header options the flags give, their files read and checked. `tape` is the tape's path:
 * the flags are refused beside a JSON or JSONL tape, which carries its own header.
 */
export function tapeHeaderOptions(values: TapeHeaderFlagValues, tape: string | undefined): TapeHeaderOptions {
  const given = (['network', 'tokens', 'native-prices'] as const).filter((flag) => values[flag] !== undefined);
  if (given.length === 0) return {};
  if (tape !== undefined && !isParquetPath(tape)) {
    throw new UsageError(
      `${given.map((flag) => `--${flag}`).join(', ')}: for a Parquet tape without copysim's header;` +
        ` the tape ${tape} holds its own header ("network", "tokens", "native_prices")`,
    );
  }
  return {
    ...(values.network !== undefined ? { network: network(values.network) } : {}),
    ...(values.tokens !== undefined ? { tokens: readTokens(values.tokens) } : {}),
    ...(values['native-prices'] !== undefined ? { nativePrices: readNativePrices(values['native-prices']) } : {}),
  };
}

function network(text: string): NonNullable<TapeHeaderOptions['network']> {
  const parsed = NetworkSchema.safeParse(text);
  if (!parsed.success) throw new UsageError(`--network must be sol or eth, not "${text}"`);
  return parsed.data;
}

function readTokens(path: string): NonNullable<TapeHeaderOptions['tokens']> {
  const value = parseJsonText(readText(path, 'tokens'), path, 'tokens');
  return checked(TapeHeaderSchema.shape.tokens, value, path, 'a tokens map {"ADDRESS": {"name", "symbol", …}}');
}

/** The tape's own form (a JSON array of points), else a price file as the importers read it. */
function readNativePrices(path: string): NonNullable<TapeHeaderOptions['nativePrices']> {
  const text = readText(path, 'native prices');
  if (text.trimStart().startsWith('[')) {
    const value = parseJsonText(text, path, 'native prices');
    return checked(TapeHeaderSchema.shape.native_prices, value, path, '[[unix, usd], …]');
  }
  return tapeNativePrices(parsePriceSeries(text, path));
}

function checked<S extends z.ZodType>(schema: S, value: unknown, path: string, expected: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  throw new InputError(`${path}: expected ${expected}: ${where}${issue.message}`, { source: path });
}
