import type { EngineOptions } from '../model/options.js';
import type { SimulatorRequest } from '../model/request.js';
import { IndexedKnownPrices, PriceThreshold } from './known-prices.js';
import { IndexedLeaderFacts } from './leader-facts.js';
import {
  PROGRESS_EVERY,
  Replay,
  replaySettings,
  replaySettingsKey,
  setupFrom,
  type ReplayControl,
  type ReplayResult,
  type ReplaySettings,
  type ReplaySetup,
} from './replay.js';
import { addressKey, type IndexedTape } from './tape-index.js';
import { SWAP_ROW, tapeMemo, TIME } from './tape-memo.js';

/**
 * Followers of one wallet each that a walk of the tape should carry, for the callers that copy
 * many wallets alone (a rank, the wallet list sorted by its followers). One walk shares the price
 * book and the leaders' facts among its followers, but a walk of ten thousand keeps their state
 * spread over more memory than the processor's cache holds, and their deals alive until it ends,
 * so that the young generation's collections copy them (docs/performance.md). A few hundred a
 * walk keeps both small for a walk's fixed cost.
 */
export const WALLETS_A_WALK = 500;

/** `items` in groups of `size` (the last one shorter), in order, each with the index of its first item. */
export function* walksOf<T>(items: readonly T[], size = WALLETS_A_WALK): Generator<[first: number, group: T[]]> {
  for (let first = 0; first < items.length; first += size) yield [first, items.slice(first, first + size)];
}

/**
 * Replays many independent followers over a single walk of an indexed tape: one per candidate
 * wallet of a ranking, or one per setting of a sweep. What every follower shares is done once a
 * swap: the known price and liquidity (one price book), the leaders' holdings and the swaps'
 * decimals (the tape's memo). Each follower keeps only its own deals, and is told only what
 * concerns it: its scheduled actions when due, the prices of tokens it holds when it needs them
 * (the chart, price exits), and the swaps of its own leaders. Each result is exactly that of
 * `replay` with the follower's request (a property test holds them equal).
 *
 * @example
 * const requests = wallets.map((w) => ({ ...request, wallets: [w] }));
 * const runs = replayFollowers(tape, requests, options, { chart: false, trades: false });
 */
export function replayFollowers(
  tape: IndexedTape,
  requests: readonly SimulatorRequest[],
  options: EngineOptions,
  control: ReplayControl = {},
): ReplayResult[] {
  const prices = new IndexedKnownPrices(tape, PriceThreshold.of(options.min_price_swap_usd), control.keepTapeDecimals);
  const holders = new Holders(tape.tokens.length);
  const followers = makeFollowers(tape, requests, options, control, prices, holders);
  holders.watching = followers.map((r) => r.watchesPrices);
  return walk(tape, followers, prices, holders, leadersOf(tape, requests), control.onProgress);
}

/**
 * The followers holding each token, for those that watch prices (the chart, price exits): only
 * they are told of a price between their own trades.
 */
class Holders {
  readonly byToken: (Set<number> | undefined)[];
  watching: readonly boolean[] = [];

  constructor(tokens: number) {
    this.byToken = new Array<Set<number> | undefined>(tokens).fill(undefined);
  }

  /** Follower `f` opened (`held`) or closed a deal in a token. */
  change(f: number, tokenId: number, held: boolean): void {
    if (!this.watching[f]) return;
    let set = this.byToken[tokenId];
    if (set === undefined) this.byToken[tokenId] = set = new Set();
    if (held) set.add(f);
    else set.delete(f);
  }
}

/**
 * One replay per request, sharing the price book and the leaders' facts; followers of the same settings share those.
 */
function makeFollowers(
  tape: IndexedTape,
  requests: readonly SimulatorRequest[],
  options: EngineOptions,
  control: ReplayControl,
  prices: IndexedKnownPrices,
  holders: Holders,
): Replay[] {
  const { network, native } = tape;
  const facts = new IndexedLeaderFacts(tape, control.keepTapeDecimals);
  const settingsByKey = new Map<string, ReplaySettings>();
  return requests.map((request, f) => {
    const setup: ReplaySetup = {
      network,
      native,
      request,
      options,
      ...setupFrom(control, f),
    };
    const key = replaySettingsKey(request);
    let settings = settingsByKey.get(key);
    if (settings === undefined) settingsByKey.set(key, (settings = replaySettings(setup)));
    return new Replay({
      ...setup,
      settings,
      facts,
      prices,
      sharedPrices: true,
      onHolding: (tokenId, held) => holders.change(f, tokenId, held),
    });
  });
}

/** The followers of each wallet of the tape, as (follower, leader index) pairs, by wallet id. */
function leadersOf(tape: IndexedTape, requests: readonly SimulatorRequest[]): (number[] | undefined)[] {
  const pairsOf = new Array<number[] | undefined>(tape.walletIds.size).fill(undefined);
  requests.forEach((request, f) =>
    request.wallets.forEach((wallet, leader) => {
      const id = tape.walletIds.get(addressKey(tape.network, wallet));
      if (id === undefined) return;
      let pairs = pairsOf[id];
      if (pairs === undefined) pairsOf[id] = pairs = [];
      pairs.push(f, leader);
    }),
  );
  return pairsOf;
}

/**
 * The walk: every swap in event order, each follower told what concerns it (steps 1 to 4 of the
 * model for each), and each finished before the first swap after its window's end.
 */
