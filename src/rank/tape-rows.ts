/**
 * A JSON tape read for a rank in double words without its swap objects: its swaps array cut into
 * parts, one a thread, each part's swaps parsed a block at a time, checked, and turned into rows
 * (word-rows.ts); the parts then joined into the rows of the whole tape. No thread holds the
 * tape's objects, so no thread parses the whole file: the parts are read side by side, and their
 * blocks' objects die young. The exact copy of a wallet the rows do not decide reads the file
 * whole, when it is first needed ({@link RowsTape.indexed}).
 *
 * Only a tape in time order whose every swap and header the whole reading accepts is read so: a
 * part that does not parse, a swap the check refuses, or swaps out of time order make the rank
 * read the file whole instead, where its errors are named.
 */
import { isValidSwap } from '../engine/swap-check.js';
import { addressKey, type IndexedTape } from '../engine/tape-index.js';
import { NativePriceSeries } from '../engine/native-prices.js';
import { TokenTable } from '../engine/tokens.js';
import { decodeText } from '../io/files.js';
import { nextSeparator, swapBlocks } from '../io/json-tape/blocks.js';
import { readJsonTapeLayout } from '../io/json-tape/layout.js';
import { isParquetPath } from '../io/parquet/format.js';
import { isJsonlPath } from '../io/tape-names.js';
import type { Network } from '../model/request.js';
import { TapeHeaderSchema, type TapeHeader } from '../model/tape.js';
import { doubleWord } from '../numeric/double-word.js';
import { takenBy, takeTurns, turnCounters } from './turns.js';
import { knownLiquidityAndSlots, ROW, TIME, TOKEN, writeSwapRow } from './word-rows.js';

/** Bytes of a file's swaps a part holds at least, by default: a smaller tape is read in one part. */
const LEAST_PART_BYTES = 1 << 20;

/** A part of the swaps array: its text `[from, to)` in the file, whole swaps. */
export interface PartRange {
  readonly from: number;
  readonly to: number;
}

/**
 * How a JSON tape is read in parts: its header, checked, the parts' ranges in file order, and
 * the counters the threads reading them share: the next part to take, and who took each
 * ({@link takeParts}).
 */
export interface TapePlan {
  readonly path: string;
  readonly header: TapeHeader;
  readonly parts: readonly PartRange[];
  /** The parts' turns (turns.ts). */
  readonly counters: Int32Array;
}

/** Parts a reading thread takes, about: a thread that starts later or reads slower takes fewer. */
const PARTS_A_THREAD = 4;

/**
 * The plan to read the JSON tape at `path` in parts on `threads` threads, or null when it is read
 * whole: a Parquet or JSONL file, a file whose swaps array is not its last member, or a header
 * the schema refuses.
 */
export function planTapeParts(path: string, threads: number, leastPartBytes = LEAST_PART_BYTES): TapePlan | null {
  if (isParquetPath(path) || isJsonlPath(path)) return null;
  const layout = readJsonTapeLayout(path);
  if (layout === null) return null;
  const { network, tokens, native_prices } = layout.header;
  const header = TapeHeaderSchema.safeParse({ network, tokens, native_prices });
  if (!header.success) return null;
  const { bodyStart, bodyEnd } = layout;
  const most = PARTS_A_THREAD * threads;
  const count = Math.max(1, Math.min(most, Math.floor((bodyEnd - bodyStart) / leastPartBytes)));
  const ranges: PartRange[] = [];
  let from = bodyStart;
  for (let p = 1; p < count; p++) {
    const comma = nextSeparator(
      path,
      Math.max(from, bodyStart + Math.floor(((bodyEnd - bodyStart) * p) / count)),
      bodyEnd,
    );
    if (comma < 0) break;
    ranges.push({ from, to: comma });
    // The separator's comma is in neither part.
    from = comma + 1;
  }
  ranges.push({ from, to: bodyEnd });
  return { path, header: header.data, parts: ranges, counters: turnCounters(ranges.length) };
}

