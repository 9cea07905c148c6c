/**
 * The closing queue hands a summary-only replay's closed deals to its fold in closing order (model
 * 5: by closing time, ties in deal order), holding only the deals closed at the latest time.
 */
import { describe, expect, it } from 'vitest';
import { ClosingQueue } from '../../src/engine/closing-queue.js';
import type { Deal } from '../../src/engine/deal.js';

function closedAt(index: number, closeTime: number): Deal {
  return { index, closeTime } as Deal;
}

describe('ClosingQueue', () => {
  it('hands deals closed at one time over in deal order once the time moves on', () => {
    const given: number[] = [];
    const queue = new ClosingQueue({ add: (deal) => given.push(deal.index) });
    queue.add(closedAt(3, 100));
    queue.add(closedAt(1, 100)); // two time-fixes due together, the later deal's first
    expect(given).toEqual([]);
    queue.add(closedAt(0, 160));
    expect(given).toEqual([1, 3]);
    queue.add(closedAt(4, 160));
    queue.add(closedAt(2, 160));
    queue.flush();
    expect(given).toEqual([1, 3, 0, 2, 4]);
    queue.flush();
    expect(given).toEqual([1, 3, 0, 2, 4]);
  });

  it('refuses a deal closed before one it has handed over', () => {
    const queue = new ClosingQueue({ add: () => {} });
    queue.add(closedAt(0, 100));
    queue.add(closedAt(1, 200));
    expect(() => queue.add(closedAt(2, 150))).toThrow('deal 2 closed at 150, before a deal closed at 200');
  });
});
