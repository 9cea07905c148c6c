import type { ResponseParts } from '../report/response.js';
import { ResponseTexts } from './response-texts.js';

/**
 * Writes a value as compact JSON in pieces of about `chunkChars` characters, byte for byte what
 * `JSON.stringify(value)` gives, without ever building the whole text: a response with a million
 * trades is hundreds of MB of JSON, which would otherwise sit in memory once as a string and
 * once more as the bytes written.
 *
 * @example
 * writeJson(response, (text) => process.stdout.write(text));
 */
export function writeJson(value: unknown, write: (text: string) => void, chunkChars = 1 << 20): void {
  const out = new ChunkedWriter(write, chunkChars);
  if (!isSkipped(value)) emit(value, out.add); // JSON.stringify(undefined) is no text at all
  out.flush();
}

/**
 * Writes the simulator's 200 body from its parts, byte for byte `JSON.stringify` of the whole
 * body, making each deal's JSON only when its turn comes: a response with a million trades
 * never holds them all as JSON objects. `texts` (from {@link startResponseTexts}, started as soon
 * as the parts are made) prints the PnL chart and the deals' trades on a thread of its own meanwhile.
 */
export function writeResponseParts(
  parts: ResponseParts,
  write: (text: string) => void,
  chunkChars = 1 << 20,
  texts: ResponseTexts | null = null,
): void {
  const out = new ChunkedWriter(write, chunkChars);
  // The head's keys, then "deals", then "skipped_copies" when asked for: the order of SimulatorResponse.
  // A member is read only when not printed by the thread (the head makes its PnL chart when read).
  const head = parts.head;
  (Object.keys(head) as (keyof typeof head)[]).forEach((key, k) => {
    out.add(`${k === 0 ? '{' : ','}${JSON.stringify(key)}:`);
    const printed = key === PNL_CHART ? (texts?.chart() ?? null) : null;
    if (printed !== null) out.add(printed);
    else emit(head[key], out.add);
  });
  out.add(',"deals":[');
  if (texts === null) writeDeals(parts, out.add);
  else writeDealsWithTexts(parts, texts, out.add);
  out.add(']');
  if (parts.skipped !== null) {
    out.add(',"skipped_copies":');
    emit(parts.skipped, out.add);
  }
  // Then "leaders" and "copier" (model 3.0), each when present.
  for (const [key, value] of Object.entries(parts.tail)) {
    out.add(`,${JSON.stringify(key)}:`);
    emit(value, out.add);
  }
  out.add('}');
  out.flush();
}

/** Deals stringified together: one `JSON.stringify` call for many small deals. */
const DEAL_BATCH = 64;

/**
 * The deals, comma-separated: batches of small deals (at most {@link LARGE} trades each, every
 * other member a scalar or the token) in one `JSON.stringify` each; a deal with more trades
 * piece by piece ({@link emit}).
 */
function writeDeals(parts: ResponseParts, add: (text: string) => void): void {
  const batch: unknown[] = [];
  let written = 0;
  const flush = (): void => {
    if (batch.length === 0) return;
    const text = JSON.stringify(batch);
    add(written === 0 ? text.slice(1, -1) : `,${text.slice(1, -1)}`);
    written += batch.length;
    batch.length = 0;
  };
  for (let i = 0; i < parts.dealCount; i++) {
    const deal = parts.deal(i);
    if (deal.trades.length <= LARGE) {
      batch.push(deal);
      if (batch.length === DEAL_BATCH) flush();
      continue;
    }
    flush();
    if (written > 0) add(',');
    emit(deal, add);
    written++;
  }
  flush();
}

/**
 * Starts printing the PnL chart and the trades of `parts` on a thread of their own, for
 * {@link writeResponseParts} to put in their places; null when the trades are too few to be
 * worth a thread or no thread starts.
 */
export function startResponseTexts(parts: ResponseParts): ResponseTexts | null {
  return ResponseTexts.start(parts, LARGE);
}

