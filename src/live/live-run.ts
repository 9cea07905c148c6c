import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../model/errors.js';
import type { EngineOptionsInput } from '../model/options.js';
import { writeResponseParts } from '../io/json-stream.js';
import type { ResponseParts } from '../report/response.js';
import { type FeedRefusal, REFUSALS, type RefusalCode } from './errors.js';
import { feedLine, type FeedInput } from './feed-input.js';
import { FeedLog } from './feed-log.js';
import { HeliusFeed, type HeliusBatch } from './helius-feed.js';
import { LatencyStats } from './latency.js';
import { DEFAULT_LATENESS, LiveSimulation } from './live-simulation.js';
import { replayFeedLog } from './replay-log.js';
import { liveStatus, type LiveStatus } from './status.js';

/** What a {@link LiveRun} runs, and where it keeps its log. */
export interface LiveRunOptions {
  /** The folder of the run: `feed.jsonl` (the log) and, once it has ended, `response.json`. */
  readonly dir: string;
  readonly request: unknown;
  readonly options?: EngineOptionsInput;
  /** Seconds of feed time inputs are held back; default the log's, or 2 for a new log. */
  readonly lateness?: number;
}

/** What a batch taken got: how many inputs, and where the feed stands after it. */
export interface Receipt {
  readonly accepted: number;
  readonly feed_time: number | null;
  readonly ended: boolean;
  /** The transactions of a Helius payload that were not swaps. */
  readonly dropped?: HeliusBatch['dropped'];
}

/**
 * A live run kept on disk: a {@link LiveSimulation} whose every input is in its log before it
 * is applied and acknowledged. Batches are checked as they come (all or nothing), appended to
 * `DIR/feed.jsonl` with group commits, and applied once on disk, in the order taken. Opened on
 * a folder that has a log, it reads the log back first and goes on from there: after a crash,
 * nothing acknowledged is lost and nothing is applied twice.
 *
 * @example
 * const run = await LiveRun.open({ dir: 'run', request });
 * await run.submit([{ native_prices: [[1710028800, 150]] }]);
 * await run.submit(swaps);          // resolves once on disk and applied
 * run.stateText();                  // the response so far, as JSON
 */
export class LiveRun {
  readonly logPath: string;
  readonly latency = new LatencyStats();
  readonly refused: Record<RefusalCode, number> = Object.fromEntries(
    Object.keys(REFUSALS).map((code) => [code, 0]),
  ) as never;
  private readonly helius = new HeliusFeed();
  private readonly listeners = new Set<() => void>();
  private state: { readonly bytes: number; readonly text: string } | null = null;
  private live!: LiveSimulation;
  private log!: FeedLog;

  private constructor(private readonly setup: LiveRunOptions) {
    this.logPath = join(setup.dir, 'feed.jsonl');
  }

  /** Opens the run of a folder: a new log, or the one there read back. */
  static async open(setup: LiveRunOptions): Promise<LiveRun> {
    const run = new LiveRun(setup);
    mkdirSync(setup.dir, { recursive: true });
    if (existsSync(run.logPath)) await run.reopen();
    else await run.create();
    if (run.live.ended) run.writeFinal();
    return run;
  }

  private async create(): Promise<void> {
    const { request, options, lateness = DEFAULT_LATENESS } = this.setup;
    this.live = new LiveSimulation({ request, options, lateness, keepInputs: false, onApplied: this.latency.add });
    const header = { network: this.live.request.network, tokens: {}, native_prices: [], feed: { lateness } };
    this.log = await FeedLog.create(this.logPath, header);
  }

  private async reopen(): Promise<void> {
    const { request, options } = this.setup;
    const setup = { request, options, keepInputs: false, onApplied: this.latency.add };
    const { live, log } = replayFeedLog(this.logPath, setup, { onGroup: (inputs) => this.helius.take(inputs) });
    const recorded = log.header.feed.lateness;
    if (this.setup.lateness !== undefined && this.setup.lateness !== recorded) {
      throw new InputError(
        `${this.logPath} was recorded with a lateness of ${recorded} s, not ${this.setup.lateness}: ` +
          'leave --lateness out, or start a new log folder',
        { source: this.logPath },
      );
    }
    this.live = live;
    this.latency.reset();
    this.log = await FeedLog.reopen(this.logPath, log.committedBytes, log.committedInputs);
  }

