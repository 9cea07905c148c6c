import type { CliIo } from './io.js';

export const WALLET_HELP = `copysim wallet (not built yet)`;

export function walletCommand(_args: string[], io: CliIo): number {
  io.err('copysim wallet: not built yet\n');
  return 1;
}
