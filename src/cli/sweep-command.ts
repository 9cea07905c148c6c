import type { CliIo } from './io.js';

export const SWEEP_HELP = `copysim sweep (not built yet)`;

export function sweepCommand(_args: string[], io: CliIo): number {
  io.err('copysim sweep: not built yet\n');
  return 1;
}
