import { describe, expect, it } from 'vitest';
import { importDune, importFlipside, readExportTable } from '../../src/import.js';

const USDC_ETH = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const T = 1_710_064_800;

/** USD values written every way an export may: read as text, without decimal.js where it can, to the same tape. */
describe('USD values and amounts read from their text', () => {
  it('Flipside: the first leg value that is a decimal, in any form', () => {
    const text = [
      'block_timestamp,tx_hash,origin_from_address,token_in,amount_in,amount_in_usd,token_out,amount_out,amount_out_usd,event_index',
      // +1.005e2 USD for 40: $2.5125; an empty or unreadable sold value leaves the bought one's.
      `2024-03-10T10:00:00Z,0x1,0xA,${USDC_ETH},100.5,+1.005e2,0xTok,40,,1`,
      `2024-03-10T10:00:00Z,0x2,0xA,${USDC_ETH},100.5,,0xTok,40.000,0100.50,2`,
      `2024-03-10T10:00:00Z,0x3,0xA,${USDC_ETH},100.5,n/a,0xTok,4e1,100.5,3`,
      // A zero value: priced from the quote leg (USDC at $1).
      `2024-03-10T10:00:00Z,0x4,0xA,${USDC_ETH},100.5,0,0xTok,-40,,4`,
    ].join('\n');
    const { tape, report } = importFlipside(readExportTable(text, 'ez.csv'), 'ez.csv');
    expect(tape.swaps.map((s) => [s.time, s.quantity, s.usd_price, s.usd_amount, s.transaction_hash])).toEqual([
      [T, '40', '2.5125', '100.5', '0x1'],
      [T, '40', '2.5125', '100.5', '0x2'],
      [T, '40', '2.5125', '100.5', '0x3'],
      [T, '40', '2.5125', '100.5', '0x4'],
    ]);
    expect(report.notes[0]).toBe('USD values: 3 from the export, 1 from the quote amount');
  });

  it('Dune: more than 20 digits rounded half to even, signs and exponents dropped from the text', () => {
    const text = [
      'blockchain,block_time,trader_id,token_bought_mint_address,token_sold_mint_address,token_bought_amount,token_sold_amount,amount_usd,tx_id',
      // 21 digits with a tie: the 20th digit (0) is even, kept; the price 1 / 3 at 20 digits.
      'solana,2024-03-10 10:00:00.000 UTC,W,MINT,So11111111111111111111111111111111111111112,123456789012345678905,1,41152263004115226301.666666666666666666666666666666666666667e0,a',
      'solana,2024-03-10 10:00:01.000 UTC,W,MINT,So11111111111111111111111111111111111111112,3,1,1,b',
      'solana,2024-03-10 10:00:02.000 UTC,W,MINT,So11111111111111111111111111111111111111112,-3E0,1,+1.0,c',
    ].join('\n');
    const { tape } = importDune(readExportTable(text, 'sol.csv'), 'sol.csv', { outlierFactor: 0 });
    expect(tape.swaps.map((s) => [s.quantity, s.usd_price, s.usd_amount])).toEqual([
      // 59 digits of USD value: past the fast path's 40, decimal.js reads it.
      ['123456789012345678900', '0.33333333333333333333', '41152263004115226302'],
      ['3', '0.33333333333333333333', '1'],
      ['3', '0.33333333333333333333', '1'],
    ]);
  });
});