  get simulation(): LiveSimulation {
    return this.live;
  }

  /** Counts a batch refused (by the run, or by the service for its body), for the status. */
  noteRefusal(refusal: FeedRefusal): void {
    this.refused[refusal.code]++;
  }

  /**
   * Takes a batch of inputs (swaps, ticks, tokens, native prices, in their line forms): checks
   * it whole (a {@link FeedRefusal} refuses all of it), logs it, and resolves once it is on
   * disk and applied.
   */
  async submit(values: readonly unknown[], dropped?: HeliusBatch['dropped']): Promise<Receipt> {
    const inputs = this.live.take(values);
    this.helius.take(inputs);
    await this.log.append(inputs.map(feedLine), () => this.applyLogged(inputs));
    const time = this.live.feedTime;
    return {
      accepted: inputs.length,
      feed_time: time === -Infinity ? null : time,
      ended: this.live.ended,
      ...(dropped ? { dropped } : {}),
    };
  }

  /** Takes the swaps of a Helius webhook payload (see {@link HeliusFeed.read}). */
  submitHelius(payload: unknown): Promise<Receipt> {
    const batch = this.helius.read(payload);
    return this.submit(batch.items, batch.dropped);
  }

  /** A batch on disk: applied. An input the engine cannot use stops the run (its error is the status's). */
  private applyLogged(inputs: readonly FeedInput[]): void {
    try {
      this.live.apply(inputs);
    } catch {
      // Kept by the simulation as its error: the status reports it and nothing more is taken.
    }
    if (this.live.ended) this.writeFinal();
    for (const listener of this.listeners) listener();
  }

  /** Called after every batch applied; gives the function that stops the calls. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  status(): LiveStatus {
    const log = { path: this.logPath, bytes: this.log.committedBytes, inputs: this.log.committedInputs };
    return liveStatus(this.live, { refused: this.refused, latency: this.latency.summary(), log });
  }

  /**
   * The response as JSON text: the final one once the run has ended; before, the run so far (a
   * copy of the run made from the log, settled as it stands; made again only when the log has
   * grown). Throws the run's error when it stopped.
   */
  stateText(): string {
    const bytes = this.log.committedBytes;
    if (this.state?.bytes === bytes) return this.state.text;
    const parts = this.live.ended ? this.live.responseParts() : this.partsSoFar(bytes);
    this.state = { bytes, text: partsText(parts) };
    return this.state.text;
  }

  private partsSoFar(bytes: number): ResponseParts {
    if (this.live.error !== null) throw this.live.error;
    const { request, options } = this.setup;
    return replayFeedLog(this.logPath, { request, options, keepInputs: false }, { untilByte: bytes }).live.settleNow();
  }

  /** `DIR/response.json`: the final response, as `copysim simulate` prints it. */
  get responsePath(): string {
    return join(this.setup.dir, 'response.json');
  }

  private writeFinal(): void {
    const text = `${partsText(this.live.responseParts())}\n`;
    if (existsSync(this.responsePath) && readFileSync(this.responsePath, 'utf8') === text) return;
    const temporary = `${this.responsePath}.new`;
    writeFileSync(temporary, text);
    renameSync(temporary, this.responsePath);
  }

  /** Waits for the writes under way and closes the log. */
  async close(): Promise<void> {
    this.listeners.clear();
    await this.log.close();
  }
}

/** The response's JSON text, as `copysim simulate` writes it (without the newline). */
export function partsText(parts: ResponseParts): string {
  const pieces: string[] = [];
  writeResponseParts(parts, (text) => pieces.push(text));
  return pieces.join('');
}
