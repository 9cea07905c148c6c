import { describe, expect, it } from 'vitest';
import { parseTape } from '../../src/index.js';
import { importCsv, parseColumnMapping, parsePriceSeries } from '../../src/import.js';

const columns = parseColumnMapping(
  'wallet=Trader,token=Token,type=Side,time=Time,quantity=Amount,usd_price=Price,usd_liquidity=Liq,transaction_hash=Tx,token_symbol=Sym',
);
const header = 'Trader,Token,Side,Time,Amount,Price,Liq,Tx,Sym';

describe('importCsv', () => {
  it.each([
    // Unix seconds, plain numbers.
    [
      'unix seconds',
      'W1,T1,BUY,1710028800,10,2.5,50000,0xa,TK',
      {
        wallet: 'W1',
        token: 'T1',
        type: 'buy',
        time: 1_710_028_800,
        quantity: '10',
        usd_price: '2.5',
        usd_liquidity: '50000',
        transaction_hash: '0xa',
      },
    ],
    // Milliseconds are recognised past 1e11; a signed sell quantity is taken as its absolute value.
    [
      'milliseconds, signed sell',
      'W1,T1,sell,1710028800123,-4,2.5,,,',
      { type: 'sell', time: 1_710_028_800, quantity: '4', usd_liquidity: null },
    ],
    // ISO time without a zone is UTC; a quoted cell may hold the delimiter.
    ['ISO time, quoted cell', '"W,1",T1,buy,2024-03-10 01:00:00,1,3,,,', { wallet: 'W,1', time: 1_710_032_400 }],
  ])('%s', (_name, row, expected) => {
    const { tape, report } = importCsv(`${header}\n${row}\n`, { network: 'sol', columns });
    expect(report.kept).toBe(1);
    expect(tape.swaps[0]).toMatchObject(expected);
    expect(() => parseTape(tape)).not.toThrow();
  });

  it('prices native amounts with the native series, and takes custom side values', () => {
    const nativePrices = parsePriceSeries('0,100\n1000,150\n', 'sol.tsv');
    const mapping = parseColumnMapping('wallet=w,token=t,type=s,time=ts,quantity=q,native_amount=sol');
    // At t = 1200 SOL is $150: 2 SOL = $300 for 600 tokens → $0.5 a token.
    const { tape } = importCsv('w,t,s,ts,q,sol\nA,M,in,1200,600,2\n', {
      network: 'sol',
      columns: mapping,
      nativePrices,
      buyValues: ['in'],
      sellValues: ['out'],
    });
    expect(tape.swaps[0]).toMatchObject({ type: 'buy', usd_amount: '300', usd_price: '0.5' });
    expect(tape.native_prices).toEqual([[1000, '150']]);
  });

  it('lower-cases addresses on eth and keeps token symbols', () => {
    const { tape } = importCsv(`${header}\n0xAB,0xCD,buy,100,1,1,,,CD\n`, { network: 'eth', columns });
    expect(tape.swaps[0]).toMatchObject({ wallet: '0xab', token: '0xcd' });
    expect(tape.tokens).toEqual({ '0xcd': { name: null, symbol: 'CD' } });
  });

  it('drops bad rows with their line numbers', () => {
    const text = [
      header,
      'W1,T1,buy,100,1,1,,,',
      ',T1,buy,100,1,1,,,',
      'W1,T1,hold,100,1,1,,,',
      'W1,T1,buy,yesterday,1,1,,,',
      'W1,T1,buy,100,0,1,,,',
      'W1,T1,buy,100,1,free,,,',
    ].join('\n');
    const { report } = importCsv(text, { network: 'sol', columns, outlierFactor: 0 });
    expect(report.kept).toBe(1);
    expect(report.dropped.map((d) => [d.reason, d.examples[0]])).toEqual([
      ['no wallet', 'csv line 3'],
      ['type "hold" is neither a buy nor a sell value', 'csv line 4'],
      ['time "yesterday" is not a Unix or ISO time', 'csv line 5'],
      ['quantity is not a number > 0', 'csv line 6'],
      ['price is not a number > 0', 'csv line 7'],
    ]);
  });

  it('refuses a mapping that names a missing column or lacks a field', () => {
    expect(() => importCsv('a,b\n', { network: 'sol', columns }, 'x.csv')).toThrow(
      /x\.csv: no column "Trader" \(mapped to wallet\)/,
    );
    expect(() => importCsv(`${header}\n`, { network: 'sol', columns: { wallet: 'Trader' } })).toThrow(
      /lacks token, type, time, quantity, usd_price/,
    );
    expect(() => parseColumnMapping('wallet=Trader,colour=Red')).toThrow(/"colour=Red" is not field=column/);
  });
});
