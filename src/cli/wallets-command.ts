import type { CliIo } from './io.js';

export const WALLETS_HELP = `copysim wallets (not built yet)`;

export function walletsCommand(_args: string[], io: CliIo): number {
  io.err('copysim wallets: not built yet\n');
  return 1;
}
