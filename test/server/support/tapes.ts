import type { SimulatorRequestInput, TapeInput } from '../../../src/index.js';

/** 2024-03-10 00:00:00 UTC. */
export const DAY = 1_710_028_800;

export const SOL_LEADER = 'Leader1111111111111111111111111111111111111';
export const SOL_TOKEN = 'TokenA11111111111111111111111111111111pump';
export const SOL_MARKET = 'Market111111111111111111111111111111111111';

/** A small sol tape: one leader buys a token, a market wallet trades it, the leader sells. */
export const SOL_TAPE: TapeInput = {
  network: 'sol',
  tokens: { [SOL_TOKEN]: { name: 'Alpha', symbol: 'ALP' } },
  native_prices: [[DAY, 150]],
  swaps: [
    {
      wallet: SOL_LEADER,
      token: SOL_TOKEN,
      type: 'buy',
      time: DAY + 3600,
      quantity: '1000',
      usd_price: '0.1',
      usd_liquidity: 100_000,
    },
    { wallet: SOL_MARKET, token: SOL_TOKEN, type: 'buy', time: DAY + 5400, quantity: '500', usd_price: '0.12' },
    {
      wallet: SOL_LEADER,
      token: SOL_TOKEN,
      type: 'sell',
      time: DAY + 7200,
      quantity: '1000',
      usd_price: '0.15',
      usd_liquidity: 120_000,
    },
  ],
};

export const ETH_LEADER = '0x00000000000000000000000000000000000000aa';
export const ETH_TOKEN = '0x00000000000000000000000000000000000000b1';

/** A small eth tape: one buy of the leader, never sold. */
export const ETH_TAPE: TapeInput = {
  network: 'eth',
  tokens: { [ETH_TOKEN]: { name: 'Beta', symbol: 'BET' } },
  native_prices: [[DAY, 3500]],
  swaps: [
    {
      wallet: ETH_LEADER,
      token: ETH_TOKEN,
      type: 'buy',
      time: DAY + 600,
      quantity: '20',
      usd_price: '5',
      usd_liquidity: 1_000_000,
    },
  ],
};

/** A valid simulator request over {@link SOL_TAPE}. */
export const SOL_REQUEST: SimulatorRequestInput = {
  wallets: [SOL_LEADER],
  network: 'sol',
  from_date: '2024-03-10',
  to_date: '2024-03-10',
  buy_percentage: 100,
  max_buy_amount: 50,
  max_position_amount: 500,
  priority_fee: 0.0001,
  bribe: 0,
  max_dupe_buy_times: 0,
};
