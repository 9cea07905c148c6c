import type { CliIo } from './io.js';

export const EXAMPLE_HELP = `copysim example [--out DIR]

Runs the bundled example (fixtures/example) and prints a readable report.`;

export function exampleCommand(_args: string[], io: CliIo): number {
  io.out('example: not yet\n');
  return 0;
}
