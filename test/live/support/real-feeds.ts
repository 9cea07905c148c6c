/**
 * The real PumpSwap capture of ../shared/real-data as live feeds: its tape (imported as
 * `copysim import pumpswap` does), and the same trades as Helius enhanced transactions (the
 * form a Helius webhook posts), each with requests under model 1.2, 2.0 and 3.0.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Decimal } from 'decimal.js';
import type { TapeInput } from '../../../src/index.js';
import { importHelius, importPumpSwapFile, parsePriceSeries, suggestRequest } from '../../../src/import.js';
import { REAL_DATA_DIR } from '../../support/paths.js';

const CAPTURE = join(REAL_DATA_DIR, 'sol-pumpswap', 'floor_capture_sample.jsonl');
const SOL_USD = join(REAL_DATA_DIR, 'sol-pumpswap', 'sol_usd_hourly.json');

/** Requests on a tape: the suggested one (model 1.2), with a strategy (2.0), with the copier's wallet (3.0). */
export function requestsOf(tape: TapeInput): Record<'1.2' | '2.0' | '3.0', Record<string, unknown>> {
  const base = { ...suggestRequest(tape, 20)!, inactivity_time_fix: { hours: 1 } };
  return {
    '1.2': base,
    '2.0': {
      ...base,
      strategy: {
        copy_delay_seconds: 3,
        max_hold_hours: 1,
        stop_loss_percent: 35,
        take_profit: [{ roi: 80, sell_percent: 60 }],
        report_skipped: true,
      },
    },
    '3.0': {
      ...base,
      strategy: {
        starting_balance_usd: 3000,
        retries: 2,
        retry_delay_seconds: 2,
        failed_transaction_percent: 20,
        slippage_tolerance_percent: 10,
        random_seed: 11,
        report_leaders: true,
      },
    },
  };
}

/** The capture's tape, as `copysim import pumpswap … --sol-usd sol_usd_hourly.json` makes it. */
export function pumpSwapTape(): TapeInput {
  return importPumpSwapFile(CAPTURE, { solUsd: SOL_USD }).tape;
}

/** A Helius enhanced transaction of type SWAP: SOL for the token (a buy) or back. */
export interface HeliusTx {
  readonly timestamp: number;
  readonly [key: string]: unknown;
}

interface CaptureSwap {
  trader: string;
  side: string;
  ts: number;
  sol: number | null;
  tokens: number | null;
  sig?: string;
}

/** `amount` × 10^`places` as a whole number's text. */
const raw = (amount: number, places: number): string =>
  new Decimal(String(amount)).times(new Decimal(10).pow(places)).toFixed(0);

/**
 * The capture's trades as Helius would post them: in time order, each a SWAP with its SOL leg
 * in lamports and its token leg in raw units (6 decimals), the slot its place in that order.
 */
export function heliusTransactions(): HeliusTx[] {
  const swaps: { mint: string; s: CaptureSwap }[] = [];
  for (const line of readFileSync(CAPTURE, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const capture = JSON.parse(line) as { mint: string; swaps: CaptureSwap[] };
    for (const s of capture.swaps) {
      if (
        (s.side === 'buy' || s.side === 'sell') &&
        s.sol &&
        s.tokens &&
        raw(s.sol, 9) !== '0' &&
        raw(s.tokens, 6) !== '0'
      )
        swaps.push({ mint: capture.mint, s });
    }
  }
  swaps.sort((a, b) => a.s.ts - b.s.ts);
  return swaps.map(({ mint, s }, slot) => {
    const sol = { account: s.trader, amount: raw(s.sol!, 9) };
    const token = [{ userAccount: s.trader, mint, rawTokenAmount: { tokenAmount: raw(s.tokens!, 6), decimals: 6 } }];
    const swap =
      s.side === 'buy' ? { nativeInput: sol, tokenOutputs: token } : { tokenInputs: token, nativeOutput: sol };
    return {
      signature: s.sig ?? `capture-${slot}`,
      type: 'SWAP',
      source: 'PUMP_AMM',
      fee: 5000,
      feePayer: s.trader,
      slot,
      timestamp: s.ts,
      events: { swap },
    };
  });
}

/** The tape the Helius importer makes of all the transactions at once: what the Helius feed is the feed of. */
export function heliusTape(transactions: readonly HeliusTx[]): TapeInput {
  const series = parsePriceSeries(readFileSync(SOL_USD, 'utf8'), 'sol_usd_hourly.json');
  return importHelius(transactions, 'helius.json', { solUsd: series, outlierFactor: 0 }).tape;
}
