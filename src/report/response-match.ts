import { addressKey } from '../engine/tape-index.js';
import { requestWindow, type Network, type SimulatorRequest } from '../model/request.js';
import type { SimulatorResponse } from '../model/response.js';
import { NO_STRATEGY, reportsCopier } from '../model/strategy.js';
import { utcIso } from '../model/utc-time.js';

const ETH_ADDRESS = /^0x[0-9a-f]{40}$/i;
const SOL_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** The network an address is spelt for, when its spelling says so (test tapes use plain names). */
function spelledFor(address: string): Network | null {
  if (ETH_ADDRESS.test(address)) return 'eth';
  if (SOL_ADDRESS.test(address)) return 'sol';
  return null;
}

/**
 * The first address of the response (a deal's token, a leader, a skipped copy's wallet or token)
 * spelt for another network than `network`, or null.
 */
export function addressOfOtherNetwork(response: SimulatorResponse, network: Network): string | null {
  const addresses = [
    ...response.deals.map((d) => d.token.address),
    ...(response.leaders ?? []).map((l) => l.wallet),
    ...(response.skipped_copies ?? []).flatMap((s) => [s.wallet, s.token]),
  ];
  return (
    addresses.find((a) => {
      const n = spelledFor(a);
      return n !== null && n !== network;
    }) ?? null
  );
}

/**
 * Why a response cannot have come from a request: what the request fixes and the response shows
 * otherwise, without the tape. Its network (the addresses' spelling), its window (every trade
 * inside it), its wallets (`leaders`, `skipped_copies`), the members its strategy adds
 * (`skipped_copies`, `leaders`, `copier` and its starting balance), and the settings a trade
 * shows (the buy cap, bot fees, `close_all`, the time-fix, the strategy's exits). Empty when
 * nothing disagrees; a response that passes may still come from other settings (a delay, a
 * filter), which only a run over the tape tells.
 */
export function requestMismatches(response: SimulatorResponse, request: SimulatorRequest): string[] {
  const problems: string[] = [];
  const other = addressOfOtherNetwork(response, request.network);
  if (other !== null)
    problems.push(
      `the request is for ${request.network}, ` +
        `but the response holds the ${request.network === 'sol' ? 'eth' : 'sol'} address ${other}`,
    );
  problems.push(...windowMismatch(response, request), ...walletMismatch(response, request));
  problems.push(...memberMismatch(response, request), ...tradeMismatch(response, request));
  return problems;
}

function windowMismatch(response: SimulatorResponse, request: SimulatorRequest): string[] {
  const { start, end } = requestWindow(request);
  const times = response.deals.flatMap((d) => d.trades.map((t) => t.time));
  const outside = times.find((t) => t < start || t > end);
  if (outside === undefined) return [];
  return [
    `a trade of the response is at ${utcIso(outside)}, ` +
      `outside the request's window ${request.from_date} to ${request.to_date}`,
  ];
}

function walletMismatch(response: SimulatorResponse, request: SimulatorRequest): string[] {
  const key = (wallet: string) => addressKey(request.network, wallet);
  const followed = new Set(request.wallets.map(key));
  const problems: string[] = [];
  const leaders = response.leaders?.map((l) => l.wallet);
  if (
    leaders !== undefined &&
    (leaders.length !== request.wallets.length || leaders.some((w, i) => key(w) !== key(request.wallets[i]!)))
  ) {
    problems.push(
      `the response's leaders (${leaders.length}) are not ` +
        `the request's wallets (${request.wallets.length}), in its order`,
    );
  }
  const stranger = response.skipped_copies?.find((s) => !followed.has(key(s.wallet)));
  if (stranger !== undefined)
    problems.push(`a skipped copy of the response is of ${stranger.wallet}, which the request does not follow`);
  return problems;
}

function memberMismatch(response: SimulatorResponse, request: SimulatorRequest): string[] {
  const strategy = request.strategy ?? NO_STRATEGY;
  const problems: string[] = [];
  const member = (name: string, has: boolean, wants: boolean, setting: string) => {
    if (has !== wants)
      problems.push(
        `the response ${has ? 'has' : 'has no'} ${name}, but the request ${wants ? 'sets' : 'does not set'} ${setting}`,
      );
  };
  member('skipped_copies', response.skipped_copies !== undefined, strategy.report_skipped, 'strategy.report_skipped');
  member('leaders', response.leaders !== undefined, strategy.report_leaders === true, 'strategy.report_leaders');
  member(
    'copier',
    response.copier !== undefined,
    reportsCopier(strategy),
    "a member of the copier's wallet (strategy.starting_balance_usd, …)",
  );
  const balance = strategy.starting_balance_usd ?? null;
  if (response.copier !== undefined && reportsCopier(strategy) && response.copier.starting_balance !== balance) {
    problems.push(
      `the response's starting balance is ${response.copier.starting_balance ?? 'none'}, ` +
        `the request's strategy.starting_balance_usd ${balance ?? 'none'}`,
    );
  }
  return problems;
}

function tradeMismatch(response: SimulatorResponse, request: SimulatorRequest): string[] {
  const strategy = request.strategy ?? NO_STRATEGY;
  const problems: string[] = [];
  const trades = response.deals.flatMap((d) => d.trades);
  // The buy cap holds for every buy; a tiny margin for the printing of the amounts.
  const tooBig = trades.find((t) => t.type === 'buy' && (t.usd_amount ?? 0) > request.max_buy_amount * (1 + 1e-9));
  if (tooBig !== undefined)
    problems.push(`a buy of ${tooBig.usd_amount} USD exceeds the request's max_buy_amount ${request.max_buy_amount}`);
  if (!request.include_bot_fees && trades.some((t) => t.usd_bot_fee !== 0))
    problems.push('the response charges bot fees, but the request has include_bot_fees false');
  const tags = new Set(response.deals.map((d) => d.special_tag));
  const allowed: [string, boolean, string][] = [
    ['close_all', request.close_all, 'close_all'],
    ['sell_timefix', request.inactivity_time_fix !== null, 'inactivity_time_fix'],
    ['sell_timefix_final', request.inactivity_time_fix !== null, 'inactivity_time_fix'],
    ['take_profit', strategy.take_profit.length > 0, 'strategy.take_profit'],
    ['stop_loss', strategy.stop_loss_percent !== null, 'strategy.stop_loss_percent'],
    ['trailing_stop', strategy.trailing_stop_percent !== null, 'strategy.trailing_stop_percent'],
    ['max_hold', strategy.max_hold_hours !== null, 'strategy.max_hold_hours'],
  ];
  for (const [tag, on, setting] of allowed) {
    if (!on && tags.has(tag as never))
      problems.push(`a deal of the response is closed by ${tag}, but the request does not set ${setting}`);
  }
  return problems;
}
