import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DecimalJs40 as Decimal } from '../../src/numeric/decimal.js';
import { parseTape } from '../../src/index.js';
import {
  importProviderFiles,
  importPumpSwapFile,
  importDune,
  importFlipside,
  readExportTable,
  type Provider,
} from '../../src/import.js';
import { duneExportOf, flipsideExportOf } from '../../scripts/make-export.js';
import { present, REAL_DATA_DIR } from '../support/paths.js';

const EXPORTS = join(REAL_DATA_DIR, 'exports');
const SOL_USD = join(REAL_DATA_DIR, 'sol-pumpswap', 'sol_usd_hourly.json');
const available = present(EXPORTS);
if (!available) console.warn(`skipping the real exports: ${EXPORTS} is absent`);

const file = (provider: string, name: string): string => join(EXPORTS, provider, name);

describe.skipIf(!available)('the real exports of ../shared/real-data/exports', () => {
  // [provider, file, options, kept, rows]: what each importer keeps of each real file.
  it.each<[Provider, string, Record<string, unknown>, number, number]>([
    ['dune', 'banana_gun_ethereum_trades_seed.csv', {}, 20, 20],
    ['dune', 'bonkbot_solana_trades_seed.csv', {}, 20, 20],
    ['dune', 'trojan_solana_trades_seed.csv', {}, 19, 20],
    ['dune', 'dex_trades.csv', {}, 15_498, 29_653],
    // The Flipside seeds have no time: placed at --assume-time, inside the SOL/USD series.
    ['flipside', 'testing__swaps.csv', { assumeTime: 1_782_864_000, solUsd: SOL_USD }, 46, 103],
    ['flipside', 'testing__swaps_pumpfun.csv', { assumeTime: 1_782_864_000, solUsd: SOL_USD }, 6, 6],
    ['flipside', 'testing__swaps_intermediate_raydium.csv', { assumeTime: 1_782_864_000, solUsd: SOL_USD }, 13, 23],
    ['helius', 'test_helius.py__TX_MISSING_TOKEN_ACCOUNT_INFO.json', {}, 1, 1],
    ['helius', 'sol-pnl_src_data.json', { assumeTime: 1_782_864_000, solUsd: SOL_USD }, 52, 52],
    ['birdeye', 'get-defi-txs-token.response.json', {}, 1, 1],
    ['birdeye', 'get-defi-txs-token-seek_by_time.response.json', {}, 1, 1],
    ['birdeye', 'get-trader-txs-seek_by_time.response.json', {}, 1, 1],
    ['birdeye', 'get-defi-v3-token-txs.response.json', {}, 1, 1],
    ['birdeye', 'get-defi-v3-txs.response.json', {}, 1, 1],
  ])('%s %s', (provider, name, options, kept, rows) => {
    const { tape, report } = importProviderFiles(provider, [file(provider, name)], options);
    expect([report.kept, report.rows]).toEqual([kept, rows]);
    expect(() => parseTape(tape)).not.toThrow();
  });

  it('a file with nothing usable is an error that says why', () => {
    expect(() => importProviderFiles('dune', [file('dune', 'uniswap_ethereum_base_trades_seed.csv')])).toThrow(
      /only raw amounts/,
    );
    expect(() =>
      importProviderFiles('birdeye', [file('birdeye', 'get-defi-txs-pair-seek_by_time.response.json')]),
    ).toThrow(/none kept \(1 both legs are quote assets/);
    expect(() => importProviderFiles('flipside', [file('flipside', 'testing__swaps_pumpfun.csv')])).toThrow(
      /none kept \(6 no time/,
    );
  });

  it('every Helius swap with a SOL leg is priced from the series: 0.01 SOL for 18663.358445 Bodi', () => {
    // buySellRaydium (2024-07-02T08:45:27Z = 1719909927): with SOL at $150 that day, 0.01 SOL = $1.5.
    const series = `${1_719_878_400},150\n`;
    const { tape } = importProviderFiles('helius', [file('helius', 'buySellRaydium.json')], {
      solUsd: writeTemp('sol.tsv', series),
    });
    expect(tape.swaps).toMatchObject([
      { type: 'buy', quantity: '18663.358445', usd_amount: '1.5', time: 1_719_909_927 },
    ]);
    // The UNKNOWN transaction, from balance changes: 0.052708178 wrapped SOL for 0.00287442 of 7vfC….
    const unknown = importProviderFiles('helius', [file('helius', 'test_helius.py__JUPITER_SWAP_TX_RESPONSE.json')], {
      solUsd: writeTemp('sol2.tsv', `${1_758_153_600},150\n`),
    });
    expect(unknown.tape.swaps).toMatchObject([
      {
        wallet: '7rhxnLV8C77o6d8oz26AgK8x8m5ePsdeRawjqvojbjnQ',
        type: 'buy',
        quantity: '0.00287442',
        usd_amount: '7.9062267',
      },
    ]);
  });
});

const pumpswap = join(REAL_DATA_DIR, 'sol-pumpswap', 'floor_capture_sample.jsonl');
const madeExports = [
  { name: 'Dune', exportOf: duneExportOf, importOf: importDune },
  { name: 'Flipside', exportOf: flipsideExportOf, importOf: importFlipside },
] as const;
for (const { name, exportOf, importOf } of madeExports) {
  describe.skipIf(!present(pumpswap))(`a ${name} export made from the real PumpSwap tape`, () => {
    it('imports back into the same swaps (the price is the USD amount / amount: the export has no price column)', () => {
      const { tape } = importPumpSwapFile(pumpswap, { solUsd: SOL_USD });
      const csv = exportOf(tape);
      const back = importOf(readExportTable(csv, 'export.csv'), 'export.csv', { outlierFactor: 0 }).tape;
      const withAmount = tape.swaps.filter((s) => s.usd_amount !== undefined);
      expect(withAmount.length).toBeGreaterThan(5000);
      expect(back.swaps.length).toBe(withAmount.length);
      back.swaps.forEach((s, i) => {
        const t = withAmount[i]!;
        expect([s.wallet, s.token, s.type, s.time, s.quantity, s.usd_amount, s.transaction_hash]).toEqual([
          t.wallet,
          t.token,
          t.type,
          t.time,
          t.quantity,
          t.usd_amount,
          t.transaction_hash,
        ]);
        expect(s.usd_price).toBe(
          new Decimal(String(t.usd_amount))
            .div(new Decimal(String(t.quantity)))
            .toSignificantDigits(20)
            .toString(),
        );
      });
    });
  });
}

const TEMP = mkdtempSync(join(tmpdir(), 'copysim-exports-'));
function writeTemp(name: string, text: string): string {
  const path = join(TEMP, name);
  writeFileSync(path, text);
  return path;
}
