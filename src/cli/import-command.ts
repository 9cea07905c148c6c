import type { CliIo } from './io.js';

export const IMPORT_HELP = `copysim import (not built yet)`;

export function importCommand(_args: string[], io: CliIo): number {
  io.err('copysim import: not built yet\n');
  return 1;
}
