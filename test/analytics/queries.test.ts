/** Query validation shared by the four wallet reads: the 400 bodies. */
import { describe, expect, it } from 'vitest';
import { ErrorBodySchema, RequestError } from '../../src/index.js';
import {
  buildAnalyticsIndex,
  walletDeals,
  walletIndicators,
  walletInvestmentChart,
  walletPnlChart,
} from '../../src/analytics.js';
import { checked, mainTape, T0, W } from './support.js';

const index = buildAnalyticsIndex(mainTape());
const READS = { walletDeals, walletIndicators, walletInvestmentChart, walletPnlChart };

function rejection(read: () => unknown) {
  try {
    read();
  } catch (e) {
    expect(e).toBeInstanceOf(RequestError);
    return checked(ErrorBodySchema, (e as RequestError).body);
  }
  return expect.fail('no RequestError');
}

describe.each(Object.entries(READS))('%s', (_name, read) => {
  const chart = read === walletPnlChart || read === walletInvestmentChart;
  const base = chart ? { period: '24h' } : {};

  it.each([
    [{}, 'network', 'Invalid option'], // network is required
    [{ network: 'btc' }, 'network', 'Invalid option'],
    [{ network: 'eth' }, 'network', 'this tape holds "sol" swaps; no data for network "eth"'],
    [{ network: 'sol', foo: '1' }, 'foo', 'unknown parameter'],
  ])('%j → %s', (query, path, message) => {
    const b = rejection(() => read(index, W, { ...base, ...query }));
    expect(b.code).toBe('validation_error');
    expect(b.detail).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it.each([
    [{ from_time: 0 }, 'from_time'], // min 1
    [{ from_time: 'yesterday' }, 'from_time'],
    [{ to_time: '' }, 'to_time'],
    [{ from_time: T0 + 2, to_time: T0 + 1 }, 'from_time'], // after to_time
  ])('times: %j → %s', (query, path) => {
    // A chart needs a whole range to get as far as checking the times.
    const range = chart ? { from_time: T0, to_time: T0 + 9 } : {};
    const b = rejection(() => read(index, W, { network: 'sol', ...range, ...query }));
    expect(b).toMatchObject({ code: 'validation_error', detail: [{ path }] });
  });
});

describe('deals paging and search limits', () => {
  it.each([
    [{ per_page: 0 }, 'per_page'],
    [{ per_page: 151 }, 'per_page'],
    [{ per_page: '2.5' }, 'per_page'],
    [{ page: 0 }, 'page'],
    [{ search: 'x'.repeat(129) }, 'search'],
  ])('%j → %s', (query, path) => {
    expect(rejection(() => walletDeals(index, W, { network: 'sol', ...query }))).toMatchObject({
      code: 'validation_error',
      detail: [{ path }],
    });
  });

  it('accepts the limits themselves', () => {
    expect(walletDeals(index, W, { network: 'sol', per_page: 150, search: 'x'.repeat(128) }).page.per_page).toBe(150);
    expect(walletDeals(index, W, { network: 'sol', per_page: '1' }).deals.length).toBe(1);
  });
});