/**
 * The deals, comma-separated: batches of deals with their `trades` empty in one `JSON.stringify`
 * each, each deal's trades' text from `texts` spliced in after its other members; a deal with
 * more than {@link LARGE} trades piece by piece.
 */
function writeDealsWithTexts(parts: ResponseParts, texts: ResponseTexts, add: (text: string) => void): void {
  const batch: unknown[] = [];
  /** The deals of the batch, by number. */
  const numbers: number[] = [];
  let written = 0;
  const flush = (): void => {
    if (batch.length === 0) return;
    const text = JSON.stringify(batch);
    // Each deal's text ends in its last member, `"trades":[]}`, which nothing else in it spells:
    // a quote inside a string is escaped. The trades' text goes between its brackets.
    let from = 1;
    for (const i of numbers) {
      const at = text.indexOf(EMPTY_TRADES, from);
      const end = at + EMPTY_TRADES.length - 3; // before `[]}`
      add(written++ === 0 ? text.slice(from, end) : `,${text.slice(from, end)}`);
      add(texts.take(i) ?? JSON.stringify(parts.dealTrades(i)));
      add('}');
      from = at + EMPTY_TRADES.length + 1; // past the comma between deals
    }
    batch.length = 0;
    numbers.length = 0;
  };
  try {
    for (let i = 0; i < parts.dealCount; i++) {
      if (texts.tradeCount(i) <= LARGE) {
        batch.push(parts.dealWithoutTrades(i));
        numbers.push(i);
        if (batch.length === DEAL_BATCH) flush();
        continue;
      }
      flush();
      if (written++ > 0) add(',');
      emit(parts.deal(i), add);
    }
    flush();
  } finally {
    texts.stop();
  }
}

/** The head's member the thread of {@link ResponseTexts} prints. */
const PNL_CHART = 'cumulative_pnl_and_fee_chart';

/** A deal's `trades` member, empty, as `JSON.stringify` ends the deal with it. */
const EMPTY_TRADES = '"trades":[]}';

/** Gathers pieces of text and writes them about `chunkChars` characters at a time. */
class ChunkedWriter {
  private readonly parts: string[] = [];
  private size = 0;

  constructor(
    private readonly write: (text: string) => void,
    private readonly chunkChars: number,
  ) {}

  readonly add = (text: string): void => {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= this.chunkChars) this.flush();
  };

  flush(): void {
    if (this.size > 0) this.write(this.parts.join(''));
    this.parts.length = 0;
    this.size = 0;
  }
}

/** Whether JSON.stringify leaves a property with this value out (and writes null in an array). */
function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/** Arrays longer than this are written piece by piece; anything smaller is one JSON.stringify. */
const LARGE = 256;
/** Items of an array of plain values written per JSON.stringify call. */
const SLICE = 8192;

/** Whether a large array lies anywhere inside `value` (stops at the first one found). */
function holdsLargeArray(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > LARGE || value.some(holdsLargeArray);
  return isPlainObject(value) && Object.values(value as object).some(holdsLargeArray);
}

function emit(value: unknown, add: (text: string) => void): void {
  if (!holdsLargeArray(value)) add(JSON.stringify(value));
  else if (Array.isArray(value)) emitArray(value, add);
  else emitObject(value as Record<string, unknown>, add);
}

function emitObject(value: Record<string, unknown>, add: (text: string) => void): void {
  add('{');
  let first = true;
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (isSkipped(item)) continue;
    add(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
    first = false;
    emit(item, add);
  }
  add('}');
}

function emitArray(items: readonly unknown[], add: (text: string) => void): void {
  add('[');
  for (let start = 0; start < items.length; start += SLICE) {
    const slice = items.slice(start, start + SLICE);
    if (start > 0) add(',');
    if (slice.some(isPlainObject)) {
      // Objects one by one: each may hold a large array of its own.
      for (let i = 0; i < slice.length; i++) {
        if (i > 0) add(',');
        const item = slice[i];
        if (isSkipped(item)) add('null');
        else emit(item, add);
      }
    } else {
      add(JSON.stringify(slice).slice(1, -1));
    }
  }
  add(']');
}
