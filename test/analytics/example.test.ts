/**
 * The analytics over the bundled example tapes: every read of every listed wallet matches its
 * schema, and each leader's follower is what `simulate` gives for that leader alone.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulate, type TapeInput } from '../../src/index.js';
import {
  buildAnalyticsIndex,
  DEFAULT_COPY_SETTINGS,
  ListWalletsResultSchema,
  listWallets,
  walletDeals,
  WalletDealsResultSchema,
  walletIndicators,
  WalletIndicatorsResultSchema,
  walletInvestmentChart,
  WalletInvestmentChartResultSchema,
  walletPnlChart,
  WalletPnlChartResultSchema,
} from '../../src/analytics.js';
import { PROJECT_ROOT, present } from '../support/paths.js';
import { checked } from './support.js';

const EXAMPLE = resolve(PROJECT_ROOT, 'fixtures', 'example');

describe.each(['sol', 'eth'] as const)('the bundled %s example', (network) => {
  const file = resolve(EXAMPLE, `tape-${network}.json`);
  it.skipIf(!present(file))(`answers every read (skipped when ${file} is absent)`, () => {
    const tape = JSON.parse(readFileSync(file, 'utf8')) as TapeInput;
    const request = JSON.parse(readFileSync(resolve(EXAMPLE, `request-${network}.json`), 'utf8')) as {
      wallets: string[];
    };
    const index = buildAnalyticsIndex(tape);
    const list = checked(
      ListWalletsResultSchema,
      listWallets(index, { sort_by: { indicator: 'pnl_total', period: 'all' } }),
    );
    expect(list.wallets.length).toBeGreaterThan(0);
    const lastTime = Math.max(...tape.swaps.map((s) => s.time));
    for (const address of [...request.wallets, list.wallets[0]!.address]) {
      checked(WalletIndicatorsResultSchema, walletIndicators(index, address, { network }));
      checked(WalletPnlChartResultSchema, walletPnlChart(index, address, { network, period: '1m' }));
      checked(WalletInvestmentChartResultSchema, walletInvestmentChart(index, address, { network, period: '7d' }));
      const deals = checked(WalletDealsResultSchema, walletDeals(index, address, { network, per_page: 150 })).deals;
      const simulated = simulate(tape, {
        ...DEFAULT_COPY_SETTINGS,
        wallets: [address],
        network,
        from_date: '1970-01-01',
        to_date: new Date(lastTime * 1000).toISOString().slice(0, 10),
      }).deals;
      expect(deals.map((d) => d.pnl_total.following).reverse()).toEqual(simulated.map((d) => d.pnl_total));
    }
  });
});
