import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { convertTapeFile } from '../io/convert-tape.js';
import { EXIT_OK, type CliIo } from './io.js';
import { UsageError } from './usage.js';

export const CONVERT_HELP = `copysim convert IN OUT

Converts a tape between its three forms, named by the files' extensions: .json (one JSON
object), .jsonl (a header line, then one swap a line) and .parquet (columnar: one column a
field, row groups of 100,000 swaps, decimals as exact strings). Any direction; a JSONL or Parquet
input is streamed, so a tape larger than memory converts. Every swap is validated on the way;
values keep their form, so converting there and back gives the same swaps. Prints the swap
count and both sizes.`;

/** `copysim convert IN OUT`. */
export function convertCommand(args: string[], io: CliIo): number {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true, strict: true });
  if (positionals.length !== 2) throw new UsageError('convert needs an input and an output tape file');
  const [input, output] = positionals as [string, string];
  const { swaps } = convertTapeFile(input, output);
  const mb = (path: string): string => `${(statSync(path).size / 1e6).toFixed(1)} MB`;
  io.out(`${output}: ${swaps} swaps (${mb(input)} -> ${mb(output)})\n`);
  return EXIT_OK;
}