/**
 * Takes parts of the plan off its shared counter until none is left, marks each as taken by
 * `taker` (0: the command's thread, a helper its number) and reads it, handing it to `read`.
 */
export function takeParts(plan: TapePlan, taker: number, read: (index: number, reading: PartReading) => void): void {
  takeTurns(plan.counters, taker, (index) =>
    read(index, readTapePart(plan.path, plan.parts[index]!, plan.header.network)),
  );
}

/** Who took part `index` (the taker given to {@link takeParts}). */
export function partTakenBy(plan: TapePlan, index: number): number {
  return takenBy(plan.counters, index);
}

/**
 * A part's swaps as rows (word-rows.ts) before they are joined: a token's number is the part's
 * own, the liquidity is the swap's own (head NaN: none), the slot is not set. Each swap's wallet
 * by the part's own number; the wallets' address keys and spellings and the tokens' spellings in
 * the order the part first saw them.
 */
export interface TapePart {
  readonly count: number;
  /** `count × ROW` doubles (the buffer may hold more). */
  readonly rows: Float64Array;
  readonly wallets: Int32Array;
  readonly walletKeys: readonly string[];
  readonly walletSpellings: readonly string[];
  readonly tokenSpellings: readonly string[];
  /** Whether its swaps are in time order; its first and last swap's time (NaN: none). */
  readonly inOrder: boolean;
  readonly firstTime: number;
  readonly lastTime: number;
}

/** A part read, or why the tape is read whole instead. */
export type PartReading = TapePart | { readonly refused: string };

/** Rows of a part allocated at first, for each byte of its text: swaps take a few hundred bytes. */
const ROWS_A_BYTE = 1 / 160;

/**
 * Reads the part `range` of the JSON tape at `path`, whose network is `network`; a file that
 * cannot be read is a part refused (the whole reading then names the problem).
 */
export function readTapePart(path: string, range: PartRange, network: Network): PartReading {
  try {
    return partRows(path, range, network);
  } catch (e) {
    return { refused: e instanceof Error ? e.message : String(e) };
  }
}

function partRows(path: string, range: PartRange, network: Network): PartReading {
  let rows = new Float64Array(ROW * Math.ceil((range.to - range.from) * ROWS_A_BYTE + 16));
  let wallets = new Int32Array(rows.length / ROW);
  const walletIds = new Map<string, number>();
  const walletKeys: string[] = [];
  const walletSpellings: string[] = [];
  const tokenIds = new Map<string, number>();
  const tokenSpellings: string[] = [];
  const word = doubleWord();
  let count = 0;
  let inOrder = true;
  let lastTime = Number.NaN;
  let firstTime = Number.NaN;
  for (const block of swapBlocks(path, range.from, range.to)) {
    let swaps: unknown[];
    try {
      swaps = JSON.parse(`[${decodeText(block.bytes)}]`) as unknown[];
    } catch (e) {
      return { refused: `not JSON: ${(e as Error).message}` };
    }
    if (ROW * (count + swaps.length) > rows.length) {
      const grown = new Float64Array(Math.max(2 * rows.length, ROW * (count + swaps.length)));
      grown.set(rows.subarray(0, ROW * count));
      rows = grown;
      const grownWallets = new Int32Array(grown.length / ROW);
      grownWallets.set(wallets.subarray(0, count));
      wallets = grownWallets;
    }
    for (const swap of swaps) {
      if (!isValidSwap(swap)) return { refused: `swap ${count} of the part is not valid` };
      const time = swap.time;
      if (time < lastTime) inOrder = false;
      if (count === 0) firstTime = time;
      lastTime = time;
      const walletKey = addressKey(network, swap.wallet);
      let wallet = walletIds.get(walletKey);
      if (wallet === undefined) {
        walletIds.set(walletKey, (wallet = walletKeys.length));
        walletKeys.push(walletKey);
        walletSpellings.push(swap.wallet);
      }
      const tokenKey = addressKey(network, swap.token);
      let token = tokenIds.get(tokenKey);
      if (token === undefined) {
        tokenIds.set(tokenKey, (token = tokenSpellings.length));
        tokenSpellings.push(swap.token);
      }
      wallets[count] = wallet;
      writeSwapRow(rows, ROW * count++, swap, token, word);
    }
  }
  return { count, rows, wallets, walletKeys, walletSpellings, tokenSpellings, inOrder, firstTime, lastTime };
}

