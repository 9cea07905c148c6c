/**
 * A local rank on more than one core: helper threads copy groups of wallets beside the
 * command's thread. When the rows are made in double words (word-copy.ts), a helper reads no
 * tape: it copies from the rows of the swaps that the command's thread made over shared memory,
 * and a wallet it cannot decide is copied exactly here. Otherwise each helper reads and indexes
 * the tape itself, starting as the command starts, so that its reading runs while the command's
 * thread reads the tape too: a tape's objects cannot be shared between threads, and packing them
 * for a thread costs about what parsing them does (docs/performance.md). The command's thread and
 * the helpers take the groups (`WALLETS_A_WALK` wallets each, in the order given) from one shared
 * counter, so a helper still reading the tape takes none and a slow one takes fewer. Every row
 * is made from the wallet and the tape alone, so the rows are the same, byte for byte, whoever
 * copies them; a group a helper took and could not finish is copied here.
 */
import { Worker } from 'node:worker_threads';
import { WALLETS_A_WALK } from '../engine/followers.js';
import type { TapeHeaderOptions } from '../io/parquet/header.js';
import { builtScriptIfAny } from '../built-script.js';
import type { CopyRunner, CopySettings } from './pipeline.js';
import type { Network } from '../model/request.js';
import type { DecimalInput } from '../numeric/decimal40-parse.js';
import {
  copyWallets,
  rowsFrom,
  wordResultsOf,
  type Candidate,
  type RankContext,
  type RankedWallet,
  type WordResult,
} from './rank.js';
import { wordCopyOf } from './word-copy.js';
import type { SharedSwapRows } from './word-rows.js';
import {
  joinParts,
  partTakenBy,
  readTapePart,
  takeParts,
  type PartReading,
  type RowsTape,
  type TapePlan,
} from './tape-rows.js';
import { readTapeFile } from '../io/read-tape.js';
import { addDone, takenBy, takeTurns, turnCount, turnCounters } from './turns.js';
import { packBounds, unpackBounds, WalletScreen, type ScreenBounds, type ScreenedMetric } from './screen.js';

/** What a helper starts with. */
export interface HelperStart {
  readonly tapePath: string;
  readonly tapeHeader: TapeHeaderOptions;
  /** Its number, from 1 (the command's thread is 0): what it writes beside a group it takes. */
  readonly helper: number;
  /** False when the rows are made in double words from shared rows: then it reads no tape. */
  readonly readTape: boolean;
  /** How the tape is read as rows by parts (tape-rows.ts): the helper takes parts first, and posts them. */
  readonly parts?: TapePlan;
}

/** What a helper that reads no tape copies from: the rows of the swaps, shared, and the native coin's prices. */
export interface WordOrder {
  readonly rows: SharedSwapRows;
  readonly network: Network;
  readonly nativePrices: readonly (readonly [number, DecimalInput])[];
}

/** What a helper does with the groups of an order: copy their wallets, or screen them (screen.ts). */
export type HelperTask = { readonly kind: 'copy' } | { readonly kind: 'screen'; readonly metric: ScreenedMetric };

/** The wallets of one window to copy (or screen), and the counters shared with the command's thread. */
export interface HelperOrder {
  readonly id: number;
  readonly task: HelperTask;
  /** The swaps of the command's tape: a helper that read another tape (the file changed) takes no group. */
  readonly swaps: number;
  readonly settings: CopySettings;
  readonly candidates: readonly Candidate[];
  /** Wallets a group (a walk of the tape). */
  readonly walletsAWalk: number;
  /** Over a `SharedArrayBuffer`: see {@link takeGroups}. */
  readonly counters: Int32Array;
  /** Set when the groups are copied in double words from shared rows (no tape read). */
  readonly words?: WordOrder;
}

/**
 * That the helper has read the tape (or failed to); a part of the tape it read as rows; a
 * group's rows, or its screened figures (`packBounds`); the end of its part of an order; or why
 * it stopped.
 */
