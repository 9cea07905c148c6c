/**
 * Generated feeds for the live tests: a small tape of the benchmark's generator (tokens that
 * pump and dump, leaders buying early and selling in chunks, a crowd of market wallets) and a
 * request on it under model 1.2, 2.0 (a strategy) and 3.0 (the copier's wallet).
 */
import { TapeGenerator, type SwapJson, type TapeHeaderJson } from '../../../bench/tape-generator.js';

export interface GeneratedFeed {
  readonly model: '1.2' | '2.0' | '3.0';
  readonly tape: TapeHeaderJson & { swaps: SwapJson[] };
  readonly request: Record<string, unknown>;
}

const STRATEGY = {
  copy_delay_seconds: 20,
  max_hold_hours: 3,
  take_profit: [{ roi: 50, sell_percent: 50 }],
  stop_loss_percent: 40,
  min_leader_buy_usd: 30,
  report_skipped: true,
};

const COPIER = {
  copy_delay_seconds: 2,
  starting_balance_usd: 1500,
  reserve_usd: 100,
  max_open_deals: 6,
  slippage_tolerance_percent: 8,
  failed_transaction_percent: 15,
  retries: 2,
  retry_delay_seconds: 5,
  sandwich_percent: 10,
  random_seed: 7,
  report_skipped: true,
  report_leaders: true,
};

/** The generated tape of `swaps` swaps (seeded) and the three requests on it. */
export function generatedFeeds(swaps = 4000, seed = 3): GeneratedFeed[] {
  const generator = new TapeGenerator({ swaps, leaders: 12, tokens: 30, marketWallets: 400, days: 2, seed });
  const tape = { ...generator.header, swaps: [...generator.swaps()] };
  const base = { ...generator.request(), wallets: generator.leaders.slice(0, 12), inactivity_time_fix: { hours: 2 } };
  return [
    { model: '1.2', tape, request: base },
    { model: '2.0', tape, request: { ...base, strategy: STRATEGY } },
    { model: '3.0', tape, request: { ...base, strategy: COPIER } },
  ];
}
