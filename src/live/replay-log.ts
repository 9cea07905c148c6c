import { InputError } from '../model/errors.js';
import type { EngineOptionsInput } from '../model/options.js';
import type { TapeInput, TokenMeta } from '../model/tape.js';
import type { ResponseParts } from '../report/response.js';
import { checkNetwork } from '../simulate.js';
import { FeedRefusal } from './errors.js';
import { FeedClock } from './feed-clock.js';
import { readFeedItem, type NativePoint } from './feed-input.js';
import { LiveSimulation, type LiveSetup } from './live-simulation.js';
import { FeedLogReader, type FeedLogGroup } from './log-reader.js';

/** How a feed log is read back into a run. */
export interface LogReplay {
  /** Read no further than this byte (what a writer has committed so far). */
  readonly untilByte?: number;
  /** Called with every swap value of the log as it is read (for the facts of the warnings). */
  readonly onSwap?: (swap: unknown) => void;
  /** Called with each group's inputs once they are taken (the run kept beside the log sees them). */
  readonly onGroup?: (inputs: ReturnType<LiveSimulation['take']>) => void;
}

/**
 * A run made of the committed inputs of a feed log, with the lateness it was recorded with,
 * up to its end when the feed passed `window_end`. The log's reader is handed back with it,
 * read to its last commit line.
 */
export function replayFeedLog(
  path: string,
  setup: Omit<LiveSetup, 'lateness'>,
  replay: LogReplay = {},
): { live: LiveSimulation; log: FeedLogReader } {
  const log = new FeedLogReader(path, replay.untilByte);
  try {
    const live = new LiveSimulation({ ...setup, lateness: log.header.feed.lateness });
    inLog(path, undefined, () => checkNetwork(log.header.network as never, live.request.network));
    for (const group of log.groups()) {
      // Nothing follows the end in a log the service wrote; the rest is read for its length only.
      if (live.ended) continue;
      if (replay.onSwap !== undefined) for (const value of group.values) if (isSwapValue(value)) replay.onSwap(value);
      const inputs = inLog(path, group, () => live.take(group.values));
      replay.onGroup?.(inputs);
      inLog(path, group, () => live.apply(inputs));
    }
    return { live, log };
  } finally {
    log.close();
  }
}

/**
 * Simulates a request over a feed log (`copysim simulate --tape DIR/feed.jsonl`): the run the
 * live feed made, ended where it ended; a feed that has not passed `window_end` is closed where
 * its log ends, as `simulate` closes a tape. The same response as the live run's, byte for byte.
 */
export function simulateFeedLogParts(
  path: string,
  request: unknown,
  options: EngineOptionsInput = {},
  onSwap?: (swap: unknown) => void,
): ResponseParts {
  const { live } = replayFeedLog(path, { request, options, keepInputs: false }, onSwap === undefined ? {} : { onSwap });
  return live.close();
}

/**
 * A feed log as a tape (for the readers that hold a tape whole: `rank`, `sweep`, `convert` …):
 * the tokens and native prices it received, merged in order, and its swaps in event order. Its
 * inputs are checked with the feed's rules; ticks drop out, as a tape has no clock.
 */
export function feedLogTape(path: string): TapeInput {
  const log = new FeedLogReader(path);
  try {
    const clock = new FeedClock(log.header.feed.lateness, Infinity);
    const tokens: Record<string, TokenMeta> = {};
    const native: NativePoint[] = [];
    const swaps: NonNullable<TapeInput['swaps']>[number][] = [];
    for (const group of log.groups()) {
      inLog(path, group, () => {
        group.values.forEach((value, item) => {
          const input = readFeedItem(value, item);
          clock.take(input, item);
          if (input.kind === 'swap') swaps.push(input.swap);
          else if (input.kind === 'tokens') Object.assign(tokens, input.tokens);
          else if (input.kind === 'native_prices') native.push(...input.points);
        });
      });
    }
    const ordered = swaps.map((swap, i) => ({ swap, i })).sort((a, b) => a.swap.time - b.swap.time || a.i - b.i);
    return {
      network: log.header.network as TapeInput['network'],
      tokens,
      native_prices: native as never,
      swaps: ordered.map((s) => s.swap),
    };
  } finally {
    log.close();
  }
}

function isSwapValue(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'wallet' in value;
}

/** Runs `read`; a refusal or input error is said again with the log's file and line. */
function inLog<T>(path: string, group: FeedLogGroup | undefined, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    const line =
      group !== undefined && e instanceof FeedRefusal && e.item !== null ? group.firstLine + e.item : undefined;
    const reason = e instanceof FeedRefusal ? e.reason : e.message;
    const field = e instanceof FeedRefusal && e.field !== null ? `${e.field}: ` : '';
    const where = line !== undefined ? `line ${line}: ` : '';
    throw new InputError(`${path}: ${where}${field}${reason}`, {
      ...e.location,
      source: path,
      ...(line !== undefined ? { line } : {}),
    });
  }
}
