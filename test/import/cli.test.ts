import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { parseTape, simulate } from '../../src/index.js';
import { cli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'copysim-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

// Two wallets trade MintA on 2024-03-10; one dust-priced row is an outlier. SOL/USD $100.
const capture = file(
  'capture.jsonl',
  `${JSON.stringify({
    mint: 'MintA',
    created: 1_710_028_800,
    swaps: [
      { trader: 'W1', side: 'buy', sol: 1, tokens: 1000, price: 0.001, ts: 1_710_030_000 },
      { trader: 'W2', side: 'buy', sol: 2, tokens: 2000, price: 0.001, ts: 1_710_030_100 },
      { trader: 'W1', side: 'sell', sol: 1.5, tokens: 1000, price: 0.0015, ts: 1_710_030_200 },
      { trader: 'W2', side: 'sell', sol: 0, tokens: 2000, price: null, ts: 1_710_030_300 },
      { trader: 'W3', side: 'buy', sol: 0.001, tokens: 1000000, price: 0.000000001, ts: 1_710_030_400 },
    ],
  })}\n`,
);
const solUsd = file('sol.json', JSON.stringify({ hourly_close: [[1_710_028_800, 100]] }));

describe('copysim import', () => {
  it('--help names the three sources and their flags', async () => {
    const { code, out } = await cli('import', '--help');
    expect(code).toBe(0);
    for (const word of [
      'uniswap',
      'pumpswap',
      'csv',
      '--pools',
      '--eth-usd',
      '--usd-from',
      '--sol-usd',
      '--network',
      '--map',
      '--out',
      '--outlier-factor',
      '--request-out',
    ]) {
      expect(out).toContain(word);
    }
  });

  it('writes the tape and a request, reports drops on stderr and a summary on stdout', async () => {
    const out = join(dir, 'tape.json');
    const requestOut = join(dir, 'request.json');
    const result = await cli(
      'import',
      'pumpswap',
      capture,
      '--sol-usd',
      solUsd,
      '--out',
      out,
      '--request-out',
      requestOut,
    );
    expect(result.code, result.err).toBe(0);
    expect(result.err).toContain('pumpswap: read 5 swap rows, kept 3, dropped 2:');
    expect(result.err).toContain('1 sell with no SOL amount');
    expect(result.err).toContain('1 outlier price');
    expect(result.out).toContain(
      `${out}: 3 swaps, 2 wallets, 1 token, 2024-03-10T00:20:00Z .. 2024-03-10T00:23:20Z, 1 native price`,
    );
    // W1 made the only round trip: the request follows it over 2024-03-10.
    expect(result.out).toContain(`${requestOut}: 1 leaders, 2024-03-10 .. 2024-03-10`);
    const tape = parseTape(JSON.parse(readFileSync(out, 'utf8')));
    const request = JSON.parse(readFileSync(requestOut, 'utf8'));
    expect(request.wallets).toEqual(['W1']);
    // W1 buys $100 at $0.1 (1 % slippage, liquidity unknown), sells at $0.15: one closed deal.
    const response = simulate(tape, request);
    expect(response.deals.map((d) => d.status)).toEqual(['closed']);
  });

  it('imports a CSV with a mapping', async () => {
    const csv = file(
      'trades.csv',
      'who,what,side,when,qty,usd\nW1,T1,buy,2024-03-10T01:00:00Z,5,2\nW1,T1,sell,2024-03-10T02:00:00Z,5,3\n',
    );
    const out = join(dir, 'csv-tape.json');
    const result = await cli(
      'import',
      'csv',
      csv,
      '--network',
      'sol',
      '--map',
      'wallet=who,token=what,type=side,time=when,quantity=qty,usd_price=usd',
      '--out',
      out,
    );
    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain('2 swaps, 1 wallet, 1 token');
    expect(parseTape(JSON.parse(readFileSync(out, 'utf8'))).swaps[1]).toMatchObject({ type: 'sell', usd_price: '3' });
  });

  it.each([
    [['import'], /import needs a source: uniswap, pumpswap, csv, dune, flipside, helius, birdeye/],
    [['import', 'binance', 'x', '--out', 'y'], /unknown source "binance"/],
    [['import', 'pumpswap', 'x.jsonl'], /import pumpswap needs --out/],
    [['import', 'pumpswap', 'x.jsonl', '--out', 'y'], /import pumpswap needs --sol-usd/],
    [['import', 'uniswap', 'x.json', '--out', 'y'], /import uniswap needs --pools/],
    [['import', 'csv', 'x.csv', '--out', 'y', '--network', 'btc', '--map', 'a=b'], /--network expects sol or eth/],
    [
      ['import', 'pumpswap', 'missing.jsonl', '--out', 'y', '--sol-usd', 'missing.json'],
      /capture file missing\.jsonl: no such file/,
    ],
  ])('%j fails with a clear message', async (argv, message) => {
    const { code, err } = await cli(...argv);
    expect(code).toBe(1);
    expect(err).toMatch(message);
    expect(err).not.toMatch(/ at .*\.ts:\d+/);
  });
});
