import { InputError } from '../model/errors.js';
import { FeedRefusal } from './errors.js';
import type { LiveRun } from './live-run.js';

/** Lines taken in one batch at most. */
const BATCH_LINES = 4096;

/** What reading a JSONL stream into a run came to. */
export interface StreamFeedResult {
  readonly lines: number;
  readonly accepted: number;
  readonly refused: number;
  /** True when the run ended (the feed passed window_end) before the stream did. */
  readonly ended: boolean;
}

/**
 * Feeds a JSONL stream into a run (`copysim follow --stdin`): one input a line in its log form
 * (a swap, `{"tick": T}`, `{"tokens": …}`, `{"native_prices": …}`). A first line that is a
 * tape's header (`{"network", "tokens", "native_prices"}`, a feed log's too) gives its tokens
 * and native prices; a feed log's commit lines are passed over. So a JSONL tape, or the log of
 * another run, replays into it. Lines go in batches; a line refused is reported with its
 * number and the others go on.
 */
export async function feedStream(
  run: LiveRun,
  chunks: AsyncIterable<string | Buffer>,
  report: (message: string) => void,
): Promise<StreamFeedResult> {
  const counts = { lines: 0, accepted: 0, refused: 0 };
  const batch = new StreamBatch(run, report, counts);
  let carry = '';
  for await (const chunk of chunks) {
    const text = carry + chunk.toString();
    const lines = text.split('\n');
    carry = lines.pop()!;
    for (const line of lines) if (!(await batch.line(line))) return batch.ended();
    if (!(await batch.flush())) return batch.ended();
  }
  if (!(await batch.line(carry)) || !(await batch.flush())) return batch.ended();
  return { ...counts, ended: false };
}

/** The lines read and not yet taken, with their numbers. */
class StreamBatch {
  private values: unknown[] = [];
  private numbers: number[] = [];

  constructor(
    private readonly run: LiveRun,
    private readonly report: (message: string) => void,
    private readonly counts: { lines: number; accepted: number; refused: number },
  ) {}

  /** Reads one line; false once the run has ended. */
  async line(text: string): Promise<boolean> {
    if (text.trim() === '') return true;
    const number = ++this.counts.lines;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      this.refuse(number, `not valid JSON: ${(e as Error).message}`);
      return true;
    }
    if (isCommitLine(value)) return true;
    const values = number === 1 && isTapeHeader(value) ? this.headerInputs(value) : [value];
    for (const v of values) {
      this.values.push(v);
      this.numbers.push(number);
    }
    return this.values.length >= BATCH_LINES ? this.flush() : true;
  }

  /** The result of a stream read no further: the run has ended. */
  ended(): StreamFeedResult {
    this.report(`the run ended at line ${this.counts.lines} (the feed passed window_end): input after it is not read`);
    return { ...this.counts, ended: true };
  }

  /** Takes the lines read; a refused one is reported and left out. False once the run has ended. */
  async flush(): Promise<boolean> {
    while (this.values.length > 0) {
      const values = this.values;
      const numbers = this.numbers;
      this.values = [];
      this.numbers = [];
      try {
        this.counts.accepted += (await this.run.submit(values)).accepted;
      } catch (e) {
        if (!(e instanceof FeedRefusal)) throw e;
        if (e.code === 'run_ended' || e.code === 'run_failed' || e.item === null) return this.stop(e, numbers[0]);
        if (e.item > 0) this.counts.accepted += (await this.run.submit(values.slice(0, e.item))).accepted;
        this.run.noteRefusal(e);
        this.refuse(numbers[e.item]!, e.message.replace(/^item \d+: /, ''));
        this.values = values.slice(e.item + 1);
        this.numbers = numbers.slice(e.item + 1);
      }
    }
    return !this.run.simulation.ended;
  }

  private stop(e: FeedRefusal, line: number | undefined): boolean {
    if (e.code !== 'run_ended') throw new InputError(`standard input, line ${line}: ${e.message}`, { source: 'stdin' });
    return false;
  }

  private refuse(line: number, message: string): void {
    this.counts.refused++;
    this.report(`line ${line} refused: ${message}`);
  }

  private headerInputs(header: { network: unknown; tokens?: unknown; native_prices?: unknown }): unknown[] {
    const network = this.run.simulation.request.network;
    if (header.network !== network) {
      throw new InputError(
        `standard input, line 1: the tape holds swaps of network "${String(header.network)}" ` +
          `but the request asks for "${network}"`,
        { source: 'stdin' },
      );
    }
    const inputs: unknown[] = [];
    if (typeof header.tokens === 'object' && header.tokens !== null && Object.keys(header.tokens).length > 0)
      inputs.push({ tokens: header.tokens });
    if (Array.isArray(header.native_prices) && header.native_prices.length > 0)
      inputs.push({ native_prices: header.native_prices });
    return inputs;
  }
}

function isCommitLine(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'commit' in value && !('wallet' in value);
}

function isTapeHeader(value: unknown): value is { network: unknown; tokens?: unknown; native_prices?: unknown } {
  return typeof value === 'object' && value !== null && 'network' in value && !('wallet' in value);
}
