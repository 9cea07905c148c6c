/**
 * The bulk of a large response printed on a thread of its own while the writer's thread does the
 * rest (the warnings' checks, the summary, the deal charts, each deal's other members): the PnL
 * chart, a point per trade, and the trades are most of its JSON (66 of the 84 MB of the heavy
 * 1M tape's), and by the time the response is written the thread that read the tape is done, so
 * a second core is free. The thread is given the chart's points (`PointLog.table`) and the
 * trade rows (`TradeLog.table`), and posts the chart's text, then the deals' `trades` texts, a
 * batch at a time, from the last batch back; the writer (`writeResponseParts`) puts the chart in
 * its place and splices each deal's trades into it, printing those of the first batches itself.
 */
import type { TradeType } from '../model/response.js';
import type { ResponseParts } from '../report/response.js';
import {
  nextPost,
  prestartReadingThread,
  startReadingThread,
  stopPrestartedThread,
  type ReadingThread,
  type ThreadLink,
} from './reading-thread.js';

/** What the thread is started with: the chart's points, the trade rows, where each deal's start, what it leaves. */
export interface ResponseTextsStart extends ThreadLink {
  readonly points: Float64Array;
  readonly values: Float64Array;
  readonly offsets: Int32Array;
  readonly types: readonly TradeType[];
  /** Deals with more trades than this are left to the writer, which writes them piece by piece. */
  readonly largeAbove: number;
}

/** The chart's text (first), a batch's `trades` texts (from deal `first` on), or why the thread stopped. */
export type ResponseTextsReply =
  | { kind: 'chart'; text: string }
  | { kind: 'texts'; first: number; texts: string[] }
  | { kind: 'failed'; reason: string };

/**
 * Fewer trades than this are printed by the writer itself: copying the rows for the thread and
 * taking its texts would cost about as much as it saves.
 */
export const THREAD_FROM_TRADES = 10_000;

/**
 * Deals a batch of texts covers (batch `b`: deals `b × TEXTS_BATCH` to `(b + 1) × TEXTS_BATCH`).
 * The writer prints the batches from the first on, the thread from the last back, until they
 * meet, so that both keep busy to the end: each claims a batch by counting it at
 * {@link CLAIMED}, and a claim once the count has reached the number of batches gets nothing.
 */
export const TEXTS_BATCH = 128;
/** Place in the shared counters: the batches claimed, by the writer and the thread together. */
export const CLAIMED = 2;

/** The number of batches of `deals` deals. */
export function batchCount(deals: number): number {
  return Math.ceil(deals / TEXTS_BATCH);
}

/** The thread's compiled script. */
const SCRIPT = 'io/response-text-thread.js';

/** How long the writer waits for a batch before it prints the trades itself. */
const STALL_MS = 60_000;

/** The texts of a response's PnL chart and trades, printed by a thread of their own. */
export class ResponseTexts {
  private chartTaken = false;
  /** The batch last read from, by its first deal, and its texts. */
  private first = -1;
  private texts: readonly string[] = [];
  /** The thread's batches received ahead of their turn, by first deal. */
  private readonly ahead = new Map<number, readonly string[]>();
  /** The writer's own batches: those before this one (the first ones). */
  private ownUpTo = 0;
  /** Null once the thread is stopped or failed: the writer then prints the trades itself. */
  private thread: ReadingThread | null;

  private constructor(
    thread: ReadingThread,
    /** Where each deal's trades start: deal `i` has `offsets[i + 1] − offsets[i]`. */
    readonly offsets: Int32Array,
    private readonly batches: number,
  ) {
    this.thread = thread;
  }

  /**
   * Starts printing the PnL chart, then the trades of `parts`' deals that have at most
   * `largeAbove` trades; null when they are too few to be worth a thread
   * ({@link THREAD_FROM_TRADES}) or no thread can be started (the TypeScript sources run
   * unbuilt, or a limit of the process).
   */
  static start(parts: ResponseParts, largeAbove: number): ResponseTexts | null {
    const table = parts.tradeTable();
    if (table.offsets[table.offsets.length - 1]! < THREAD_FROM_TRADES) return null;
    const { values, offsets, types } = table;
    const points = parts.chartPoints();
    const thread = startReadingThread(SCRIPT, { values, offsets, types, largeAbove, points });
    return thread === null ? null : new ResponseTexts(thread, offsets, batchCount(offsets.length - 1));
  }

  /**
   * Starts the thread ahead, while a command's modules load and its replay runs, for the next
   * {@link start} to take; {@link releaseUnused} lets it end when no start took it.
   */
  static prestart(): void {
    prestartReadingThread(SCRIPT);
  }

  /** Lets the thread started ahead end, when no {@link start} took it. */
  static releaseUnused(): void {
    stopPrestartedThread(SCRIPT);
  }

  /** The number of trades of deal `i`. */
  tradeCount(i: number): number {
    return this.offsets[i + 1]! - this.offsets[i]!;
  }

  /**
   * The text of `cumulative_pnl_and_fee_chart`, the thread's first post; null when the thread
   * failed or the chart was taken (the caller prints the chart itself).
   */
  chart(): string | null {
    if (this.chartTaken) return null;
    this.chartTaken = true;
    const reply = this.receive();
    if (reply === null || reply.kind === 'chart') return reply?.text ?? null;
    this.stop(); // out of order: the writer prints the rest itself
    return null;
  }

  /**
   * The `trades` text of deal `i` (one of at most `largeAbove` trades), the deals asked for in
   * order; null when the writer is to print it itself: its batch is one of the first ones, which
   * the writer claims while the thread prints the last ones, or the thread failed.
   */
  take(i: number): string | null {
    const first = i - (i % TEXTS_BATCH);
    if (first !== this.first && !this.turnTo(first)) return null;
    return this.texts[i - first]!;
  }

  /** Makes batch `first` the one read from; false when it is the writer's own or the thread failed. */
  private turnTo(first: number): boolean {
    if (!this.chartTaken) this.chart(); // posted before the trades
    const batch = first / TEXTS_BATCH;
    const thread = this.thread;
    // Claims the batches up to this one, while the thread has not reached them from the end.
    while (thread !== null && this.ownUpTo <= batch && Atomics.add(thread.signal, CLAIMED, 1) < this.batches) {
      this.ownUpTo++;
    }
    if (batch < this.ownUpTo) return false;
    for (;;) {
      const texts = this.ahead.get(first);
      if (texts !== undefined) {
        this.ahead.delete(first);
        this.first = first;
        this.texts = texts;
        return true;
      }
      const reply = this.receive(); // the thread's batch: it is coming
      if (reply === null || reply.kind !== 'texts') {
        this.stop();
        return false;
      }
      this.ahead.set(reply.first, reply.texts);
    }
  }

  /** The thread's next reply; null once it is stopped or failed. */
  private receive(): ResponseTextsReply | null {
    const thread = this.thread;
    if (thread === null) return null;
    // The thread posts without waiting for room: nothing to count as taken.
    const reply = nextPost(thread, STALL_MS) as ResponseTextsReply | undefined;
    if (reply === undefined || reply.kind === 'failed') {
      this.stop();
      return null;
    }
    return reply;
  }

  /**
   * Lets the thread end (after the last deal, or when the writer stops early): its port closed,
   * it ends once done with what it does, as a thread just started may still be loading its
   * modules, and a thread terminated then can take the process down with it.
   */
  stop(): void {
    this.thread?.port.close();
    this.thread = null;
  }
}
