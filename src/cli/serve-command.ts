import type { CliIo } from './io.js';

export const SERVE_HELP = `copysim serve (not built yet)`;

export function serveCommand(_args: string[], io: CliIo): number {
  io.err('copysim serve: not built yet\n');
  return 1;
}
