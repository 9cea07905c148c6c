/**
 * A response's trades printed on a thread of their own while the writer's thread does the rest
 * (the warnings' checks, the summary and charts, each deal's other members): the trades are
 * most of a large response's JSON (48 of the 66 MB of the heavy 1M tape's deals), and by the
 * time the response is written the thread that read the tape is done, so a second core is free.
 * The thread is given the trade rows (`TradeLog.table`) and posts each deal's `trades` text, in
 * deal order; the writer (`writeResponseParts`) splices each into its deal.
 */
import { receiveMessageOnPort } from 'node:worker_threads';
import type { TradeType } from '../model/response.js';
import type { ResponseParts } from '../report/response.js';
import {
  awaitPost,
  countTaken,
  POSTED,
  startReadingThread,
  stopReadingThread,
  type ReadingThread,
  type ThreadLink,
} from './reading-thread.js';

/** What the thread is started with: the rows, where each deal's start, and which deals it skips. */
export interface TradeTextsStart extends ThreadLink {
  readonly values: Float64Array;
  readonly offsets: Int32Array;
  readonly types: readonly TradeType[];
  /** Deals with more trades than this are left to the writer, which writes them piece by piece. */
  readonly largeAbove: number;
}

/** A batch of deals' `trades` texts, in deal order; or why the thread stopped. */
export type TradeTextsReply = { kind: 'texts'; texts: string[] } | { kind: 'failed'; reason: string };

/**
 * Fewer trades than this are printed by the writer itself: starting the thread (about 50 ms of
 * node's start and its modules) would cost more than it saves.
 */
export const THREAD_FROM_TRADES = 10_000;

/** How long the writer waits for a batch before it prints the trades itself. */
const STALL_MS = 60_000;

/** The texts of a response's trades, printed by a thread of their own. */
export class TradeTexts {
  private batch: string[] = [];
  private next = 0;
  /** Null once the thread is stopped or failed: the writer then prints the trades itself. */
  private thread: ReadingThread | null;

  private constructor(
    thread: ReadingThread,
    /** Where each deal's trades start: deal `i` has `offsets[i + 1] − offsets[i]`. */
    readonly offsets: Int32Array,
    readonly largeAbove: number,
  ) {
    this.thread = thread;
  }

  /**
   * Starts printing the trades of `parts`' deals that have at most `largeAbove` trades; null
   * when they are too few to be worth a thread ({@link THREAD_FROM_TRADES}) or no thread can
   * be started (the TypeScript sources run unbuilt, or a limit of the process).
   */
  static start(parts: ResponseParts, largeAbove: number): TradeTexts | null {
    const table = parts.tradeTable();
    if (table.offsets[table.offsets.length - 1]! < THREAD_FROM_TRADES) return null;
    const { values, offsets, types } = table;
    const thread = startReadingThread('io/trade-text-thread.js', { values, offsets, types, largeAbove });
    return thread === null ? null : new TradeTexts(thread, offsets, largeAbove);
  }

  /** The number of trades of deal `i`. */
  tradeCount(i: number): number {
    return this.offsets[i + 1]! - this.offsets[i]!;
  }

  /**
   * The `trades` text of the next deal with at most {@link largeAbove} trades, in deal order;
   * null when the thread failed (the caller prints that deal's trades itself).
   */
  take(): string | null {
    while (this.next === this.batch.length) {
      const thread = this.thread;
      if (thread === null) return null;
      const reply = receive(thread);
      if (reply === null || reply.kind === 'failed') {
        this.stop();
        return null;
      }
      this.batch = reply.texts;
      this.next = 0;
    }
    return this.batch[this.next++]!;
  }

  /** Stops the thread (after the last deal, or when the writer stops early). */
  stop(): void {
    if (this.thread !== null) stopReadingThread(this.thread);
    this.thread = null;
  }
}

/** The thread's next reply, waiting for it; null when none came in {@link STALL_MS}. */
function receive(thread: ReadingThread): TradeTextsReply | null {
  for (;;) {
    const posted = Atomics.load(thread.signal, POSTED);
    const message = receiveMessageOnPort(thread.port);
    if (message !== undefined) {
      countTaken(thread.signal);
      return message.message as TradeTextsReply;
    }
    if (!awaitPost(thread.signal, posted, STALL_MS)) return null;
  }
}
