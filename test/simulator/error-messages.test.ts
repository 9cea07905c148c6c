/**
 * Every error message says what is wrong, where, and how to fix it when that is known
 * (docs/errors.md): the cases a new user meets first, each with its exact message.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WalletDealsQuerySchema, ListWalletsBodySchema } from '../../src/analytics/queries.js';
import { parseSimulatorRequest } from '../../src/model/request.js';
import { simulate } from '../../src/simulate.js';
import { cli } from '../support/cli.js';
import { at, buy, LEADER_A, request, sell, tape, TOKEN_X } from '../support/scenario.js';
import { inputErrorOf } from '../support/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'copysim-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('a tape', () => {
  const swap = { wallet: LEADER_A, token: TOKEN_X, type: 'buy', time: at(1), quantity: '2', usd_price: '0.5' };

  it('a missing usd_price says "missing"', () => {
    const { usd_price: _, ...without } = swap;
    expect(inputErrorOf(() => simulate({ network: 'sol', swaps: [swap, without] } as never, request())).message).toBe(
      'tape: swap 1: swaps[1].usd_price: missing: expected a decimal > 0 between 1e-60 and 1e60 (a JSON number or a decimal string)',
    );
  });

  it.each([
    ['wallet', 'missing: expected the address of the trader'],
    ['type', 'missing: expected "buy" or "sell"'],
    ['time', 'missing: expected whole seconds since the epoch'],
  ])('a missing %s says "missing"', (member, message) => {
    const without: Record<string, unknown> = { ...swap };
    delete without[member];
    expect(inputErrorOf(() => simulate({ network: 'sol', swaps: [without] } as never, request())).message).toBe(
      `tape: swap 0: swaps[0].${member}: ${message}`,
    );
  });

  it('a present but wrong usd_price says what is expected, not "missing"', () => {
    expect(
      inputErrorOf(() => simulate({ network: 'sol', swaps: [{ ...swap, usd_price: '-1' }] } as never, request()))
        .message,
    ).toBe(
      'tape: swap 0: swaps[0].usd_price: expected a decimal > 0 between 1e-60 and 1e60 (a JSON number or a decimal string)',
    );
  });

  it('without native prices, says how to fix it', () => {
    const swaps = [buy(LEADER_A, TOKEN_X, at(100), 10, 1), sell(LEADER_A, TOKEN_X, at(200), 10, 2)];
    expect(inputErrorOf(() => simulate(tape(swaps, { native_prices: [] }), request())).message).toBe(
      "tape: native_prices is empty, but a follower trade at time 1710028900 (2024-03-10T00:01:40Z) needs the native coin's USD price for its network fee: " +
        "add [time, usd_price] points to the tape's native_prices (importers take them in their `nativePrices` option), " +
        "or make the fees zero (engine option base_fee_native, the request's priority_fee and bribe)",
    );
  });

  it('without native prices, the command line names its flag where the library names its option', async () => {
    const swaps = [buy(LEADER_A, TOKEN_X, at(100), 10, 1)];
    const { code, err } = await cli(
      'simulate',
      '--tape',
      file('no-native.json', JSON.stringify(tape(swaps, { native_prices: [] }))),
      '--request',
      file('r-native.json', JSON.stringify(request())),
    );
    expect(code).toBe(1);
    expect(err).toContain(
      '(importers take them in their --native-prices, --sol-usd or --eth-usd FILE (copysim import) option)',
    );
  });

  it('millisecond times in a JSONL tape: the line, and that they look like milliseconds', async () => {
    const header = JSON.stringify({ network: 'sol', native_prices: [[1_710_028_800, 100]] });
    const path = file('ms.jsonl', `${header}\n${JSON.stringify({ ...swap, time: 1_710_064_800_000 })}\n`);
    const { code, out, err } = await cli(
      'simulate',
      '--tape',
      path,
      '--request',
      file('r.json', JSON.stringify(request())),
    );
    expect([code, out]).toEqual([1, '']);
    expect(err).toBe(
      `copysim simulate: ${path}: line 2: tape: swap 0: swaps[0].time: expected seconds since the epoch (below 10¹¹, the year 5138); 1710064800000 looks like milliseconds: divide the times by 1000\n`,
    );
  });

  it('a 0-byte JSON tape file: "empty", and what a tape is', async () => {
    const path = file('empty.json', '');
    const { code, err } = await cli('simulate', '--tape', path, '--request', file('r.json', JSON.stringify(request())));
    expect(code).toBe(1);
    expect(err).toBe(
      `copysim simulate: tape file ${path} is empty (0 bytes): expected a JSON object {"network", "tokens", "native_prices", "swaps"} ` +
        '(or a JSONL tape named .jsonl: a header line, then one swap a line)\n',
    );
  });

  it('a 0-byte JSONL tape file: "empty", and what its first line holds', async () => {
    const path = file('empty.jsonl', '');
    const { code, err } = await cli('simulate', '--tape', path, '--request', file('r.json', JSON.stringify(request())));
    expect(code).toBe(1);
    expect(err).toBe(
      `copysim simulate: ${path}: line 1: the file is empty (0 bytes): expected the tape header {"network", "tokens", "native_prices"} on line 1, then one swap a line\n`,
    );
  });
});

describe('page limits are stated as limits', () => {
  const problem = (query: Record<string, unknown>): string => {
    const parsed = WalletDealsQuerySchema.safeParse({ network: 'sol', ...query });
    return parsed.success ? 'ok' : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  };
  it.each([
    [{ per_page: '151' }, 'per_page: must be at most 150'],
    [{ per_page: '0' }, 'per_page: must be at least 1'],
    [{ per_page: '2.5' }, 'per_page: expected a whole number'],
    [{ per_page: 'ten' }, 'per_page: expected a whole number'],
    [{ page: '0' }, 'page: must be at least 1'],
    [{ per_page: '150', page: '3' }, 'ok'],
  ])('%j → %s', (query, message) => {
    expect(problem(query)).toBe(message);
  });

  it('from_time and to_time are seconds below 10¹¹: a larger value looks like milliseconds', () => {
    expect(problem({ to_time: '1710064800000' })).toBe(
      'to_time: must be seconds since the epoch, below 10¹¹ (the year 5138); a larger value looks like milliseconds: divide it by 1000',
    );
    expect(problem({ from_time: '0' })).toBe('from_time: must be at least 1 (seconds since the epoch)');
    expect(problem({ from_time: 'noon' })).toBe('from_time: expected a timestamp (seconds)');
    expect(problem({ from_time: '1710028800', to_time: '99999999999' })).toBe('ok');
  });

  it('the wallet list: page and min_deals alike', () => {
    const parsed = ListWalletsBodySchema.safeParse({ page: 0, min_deals: -1 });
    expect(parsed.success === false && parsed.error.issues.map((i) => i.message)).toEqual([
      'must be at least 1',
      'must be at least 0',
    ]);
  });
});

describe('a request', () => {
  it('a misspelt optional setting is named with the real one (model 1.1), not dropped', () => {
    expect(parseSimulatorRequest({ ...request(), closeAll: true })).toEqual({
      success: false,
      error: {
        code: 'validation_error',
        detail: [{ path: 'closeAll', message: 'unknown member "closeAll": did you mean "close_all"?' }],
      },
    });
  });
});
