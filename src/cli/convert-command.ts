import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { convertTapeFile } from '../io/convert-tape.js';
import { EXIT_OK, type CliIo } from './io.js';
import { TAPE_HEADER_FLAGS, TAPE_HEADER_HELP, tapeHeaderOptions } from './tape-header-flags.js';
import { UsageError } from './usage.js';

export const CONVERT_HELP = `copysim convert IN OUT [--network sol|eth] [--tokens FILE] [--native-prices FILE]

Converts a tape between its three forms, named by the files' extensions: .json (one JSON
object), .jsonl (a header line, then one swap a line) and .parquet (columnar: one column a
field, row groups of 250,000 swaps, decimals as exact strings). Any direction; a JSONL or Parquet
input is streamed, so a tape larger than memory converts. Every swap is validated on the way;
values keep their form, so converting there and back gives the same swaps. Prints the swap
count and both sizes. A Parquet file another program wrote (DuckDB, pandas, …) converts too:
its DOUBLE, DECIMAL, integer and TIMESTAMP columns become the tape's values, and the flags give
its header (see docs/columnar-tape.md); the output carries it.

${TAPE_HEADER_HELP}`;

/** `copysim convert IN OUT`. */
export function convertCommand(args: string[], io: CliIo): number {
  const { values, positionals } = parseArgs({ args, options: TAPE_HEADER_FLAGS, allowPositionals: true, strict: true });
  if (positionals.length !== 2) throw new UsageError('convert needs an input and an output tape file');
  const [input, output] = positionals as [string, string];
  const { swaps } = convertTapeFile(input, output, tapeHeaderOptions(values, input));
  const mb = (path: string): string => `${(statSync(path).size / 1e6).toFixed(1)} MB`;
  io.out(`${output}: ${swaps} swaps (${mb(input)} -> ${mb(output)})\n`);
  return EXIT_OK;
}
