/**
 * The service page's API client: the credits it shows when calls made at once are answered in
 * another order than the service charged them.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Api } from '../../web/app/api.js';

/** A fetch whose answers (credits remaining, in the body's envelope) are released by hand. */
function heldFetch(): { release: (remaining: number) => void } {
  const waiting: ((response: Response) => void)[] = [];
  vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => waiting.push(resolve)));
  return {
    release(remaining) {
      waiting.shift()!(new Response(JSON.stringify({ result: {}, credits: { remaining } }), { status: 200 }));
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => vi.unstubAllGlobals());

describe('the page shows the credits left', () => {
  it('after four calls at once answered out of order: the least, not the last answered', async () => {
    const shown: number[] = [];
    const api = new Api('key', (n: number) => shown.push(n));
    const fetch = heldFetch();
    const calls = [1, 2, 3, 4].map(() => api.call('GET', '/v1/wallets/w/indicators'));
    // Charged 84, 83, 82, 81; answered 82, 81, 84, 83.
    for (const remaining of [82, 81, 84, 83]) {
      fetch.release(remaining);
      await settle();
    }
    await Promise.all(calls);
    expect(shown).toEqual([82, 81, 81, 81]);
  });

  it('after calls one at a time: each answer as it is, a top-up included', async () => {
    const shown: number[] = [];
    const api = new Api('key', (n: number) => shown.push(n));
    const fetch = heldFetch();
    for (const remaining of [90, 80, 100]) {
      const call = api.call('GET', '/v1/wallets');
      fetch.release(remaining);
      await call;
    }
    expect(shown).toEqual([90, 80, 100]);
  });
});
