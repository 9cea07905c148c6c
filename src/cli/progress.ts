import type { CliIo } from './io.js';

/** A progress bar on standard error; drawn only when standard error is a terminal. */
export interface Progress {
  /** Moves the bar to `done` out of `total`. */
  update(done: number, total: number): void;
  /** Clears the bar's line. */
  finish(): void;
}

const WIDTH = 30;
const SILENT: Progress = { update: () => {}, finish: () => {} };

/**
 * A progress bar for a long simulation or sweep, such as
 * `simulate  [#########.....................]  31%  310,000 / 1,000,000 swaps`. It redraws only
 * when the whole percent changes, reads no clock, and does nothing when standard error is not
 * a terminal, so logs and pipes stay clean.
 *
 * @example
 * const bar = progressBar(io, 'sweep', 'requests');
 * bar.update(10, 1000);
 * bar.finish();
 */
export function progressBar(io: CliIo, label: string, unit: string): Progress {
  if (!io.errIsTty) return SILENT;
  let shown = -1;
  return {
    update(done, total) {
      const percent = total > 0 ? Math.min(100, Math.floor((100 * done) / total)) : 0;
      if (percent === shown) return;
      shown = percent;
      const filled = Math.round((WIDTH * percent) / 100);
      const count = `${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} ${unit}`;
      io.err(
        `\r${label}  [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${String(percent).padStart(3)}%  ${count}`,
      );
    },
    finish() {
      if (shown >= 0) io.err('\r\x1b[2K');
    },
  };
}
