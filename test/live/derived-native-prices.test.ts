/**
 * A feed has no native prices of its own to derive (its swaps carry no native leg, Helius's no
 * USD value: docs/live.md): a tape imported without a price file brings those the importer
 * derived, and fed live it gives the backtest, network fees charged at them.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importProviderFiles } from '../../src/import.js';
import { LiveSimulation } from '../../src/live/live-simulation.js';
import { requestWindow, type SimulatorRequest } from '../../src/model/request.js';
import { simulate } from '../../src/simulate.js';
import { present, REAL_DATA_DIR } from '../support/paths.js';
import { feedOf } from './support/feeder.js';

const DUNE = join(REAL_DATA_DIR, 'exports', 'dune');
const available = present(DUNE);
if (!available) console.warn(`the live run of a Dune export skipped: ${DUNE} is absent`);

describe.skipIf(!available)('a Dune export imported without a price file, fed live', () => {
  it('equals the backtest, fees charged at the native prices derived', () => {
    const files = ['trojan_solana_trades_seed.csv', 'bonkbot_solana_trades_seed.csv'].map((f) => join(DUNE, f));
    const { tape } = importProviderFiles('dune', files);
    expect(tape.native_prices!.length).toBeGreaterThan(0);
    const wallets = [...new Set(tape.swaps.filter((s) => s.type === 'buy').map((s) => s.wallet))];
    const request = {
      wallets,
      network: 'sol',
      from_date: '2024-03-08',
      to_date: '2024-03-17',
      buy_percentage: 100,
      max_buy_amount: 100,
      max_position_amount: 500,
      priority_fee: 0.0001,
      bribe: 0,
      max_dupe_buy_times: 1,
    };
    const expected = simulate(tape as never, request);
    expect(expected.summary.network_fees).toBeGreaterThan(0);
    const live = new LiveSimulation({ request, lateness: 2, keepInputs: false });
    const end = requestWindow(live.request as SimulatorRequest).end;
    for (const batch of feedOf(tape, { lateness: 2, windowEnd: end, seed: 7 })) live.push(batch);
    expect(live.ended).toBe(true);
    expect(JSON.stringify(live.response())).toBe(JSON.stringify(expected));
  });
});
