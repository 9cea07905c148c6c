import type { SkippedCopyJson } from '../model/response.js';
import type { SkipReason } from './buy-filters.js';

/**
 * The leader swaps inside the window that were not copied, in the order the decisions were taken
 * (strategy extensions 7, `report_skipped`): `time` is when the copy was decided (a pending
 * copy's due time), `wallet` and `token` as the leader's swap spells them.
 */
export class SkipLog {
  readonly entries: SkippedCopyJson[] = [];

  add(time: number, wallet: string, token: string, buy: boolean, reason: SkipReason): void {
    this.entries.push({ time, wallet, token, type: buy ? 'buy' : 'sell', reason });
  }
}