export type HelperReply =
  | { readonly read: true }
  | { readonly part: number; readonly reading: PartReading }
  | { readonly order: number; readonly group: number; readonly rows: RankedWallet[] }
  | { readonly order: number; readonly group: number; readonly words: (WordResult | null)[] }
  | { readonly order: number; readonly group: number; readonly bounds: Float64Array }
  | { readonly order: number; readonly done: true }
  | { readonly order: number; readonly error: string };

/** What a helper that reads no tape is told of the context: its rows of swaps, shared, and the native prices. */
export function wordOrderOf(context: RankContext): WordOrder {
  return {
    rows: wordCopyOf(context).swaps.shared,
    network: context.network,
    nativePrices: context.native.points,
  };
}

/**
 * Wallets a group when they are copied in double words: a group walks no tape, so it can be small,
 * and the heaviest wallets (a tape's leaders) spread over the threads instead of ending one group.
 */
const WORD_GROUP = 50;

/** Groups a thread takes of a list too short to fill a walk a thread: a slower thread then takes fewer. */
const GROUPS_A_THREAD = 2;

/** The counters of an order (turns.ts): the groups' turns, and the wallets copied. */
export function orderCounters(candidates: number, walletsAWalk: number): Int32Array {
  return turnCounters(Math.ceil(candidates / walletsAWalk));
}

/** The wallets of group `group`. */
export function groupOf(order: HelperOrder, group: number): Candidate[] {
  const first = group * order.walletsAWalk;
  return order.candidates.slice(first, first + order.walletsAWalk);
}

/**
 * Takes groups of the order off its shared counter until none is left, marks each as taken by
 * `taker` and copies it with `copy`; `onDone` is told the wallets copied by all so far.
 */
export function takeGroups(
  order: HelperOrder,
  taker: number,
  copy: (group: number, candidates: readonly Candidate[]) => void,
  onDone?: (wallets: number) => void,
): void {
  takeTurns(order.counters, taker, (group) => {
    const slice = groupOf(order, group);
    copy(group, slice);
    const done = addDone(order.counters, slice.length);
    onDone?.(done);
  });
}

/**
 * Helper threads of a local rank, started at once (reading the tape), and the runner that
 * shares the copying with them. Without a build of the thread script (running from the
 * TypeScript source) or with no helper asked for, the runner copies everything here.
 *
 * @example
 * const helpers = RankHelpers.start('tape.json', {}, 1);
 * const rows = await rankWith(helpers.runner, tape, request);
 * await helpers.close();
 */
export class RankHelpers {
  private readonly live = new Set<Worker>();
  private orders = 0;
  private readonly reading: Promise<void>[];

  /** The parts of the tape the helpers posted, by index; and a call for each that comes, or a helper's end. */
  private readonly posted = new Map<number, PartReading>();
  private onPosted: () => void = () => {};

  private constructor(
    private readonly workers: readonly Worker[],
    private readonly walletsAWalk: number,
    /** The helpers copy in double words from shared rows and read no tape. */
    private readonly inWords: boolean,
    /** How the tape is read in parts, the parts taken by this thread and the helpers alike, or null. */
    private plan: TapePlan | null,
  ) {
    for (const worker of workers) {
      worker.on('message', (reply: HelperReply) => {
        // A part read twice (taken as this thread read it here) is not kept once the tape is joined.
        if (!('part' in reply) || this.plan === null) return;
        this.posted.set(reply.part, reply.reading);
        this.onPosted();
      });
      worker.on('exit', () => this.onPosted());
    }
    this.reading = workers.map(
      (worker) =>
        new Promise<void>((resolve) => {
          worker.on('message', (reply: HelperReply) => 'read' in reply && resolve());
          worker.on('exit', () => resolve());
        }),
    );
    for (const worker of workers) {
      this.live.add(worker);
      // A helper that fails leaves its groups to this thread; the rows do not change.
      worker.on('error', () => this.live.delete(worker));
      worker.on('exit', () => this.live.delete(worker));
    }
  }

