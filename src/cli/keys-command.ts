import type { CliIo } from './io.js';

export const KEYS_HELP = `copysim keys (not built yet)`;

export function keysCommand(_args: string[], io: CliIo): number {
  io.err('copysim keys: not built yet\n');
  return 1;
}
