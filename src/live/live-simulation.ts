import type { EngineOptionsInput } from '../model/options.js';
import type { SimulatorRequest, Window } from '../model/request.js';
import type { SimulatorResponse } from '../model/response.js';
import { LeaderLookup } from '../engine/tokens.js';
import { Replay } from '../engine/replay.js';
import { assembleResponse, responseParts, type ResponseParts } from '../report/response.js';
import { prepare } from '../simulate.js';
import { FeedRefusal } from './errors.js';
import { FeedClock } from './feed-clock.js';
import { readFeedItem, type FeedInput } from './feed-input.js';
import { GrowingNativePrices } from './growing-native-prices.js';
import { LiveTokens } from './live-tokens.js';
import { ReorderBuffer, type HeldSwap } from './reorder-buffer.js';

/** The lateness of a feed when none is given: seconds of feed time an input is held back. */
export const DEFAULT_LATENESS = 2;

/** What a {@link LiveSimulation} runs. */
export interface LiveSetup {
  /** The simulator request body (validated here: a `RequestError` with the 400 body when it fails). */
  readonly request: unknown;
  /** Engine options (model 1.3); missing names take the defaults. */
  readonly options?: EngineOptionsInput;
  /** Seconds of feed time an input is held back for inputs that come a little out of order (default 2). */
  readonly lateness?: number;
  /**
   * Keep the inputs, so that {@link LiveSimulation.response} can give the run so far before its
   * end (default true). A caller that keeps them elsewhere (a log) says false.
   */
  readonly keepInputs?: boolean;
  /** Told of every swap applied, with the milliseconds it was held (measured with `now`). */
  readonly onApplied?: (heldMs: number) => void;
  /** The clock of `onApplied`, in milliseconds (default `performance.now`). */
  readonly now?: () => number;
}

/** How many inputs of each kind a run has applied, and how many swaps it holds back. */
export interface LiveCounts {
  swaps: number;
  ticks: number;
  tokens: number;
  nativePrices: number;
  /** Swaps replayed (in event order, up to `window_end`) or passed over (after it). */
  applied: number;
  held: number;
}

/**
 * A simulation fed as the market moves (a paper trader): swaps, clock ticks, token metadata and
 * native-coin prices, each {@link push}ed as it comes, in any batch. The feed's own times drive
 * the replay: inputs are held back `lateness` seconds of feed time and applied in event order
 * (by time, in arrival order within a second), so its result is the backtest of what it
 * received, byte for byte: `simulate` on the tape of those swaps gives the same response. An
 * input older than the lateness allows is refused, never misplaced. Once the feed's time less
 * the lateness passes `window_end`, the run ends with its final response.
 *
 * @example
 * const live = new LiveSimulation({ request, lateness: 2 });
 * live.push({ native_prices: [[1710028800, 150]] });
 * live.push(swaps);                      // any batch, a little out of order at most
 * live.advanceTo(1710115200 + 3);        // the clock passes window_end + lateness
 * live.ended;                            // true
 * live.response();                       // what simulate gives on the same swaps
 */
export class LiveSimulation {
  readonly request: SimulatorRequest;
  readonly window: Window;
  readonly lateness: number;
  readonly counts: LiveCounts = { swaps: 0, ticks: 0, tokens: 0, nativePrices: 0, applied: 0, held: 0 };
  /** The inputs taken (checked, perhaps not yet applied) and those applied: the same rules, run apart. */
  private readonly taken: FeedClock;
  private readonly appliedClock: FeedClock;
  private readonly run: Replay;
  private readonly tokens: LiveTokens;
  private readonly native = new GrowingNativePrices();
  private readonly held = new ReorderBuffer();
  private readonly leaderOf: LeaderLookup;
  private readonly inputs: FeedInput[] | null;
  private readonly now: () => number;
  private final: ResponseParts | null = null;
  private failure: Error | null = null;
  private settled = false;

  constructor(private readonly setup: LiveSetup) {
    const { parsed, engineOptions } = prepare(setup.request, setup.options ?? {});
    this.request = parsed;
    this.lateness = setup.lateness ?? DEFAULT_LATENESS;
    if (!(this.lateness >= 0 && this.lateness <= 86_400))
      throw new RangeError(`lateness must be 0 to 86400 seconds, not ${this.lateness}`);
    const network = parsed.network;
    this.run = new Replay({ network, native: this.native, request: parsed, options: engineOptions });
    this.window = this.run.window;
    this.tokens = new LiveTokens(network);
    this.leaderOf = new LeaderLookup(network, parsed.wallets);
    this.taken = new FeedClock(this.lateness, this.window.end);
    this.appliedClock = this.taken.copy();
    this.inputs = setup.keepInputs === false ? null : [];
    this.now = setup.now ?? (() => performance.now());
  }

  /** True once the feed has passed `window_end` (or was closed): the response is final. */
  get ended(): boolean {
    return this.final !== null;
  }

  /** The error that stopped the run (an input the engine could not use), or null. */
  get error(): Error | null {
    return this.failure;
  }

  /** The latest feed time applied (−Infinity before the first). */
  get feedTime(): number {
    return this.appliedClock.latest;
  }