  /** `count` helpers reading the tape at `tapePath`; `walletsAWalk` (the rank's own) is there for tests. */
  /**
   * `inWords`: the rank's rows are made in double words (`copyInWordsApplies`), so the helpers copy
   * from rows this thread shares and read no tape; a wallet they cannot decide is copied here.
   */
  static start(
    tapePath: string,
    tapeHeader: TapeHeaderOptions,
    count: number,
    inWords = false,
    walletsAWalk = WALLETS_A_WALK,
    plan: TapePlan | null = null,
  ): RankHelpers {
    const url = builtScriptIfAny('rank/rank-thread.js');
    const workers =
      url === null
        ? []
        : Array.from({ length: count }, (_, h) => {
            const parts = plan === null ? {} : { parts: plan };
            const start: HelperStart = { tapePath, tapeHeader, helper: h + 1, readTape: !inWords, ...parts };
            return new Worker(url, { workerData: start });
          });
    return new RankHelpers(workers, walletsAWalk, inWords, plan);
  }

  /**
   * The tape read as rows by parts (tape-rows.ts): this thread and the helpers take the plan's
   * parts off one counter; a part a helper took and did not post (it stopped) is read here. Null
   * without a plan, or when the tape is to be read whole (a part refused, swaps out of time order).
   * Asked once.
   */
  async rowsTape(): Promise<RowsTape | null> {
    const plan = this.plan;
    if (plan === null) return null;
    const readings = new Array<PartReading | undefined>(plan.parts.length);
    takeParts(plan, 0, (index, reading) => (readings[index] = reading));
    for (let index = 0; index < readings.length; index++) {
      while (readings[index] === undefined) {
        const posted = this.posted.get(index);
        const taker = this.workers[partTakenBy(plan, index) - 1];
        if (posted !== undefined) readings[index] = posted;
        else if (taker === undefined || !this.live.has(taker)) {
          readings[index] = readTapePart(plan.path, plan.parts[index]!, plan.header.network);
        } else await new Promise<void>((resolve) => (this.onPosted = resolve));
      }
    }
    this.posted.clear();
    this.plan = null;
    return joinParts(plan, readings as PartReading[], () => readTapeFile(plan.path));
  }

  /** Copies the wallets here and on the helpers; screens them so too (`CopyRunner.screen`). */
  readonly runner: CopyRunner = Object.assign(
    async (
      context: RankContext,
      candidates: readonly Candidate[],
      settings: CopySettings,
      onProgress?: (done: number, total: number) => void,
    ): Promise<RankedWallet[]> => {
      if (this.inWords) return this.copyInWords(context, candidates, settings, onProgress);
      const groups = await this.share(
        context,
        candidates,
        settings,
        { kind: 'copy' },
        (slice, walletsAWalk, progress) => copyWallets(context, slice, progress, walletsAWalk),
        (reply) => ('rows' in reply ? reply.rows : undefined),
        onProgress,
      );
      onProgress?.(candidates.length, candidates.length);
      return groups.flat();
    },
    {
      screen: async (
        context: RankContext,
        candidates: readonly Candidate[],
        settings: CopySettings,
        metric: ScreenedMetric,
      ): Promise<ScreenBounds> => {
        let screen: WalletScreen | null = null; // its rows made once, for the groups taken here
        const groups = await this.share(
          context,
          candidates,
          settings,
          { kind: 'screen', metric },
          (slice) => packBounds((screen ??= new WalletScreen(context)).bounds(slice, metric)),
          (reply) => ('bounds' in reply ? reply.bounds : undefined),
          undefined,
          this.inWords ? wordOrderOf(context) : undefined,
        );
        const bounds: ScreenBounds = new Map();
        for (const packed of groups) unpackBounds(packed, bounds);
        return bounds;
      },
    },
  );

  /**
   * The rows in double words, the groups shared with helpers that copy from this thread's rows;
   * the wallets not decided there copied exactly here.
   */
  private async copyInWords(
    context: RankContext,
    candidates: readonly Candidate[],
    settings: CopySettings,
    onProgress?: (done: number, total: number) => void,
  ): Promise<RankedWallet[]> {
    const words = wordCopyOf(context);
    const groups = await this.share(
      context,
      candidates,
      settings,
      { kind: 'copy' },
      (slice) => wordResultsOf(words, slice),
      (reply) => ('words' in reply ? reply.words : undefined),
      onProgress,
      wordOrderOf(context),
    );
    const rows = rowsFrom(context, candidates, groups.flat(), words);
    onProgress?.(candidates.length, candidates.length);
    return rows;
  }

