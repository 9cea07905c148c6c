/**
 * Model 1.1 and 1.2: addresses compare exactly on sol and case-insensitively on eth; duplicate
 * wallets in a request are a 400 validation_error (on eth, duplicates up to case).
 */
import { describe, expect, it } from 'vitest';
import { RequestError } from '../../src/model/errors.js';
import { parseSimulatorRequest } from '../../src/model/request.js';
import { simulate } from '../../src/simulate.js';
import { at, buy, near, onlyDeal, request, sell, tape } from '../support/scenario.js';

const LEADER_LOWER = '0xabcdef0123456789abcdef0123456789abcdef01';
const LEADER_CHECKSUM = '0xAbCdEf0123456789AbCdEf0123456789aBcDeF01';
const TOKEN_LOWER = '0x1111111111111111111111111111111111aaaaaa';
const TOKEN_UPPER = '0x1111111111111111111111111111111111AAAAAA';
const ETH_OPTIONS = { unknown_liquidity_slippage_percent: 0, base_fee_native: { eth: 0.01 } };

describe('eth addresses are case-insensitive (model 1.1)', () => {
  it('follows a checksum-case request wallet through a lowercase tape, with metadata keyed in upper case', () => {
    // buy 1000 at 1 (spelled lowercase), sell 500 of h 1000 spelled in checksum case:
    // the same leader, f = 0.5 → 500 tokens sold from the same deal
    const response = simulate(
      tape([buy(LEADER_LOWER, TOKEN_LOWER, at(100), 1000, 1), sell(LEADER_CHECKSUM, TOKEN_UPPER, at(200), 500, 1)], {
        network: 'eth',
        tokens: { [TOKEN_UPPER]: { name: 'Hex Token', symbol: 'HEX' } },
      }),
      request({ network: 'eth', wallets: [LEADER_CHECKSUM] }),
      ETH_OPTIONS,
    );
    const deal = onlyDeal(response);
    expect(deal.trades.map((t) => t.type)).toEqual(['buy', 'sell']);
    near(deal.trades[1]!.quantity, 500, 'sold');
    expect(deal.token.name).toBe('Hex Token');
    expect(deal.token.symbol).toBe('HEX');
    // the model does not say which spelling is reported: the swap that opened the deal spells it
    expect(deal.token.address).toBe(TOKEN_LOWER);
  });

  it("reports each deal's token as the swap that opened it spells it", () => {
    // A market swap spells the token in upper case first; the leader's buy in lower case opens
    // deal 0, its sell closes it; a buy in upper case opens deal 1.
    const response = simulate(
      tape(
        [
          buy('0xmarket', TOKEN_UPPER, at(50), 1, 1),
          buy(LEADER_LOWER, TOKEN_LOWER, at(100), 1000, 1),
          sell(LEADER_LOWER, TOKEN_UPPER, at(200), 1000, 1),
          buy(LEADER_LOWER, TOKEN_UPPER, at(300), 1000, 1),
        ],
        { network: 'eth' },
      ),
      request({ network: 'eth', wallets: [LEADER_LOWER] }),
      ETH_OPTIONS,
    );
    expect(response.deals.map((d) => d.token.address)).toEqual([TOKEN_LOWER, TOKEN_UPPER]);
  });

  it('takes the first of two metadata keys that differ only in case', () => {
    const response = simulate(
      tape([buy(LEADER_LOWER, TOKEN_LOWER, at(100), 1000, 1)], {
        network: 'eth',
        tokens: { [TOKEN_UPPER]: { name: 'First', symbol: 'ONE' }, [TOKEN_LOWER]: { name: 'Second', symbol: 'TWO' } },
      }),
      request({ network: 'eth', wallets: [LEADER_LOWER] }),
      ETH_OPTIONS,
    );
    expect(onlyDeal(response).token).toEqual({ address: TOKEN_LOWER, name: 'First', symbol: 'ONE' });
  });

  it('on sol the same case difference is another wallet', () => {
    const response = simulate(
      tape([buy('LeaderSol', 'TokenSol', at(100), 10, 1)]),
      request({ wallets: ['leadersol'] }),
      ETH_OPTIONS,
    );
    expect(response.deals).toEqual([]);
  });
});

describe('duplicate wallets (model 1.2)', () => {
  it('differing only in case are a 400 validation_error on eth', () => {
    const result = parseSimulatorRequest(request({ network: 'eth', wallets: [LEADER_LOWER, LEADER_CHECKSUM] }));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe('validation_error');
    expect(result.error.detail).toEqual([expect.objectContaining({ path: 'wallets[1]' })]);
    expect(() =>
      simulate(tape([], { network: 'eth' }), request({ network: 'eth', wallets: [LEADER_LOWER, LEADER_CHECKSUM] })),
    ).toThrow(RequestError);
  });

  it('differing only in case are two wallets on sol', () => {
    expect(parseSimulatorRequest(request({ wallets: [LEADER_LOWER, LEADER_CHECKSUM] })).success).toBe(true);
  });

  it('exact duplicates are a 400 validation_error on sol', () => {
    const result = parseSimulatorRequest(request({ wallets: ['LeaderSol', 'LeaderSol'] }));
    expect(result).toEqual({
      success: false,
      error: { code: 'validation_error', detail: [expect.objectContaining({ path: 'wallets[1]' })] },
    });
  });
});