function walk(
  tape: IndexedTape,
  followers: readonly Replay[],
  prices: IndexedKnownPrices,
  holders: Holders,
  pairsOf: readonly (number[] | undefined)[],
  onProgress: ReplayControl['onProgress'],
): ReplayResult[] {
  const count = followers.length;
  const byEnd = followers.map((_, f) => f).sort((a, b) => followers[a]!.window.end - followers[b]!.window.end || a - b);
  const results = new Array<ReplayResult>(count);
  const done = new Uint8Array(count);
  let finished = 0;
  const finishUntil = (time: number): void => {
    while (finished < count && followers[byEnd[finished]!]!.window.end < time) {
      const f = byEnd[finished++]!;
      results[f] = followers[f]!.finish();
      done[f] = 1;
    }
  };
  const due = new DueQueue(count);
  const { order, swaps, walletOf, tokenOf } = tape;
  const memo = tapeMemo(tape);
  const timeline = memo.timeline();
  const buys = memo.buys();
  // Most swaps of a walk finish no follower and find no action due: two comparisons say so.
  let nextEnd = followers[byEnd[0]!]?.window.end ?? Infinity;
  let nextDue = Infinity;
  for (let k = 0; k < order.length && finished < count; k++) {
    const i = order[k]!;
    const time = timeline[SWAP_ROW * i + TIME]!;
    if (time > nextEnd || time >= nextDue) {
      finishUntil(time);
      if (finished === count) break;
      nextEnd = followers[byEnd[finished]!]!.window.end;
      // 1. every follower's actions due by now
      for (let f = due.takeDue(time); f >= 0; f = due.takeDue(time)) {
        if (done[f] === 1) continue;
        followers[f]!.fireDue(time);
        due.update(f, followers[f]!.dueTime);
      }
      nextDue = due.firstTime();
    }
    // 2. the price, once for all; the followers holding the token that watch prices
    const tokenId = tokenOf[i]!;
    const swap = swaps[i]!;
    const counted = prices.observe(tokenId, swap, i);
    const holding = holders.byToken[tokenId];
    if (holding !== undefined && holding.size > 0) {
      for (const f of holding) {
        if (done[f] === 1) continue;
        followers[f]!.priceRecorded(tokenId, time, counted);
        due.update(f, followers[f]!.dueTime);
      }
      nextDue = due.firstTime();
    }
    // 3 and 4. the followers of this swap's wallet
    const pairs = pairsOf[walletOf[i]!];
    if (pairs !== undefined) {
      for (let p = 0; p < pairs.length; p += 2) {
        const f = pairs[p]!;
        if (done[f] === 1) continue;
        followers[f]!.leaderSwap(swap, tokenId, pairs[p + 1]!, i, time, buys[i] === 1, k, counted);
        due.update(f, followers[f]!.dueTime);
      }
      nextDue = due.firstTime();
    }
    if (onProgress !== undefined && (k & (PROGRESS_EVERY - 1)) === 0) onProgress(k, order.length);
  }
  finishUntil(Infinity);
  onProgress?.(order.length, order.length);
  return results;
}

/**
 * The followers by the time their next action is due: a binary min-heap of (time, follower).
 * A follower's due time mostly moves later (each copied swap postpones its inactivity time-fix),
 * so the heap keeps each follower's earliest entry and is not touched when the time moves
 * later: that entry, when it comes up, is pushed again at the follower's current time if that
 * lies ahead. Entries no longer a follower's earliest are skipped when they come up.
 */
class DueQueue {
  private readonly times: number[] = [];
  private readonly ids: number[] = [];
  /** Each follower's due time as last set (Infinity: nothing scheduled). */
  private readonly current: Float64Array;
  /** Each follower's live entry in the heap (Infinity: none). */
  private readonly queued: Float64Array;

  constructor(count: number) {
    this.current = new Float64Array(count).fill(Infinity);
    this.queued = new Float64Array(count).fill(Infinity);
  }

  update(f: number, time: number): void {
    this.current[f] = time;
    if (time < this.queued[f]!) {
      this.queued[f] = time;
      this.push(time, f);
    }
  }

  /** No follower has an action due before this time (the earliest entry's; Infinity when none is queued). */
  firstTime(): number {
    return this.times.length > 0 ? this.times[0]! : Infinity;
  }

  /** A follower whose action is due at or before `time`, taken off the queue; -1 when none is. */
  takeDue(time: number): number {
    while (this.times.length > 0 && this.times[0]! <= time) {
      const t = this.times[0]!;
      const f = this.ids[0]!;
      this.pop();
      if (this.queued[f] !== t) continue;
      this.queued[f] = Infinity;
      const due = this.current[f]!;
      if (due <= time) {
        this.current[f] = Infinity;
        return f;
      }
      if (due !== Infinity) {
        this.queued[f] = due;
        this.push(due, f);
      }
    }
    return -1;
  }

  private push(time: number, id: number): void {
    const { times, ids } = this;
    let at = times.length;
    times.push(time);
    ids.push(id);
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (times[parent]! < time || (times[parent] === time && ids[parent]! < id)) break;
      times[at] = times[parent]!;
      ids[at] = ids[parent]!;
      at = parent;
    }
    times[at] = time;
    ids[at] = id;
  }

  private pop(): void {
    const { times, ids } = this;
    const lastTime = times.pop()!;
    const lastId = ids.pop()!;
    if (times.length === 0) return;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= times.length) break;
      const right = left + 1;
      const child =
        right < times.length &&
        (times[right]! < times[left]! || (times[right] === times[left] && ids[right]! < ids[left]!))
          ? right
          : left;
      if (times[child]! > lastTime || (times[child] === lastTime && ids[child]! > lastId)) break;
      times[at] = times[child]!;
      ids[at] = ids[child]!;
      at = child;
    }
    times[at] = lastTime;
    ids[at] = lastId;
  }
}