  /** The latest feed time taken (checked, perhaps not yet applied). */
  get latestTaken(): number {
    return this.taken.latest;
  }

  /** The time up to which swaps are applied and actions fired: the feed time less the lateness, to `window_end`. */
  get appliedUpTo(): number {
    return Math.min(this.appliedClock.threshold, this.window.end);
  }

  /** Checks and applies a batch (one input or a list), all or nothing: a {@link FeedRefusal} names the item. */
  push(batch: unknown): void {
    this.apply(this.take(Array.isArray(batch) ? batch : [batch]));
  }

  /** A clock tick: the feed's time is `time`, swap or not (time-fixes, exits and delayed copies fire). */
  advanceTo(time: number): void {
    this.push({ tick: time });
  }

  /**
   * Checks a batch without applying it: each item read and placed in the feed's time, in order.
   * Throws the {@link FeedRefusal} of the first item refused, and then nothing of the batch
   * counts; else the inputs, to {@link apply} in this order (after logging them, say).
   */
  take(values: readonly unknown[]): FeedInput[] {
    if (this.failure !== null) throw new FeedRefusal('run_failed', `the run stopped: ${this.failure.message}`);
    this.taken.checkOpen();
    const clock = this.taken.copy();
    const inputs = values.map((value, item) => {
      const input = readFeedItem(value, item);
      clock.take(input, item);
      return input;
    });
    this.taken.adopt(clock);
    return inputs;
  }

  /** Applies inputs given by {@link take}, in the order taken. */
  apply(inputs: readonly FeedInput[]): void {
    if (this.settled) throw new Error('this run was settled as it stood (settleNow): it cannot go on');
    try {
      inputs.forEach((input, item) => {
        if (this.final !== null) return;
        this.appliedClock.take(input, item);
        this.inputs?.push(input);
        this.applyOne(input);
      });
    } catch (e) {
      this.failure ??= e as Error;
      throw e;
    }
  }

  private applyOne(input: FeedInput): void {
    switch (input.kind) {
      case 'swap':
        this.counts.swaps++;
        this.held.push(input.swap, this.setup.onApplied === undefined ? 0 : this.now());
        break;
      case 'tick':
        this.counts.ticks++;
        break;
      case 'tokens':
        this.counts.tokens++;
        this.tokens.merge(input.tokens);
        return;
      case 'native_prices':
        this.counts.nativePrices += input.points.length;
        for (const point of input.points) this.native.add(point);
        return;
    }
    this.release();
  }

  /**
   * Applies the swaps held at or before the threshold, in event order, then the actions due by
   * it: no input earlier than the threshold will come, so they fire where the backtest fires
   * them. Past `window_end`, the run ends.
   */
  private release(): void {
    const threshold = this.appliedClock.threshold;
    while (this.held.nextTime <= threshold) this.step(this.held.pop());
    this.counts.held = this.held.size;
    if (threshold === -Infinity) return;
    this.run.fireDue(Math.min(threshold, this.window.end));
    if (threshold > this.window.end) this.finish();
  }

  private step({ swap, takenAt }: HeldSwap): void {
    if (swap.time <= this.window.end) {
      const leader = this.leaderOf.of(swap.wallet);
      this.run.step(swap, this.tokens.intern(swap.token), leader);
    }
    this.counts.applied++;
    if (this.setup.onApplied !== undefined) this.setup.onApplied(this.now() - takenAt);
  }

  private finish(): void {
    this.final = responseParts(this.run.finish(), this.tokens.list());
    this.counts.held = 0;
  }

  /**
   * The feed ends here: every swap held is applied and the window closes, as `simulate` does at
   * the end of a tape. Gives the final response parts; nothing more is taken.
   */
  close(): ResponseParts {
    if (this.final === null) {
      while (this.held.size > 0) this.step(this.held.pop());
      this.finish();
      this.taken.latest = Infinity;
    }
    return this.final!;
  }

  /** The response: the final one once the run has ended, else the run so far (see {@link responseParts}). */
  response(): SimulatorResponse {
    return assembleResponse(this.responseParts());
  }

  /**
   * The response in parts: the final one once the run has ended; before, the run so far (deals as
   * they stand, open ones valued at the known prices, delayed copies still pending), made by a
   * copy of the run fed the inputs again, so that this one goes on undisturbed.
   */
  responseParts(): ResponseParts {
    if (this.failure !== null) throw this.failure;
    if (this.final !== null) return this.final;
    if (this.inputs === null)
      throw new Error('the run so far needs its inputs: keepInputs was false (read them from the log)');
    const copy = new LiveSimulation({ ...this.setup, keepInputs: false, onApplied: undefined });
    copy.apply(this.inputs);
    return copy.settleNow();
  }

  /**
   * The final response parts once ended; before, the run as it stands, settled: the open deals
   * valued at the known prices. This run cannot go on afterwards: call it on a copy.
   */
  settleNow(): ResponseParts {
    if (this.failure !== null) throw this.failure;
    if (this.final !== null) return this.final;
    this.settled = true;
    return responseParts(this.run.resultSoFar(), this.tokens.list());
  }
}