/**
 * The swaps of a whole tape as rows, in event order (the file's: the tape is in time order), each
 * swap's token numbered and its known liquidity and slot set as word-rows.ts has them, and each
 * swap's wallet; the wallets and tokens numbered as `indexTape` numbers them. The tape indexed
 * is read from the file when first asked for.
 */
export class RowsTape {
  readonly kind = 'rows-tape';
  readonly network: Network;
  readonly native: NativePriceSeries;
  /** The swaps' number. */
  readonly count: number;
  /** `count × ROW` doubles over shared memory. */
  readonly rows: Float64Array;
  /** Each swap's wallet, by event position. */
  readonly walletOf: Uint32Array;
  /** Wallet ids by address key, and each wallet's address as its first swap spells it. */
  readonly walletIds: ReadonlyMap<string, number>;
  readonly spellings: readonly string[];
  readonly tokenCount: number;
  private whole: IndexedTape | null = null;

  constructor(
    plan: TapePlan,
    parts: readonly TapePart[],
    /** Reads and indexes the whole file: {@link indexed}. */
    private readonly readWhole: () => IndexedTape,
  ) {
    const { network, tokens, native_prices } = plan.header;
    this.network = network;
    this.native = new NativePriceSeries(native_prices);
    this.count = parts.reduce((sum, part) => sum + part.count, 0);
    this.rows = new Float64Array(new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT * ROW * this.count));
    this.walletOf = new Uint32Array(this.count);
    const walletIds = new Map<string, number>();
    const spellings: string[] = [];
    const table = new TokenTable(network, tokens);
    let start = 0;
    for (const part of parts) {
      const walletOfPart = part.walletKeys.map((key, w) => {
        let id = walletIds.get(key);
        if (id === undefined) {
          walletIds.set(key, (id = spellings.length));
          spellings.push(part.walletSpellings[w]!);
        }
        return id;
      });
      const tokenOfPart = part.tokenSpellings.map((spelling) => table.intern(spelling));
      this.rows.set(part.rows.subarray(0, ROW * part.count), ROW * start);
      for (let i = 0; i < part.count; i++) {
        this.walletOf[start + i] = walletOfPart[part.wallets[i]!]!;
        const at = ROW * (start + i);
        this.rows[at + TOKEN] = tokenOfPart[this.rows[at + TOKEN]!]!;
      }
      start += part.count;
    }
    this.walletIds = walletIds;
    this.spellings = spellings;
    this.tokenCount = table.list.length;
    knownLiquidityAndSlots(this.rows, this.count, this.tokenCount);
  }

  /** The tape indexed, read from the file when first asked for (the exact copy of a wallet). */
  indexed(): IndexedTape {
    if (this.whole === null) {
      const whole = this.readWhole();
      if (whole.swaps.length !== this.count || whole.walletIds.size !== this.walletIds.size) {
        throw new Error('the tape file changed while the rank read it');
      }
      this.whole = whole;
    }
    return this.whole;
  }

  /** The number of event positions whose swap has `time ≤ t`. */
  prefixEnd(t: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.rows[ROW * mid + TIME]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * The parts joined, or null when the tape is to be read whole: a part refused, or the swaps out
 * of time order (within a part or across two).
 */
export function joinParts(
  plan: TapePlan,
  readings: readonly PartReading[],
  readWhole: () => IndexedTape,
): RowsTape | null {
  const parts: TapePart[] = [];
  let lastTime = -Infinity;
  for (const reading of readings) {
    if ('refused' in reading || !reading.inOrder || reading.firstTime < lastTime) return null;
    if (reading.count > 0) lastTime = reading.lastTime;
    parts.push(reading);
  }
  return new RowsTape(plan, parts, readWhole);
}