  /**
   * Shares the groups of an order between this thread and the helpers: each group's result, in
   * order, made here (`here`) or taken from a helper's reply (`fromReply`). A short list (the
   * wallets a screen left) goes in smaller groups, so that every thread gets some: the walks of
   * the tape cost little beside the copies.
   */
  private async share<T>(
    context: RankContext,
    candidates: readonly Candidate[],
    settings: CopySettings,
    task: HelperTask,
    here: (slice: readonly Candidate[], walletsAWalk: number, onProgress?: (done: number, total: number) => void) => T,
    fromReply: (reply: HelperReply) => T | undefined,
    onProgress?: (done: number, total: number) => void,
    words?: WordOrder,
  ): Promise<T[]> {
    // Each helper by its number (its place in `workers`, from 1), as it marks the groups it takes.
    const helpers = new Map<number, Worker>();
    this.workers.forEach((worker, h) => this.live.has(worker) && helpers.set(h + 1, worker));
    if (helpers.size === 0 || candidates.length <= 1) return [here(candidates, this.walletsAWalk, onProgress)];
    const threads = helpers.size + 1;
    // Copies in double words walk no tape: small groups even out the threads' ends.
    const most = words === undefined ? this.walletsAWalk : Math.min(this.walletsAWalk, WORD_GROUP);
    const walletsAWalk = Math.min(most, Math.ceil(candidates.length / (GROUPS_A_THREAD * threads)));
    const order: HelperOrder = {
      id: ++this.orders,
      task,
      swaps: context.swapCount,
      settings,
      candidates,
      walletsAWalk,
      counters: orderCounters(candidates.length, walletsAWalk),
      ...(words !== undefined ? { words } : {}),
    };
    const groups = turnCount(order.counters);
    const results = new Array<T | undefined>(groups);
    const ended = new Map(
      [...helpers].map(([h, worker]) => [
        h,
        this.answers(worker, order.id, (reply) => {
          const result = fromReply(reply);
          if (result !== undefined) results[reply.group] = result;
        }),
      ]),
    );
    for (const worker of helpers.values()) worker.postMessage(order);
    takeGroups(
      order,
      0,
      (group, slice) => (results[group] = here(slice, walletsAWalk)),
      (done) => onProgress?.(done, candidates.length),
    );
    // Wait only for the helpers holding a group: one still reading the tape took none.
    const holding = new Set<Promise<void>>();
    for (let g = 0; g < groups; g++) {
      const taker = ended.get(takenBy(order.counters, g));
      if (results[g] === undefined && taker !== undefined) holding.add(taker);
    }
    await Promise.all(holding);
    for (const stop of ended.values()) stop.cancel();
    // A group a helper took and could not finish is done here.
    return Array.from({ length: groups }, (_, g) => results[g] ?? here(groupOf(order, g), walletsAWalk));
  }

  /** Settles when every helper has read the tape (or failed to): from then on each takes groups. */
  async read(): Promise<void> {
    await Promise.all(this.reading);
  }

  /** Stops the helpers. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  /**
   * Hands the helper's group results of order `id` to `file`; settles when the helper is done
   * with the order, stopped, or failed (its unfinished group is then done here), or when cancelled.
   */
  private answers(
    worker: Worker,
    id: number,
    file: (reply: HelperReply & { readonly group: number }) => void,
  ): Promise<void> & { cancel: () => void } {
    let cancel = (): void => {};
    const ended = new Promise<void>((resolve) => {
      const onMessage = (reply: HelperReply): void => {
        if (!('order' in reply) || reply.order !== id) return;
        if ('group' in reply) file(reply);
        else cancel();
      };
      cancel = () => {
        worker.off('message', onMessage);
        worker.off('exit', cancel);
        resolve();
      };
      worker.on('message', onMessage);
      worker.on('exit', cancel);
    });
    return Object.assign(ended, { cancel: () => cancel() });
  }
}
