/**
 * A Parquet tape's wallets and tokens looked up by their places in the tables its decoded row
 * groups share (src/io/group-replay.ts `TableNumbers`): each place once, the tokens numbered in
 * the order first seen, as the streaming replay numbers them, addresses compared as the network
 * compares them.
 */
import { describe, expect, it } from 'vitest';
import { StreamingReplay } from '../../src/engine/stream.js';
import { TableNumbers } from '../../src/io/group-replay.js';
import { parseTapeHeader } from '../../src/model/tape.js';
import { prepare } from '../../src/simulate.js';
import { FLAT_NATIVE, request } from '../support/scenario.js';

/** A streaming replay of an eth tape following 0xAB and 0xcd, and a count of its lookups. */
function ethStream(): { stream: StreamingReplay; lookups: string[] } {
  const { parsed, engineOptions } = prepare(request({ network: 'eth', wallets: ['0xAB', '0xcd'] }), {});
  const header = parseTapeHeader({ network: 'eth', tokens: {}, native_prices: FLAT_NATIVE, swaps: [] });
  const stream = new StreamingReplay(header, parsed, engineOptions);
  const lookups: string[] = [];
  const leaderIndex = stream.leaderIndex.bind(stream);
  const tokenNumber = stream.tokenNumber.bind(stream);
  stream.leaderIndex = (wallet) => {
    lookups.push(wallet);
    return leaderIndex(wallet);
  };
  stream.tokenNumber = (token) => {
    lookups.push(token);
    return tokenNumber(token);
  };
  return { stream, lookups };
}

describe('TableNumbers', () => {
  it("gives each wallet's place among the request's wallets, looked up once per table place", () => {
    const { stream, lookups } = ethStream();
    const numbers = new TableNumbers();
    const wallets = ['0xab', 'm1', '0xCD', '0xAB'];
    numbers.cover(wallets.length, 0);
    const places = [1, 0, 1, 2, 3, 0, 2];
    expect(places.map((p) => numbers.leader(stream, wallets, p))).toEqual([-1, 0, -1, 1, 0, 0, 1]);
    expect(lookups).toEqual(['m1', '0xab', '0xCD', '0xAB']);
  });

  it('numbers the tokens in the order first seen, one number for two spellings on eth, as the tables grow', () => {
    const { stream, lookups } = ethStream();
    const numbers = new TableNumbers();
    const tokens = ['0xT2', '0xt1'];
    numbers.cover(0, tokens.length);
    expect([1, 0, 1].map((p) => numbers.token(stream, tokens, p))).toEqual([0, 1, 0]);
    // A later group's table holds more places, one of them a known token spelled otherwise.
    tokens.push('0xT1', '0xt3');
    numbers.cover(0, tokens.length);
    expect([3, 2, 0].map((p) => numbers.token(stream, tokens, p))).toEqual([2, 0, 1]);
    expect(lookups).toEqual(['0xt1', '0xT2', '0xt3', '0xT1']);
  });
});
