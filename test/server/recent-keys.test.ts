import { describe, expect, it } from 'vitest';
import { RecentKeys } from '../../src/server/ledger/recent-keys.js';

const status = (id: number, disabled = false) => ({ id, disabled, rate: null });

describe('the key statuses an instance keeps', () => {
  it('gives a status until its age reaches the limit, counted from when the database was asked', () => {
    const recent = new RecentKeys(1000, 10);
    recent.set('a', status(1), 5000);
    expect(recent.get('a', 5999)).toEqual(status(1));
    expect(recent.get('a', 6000)).toBeUndefined();
    expect(recent.get('b', 5000)).toBeUndefined();
  });

  it('keeps the newer of two answers, whichever arrives last', () => {
    const recent = new RecentKeys(1000, 10);
    recent.set('a', status(1, true), 5100);
    recent.set('a', status(1, false), 5000); // asked earlier, answered later
    expect(recent.get('a', 5500)).toEqual(status(1, true));
  });

  it('forgets a key changed here, and the oldest past its size', () => {
    const recent = new RecentKeys(1000, 2);
    recent.set('a', status(1), 5000);
    recent.set('b', status(2), 5001);
    recent.set('c', status(3), 5002);
    expect([recent.get('a', 5003), recent.get('b', 5003)]).toEqual([undefined, status(2)]);
    recent.forget(2);
    expect([recent.get('b', 5003), recent.get('c', 5003)]).toEqual([undefined, status(3)]);
  });
});
