/**
 * The real tapes of ../shared/real-data, imported with the library's adapters, and the settings
 * the tests run them under (on top of the request `suggestRequest` makes for a tape).
 */
import { join } from 'node:path';
import type { SimulatorRequestInput } from '../../src/index.js';
import { importPumpSwapFile, importUniswapFiles, type ImportResult } from '../../src/import.js';
import { REAL_DATA_DIR } from './paths.js';

/** Each real tape by name, imported when called (the data may be absent: see `present`). */
export const REAL_TAPES: readonly (readonly [string, () => ImportResult])[] = [
  [
    'Uniswap v2/v3 on eth (four pools)',
    () =>
      importUniswapFiles(
        [
          'uniswap_v2/0x2a8e096189d66f57196678701eb03f9c5f591ff3.json',
          'uniswap_v2/0x74ab6bf0d6a8e8b2b06fa4e3225e8142d658cd80.json',
          'uniswap_v3/0x3796f2e6a8f00d8f397dad77f5a77d60ae829e6b.json',
          'uniswap_v3/0x6b102c653f9dd4b5df3efcc22f36847ef285b318.json',
        ].map((f) => join(REAL_DATA_DIR, 'eth-uniswap', 'sample_data', f)),
        {
          pools: join(REAL_DATA_DIR, 'eth-uniswap', 'pool_info.csv'),
          ethUsd: join(REAL_DATA_DIR, 'prices', 'ETH-USD_daily_yahoo_Cryp-Tor.csv'),
        },
      ),
  ],
  [
    'PumpSwap capture on sol',
    () =>
      importPumpSwapFile(join(REAL_DATA_DIR, 'sol-pumpswap', 'floor_capture_sample.jsonl'), {
        solUsd: join(REAL_DATA_DIR, 'sol-pumpswap', 'sol_usd_hourly.json'),
      }),
  ],
];

/** Settings every real tape runs under, on top of the suggested request. */
export const REAL_SETTINGS: readonly (readonly [string, Partial<SimulatorRequestInput>])[] = [
  ['suggested (bot fees, no time-fix)', {}],
  ['close_all', { close_all: true }],
  ['time-fix 1 h', { inactivity_time_fix: { hours: 1 } }],
  ['tight caps, no dupes', { max_buy_amount: 50, max_position_amount: 120, max_dupe_buy_times: 0 }],
  ['tight caps, dupe buys', { max_buy_amount: 50, max_position_amount: 120, max_dupe_buy_times: 2 }],
  [
    'no bot fees, priority fee and bribe',
    { include_bot_fees: false, priority_fee: 0.001, bribe: 0.0005, buy_percentage: 10 },
  ],
];
