import { closeSync, openSync, readSync } from 'node:fs';
import { isValidSwap } from '../../engine/swap-check.js';
import type { MarketObservations } from '../../diagnose/market-prices.js';
import { addressKey, LeaderLookup, TokenTable } from '../../engine/tokens.js';
import type { Network } from '../../model/request.js';
import { LazyStrings } from '../parquet/fast-strings.js';
import { NULLS_COLUMN, type SwapColumn } from '../parquet/format.js';
import { Doubles, type SentColumns } from '../parquet/column-wire.js';
import type { FileColumn } from '../parquet/row-group.js';
import { isJsonSpace } from './layout.js';
import { decodeText, readRange } from '../files.js';
import { doubleWord, rawToWord } from '../../numeric/double-word.js';

/** Bytes of swaps a block holds, about: some fifteen thousand swaps. */
export const BLOCK_BYTES = 4 << 20;
/**
 * Bytes of the first block, about: the blocks grow four times a block from this to
 * {@link BLOCK_BYTES}, so the replay starts on a few hundred swaps instead of waiting for the
 * first full block to be parsed.
 */
const FIRST_BLOCK_BYTES = 16 << 10;

const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** A run of whole swaps of the array: its text's bytes in the file. */
export interface BlockBytes {
  readonly from: number;
  readonly to: number;
  readonly bytes: Buffer;
}

/**
 * The swaps array's text `[from, to)` of a file cut into blocks of whole swaps, each about
 * {@link BLOCK_BYTES}: cut at a comma between a `}` and a `{`. A cut inside a string or a nested
 * value leaves both blocks unbalanced, which their parse then refuses: a block that parses is
 * exactly its swaps.
 */
export function* swapBlocks(path: string, from: number, to: number, blockBytes = BLOCK_BYTES): Generator<BlockBytes> {
  const fd = openSync(path, 'r');
  try {
    let buffer = Buffer.allocUnsafe(blockBytes);
    let size = Math.min(FIRST_BLOCK_BYTES, blockBytes);
    let start = from;
    let held = 0;
    while (start < to) {
      if (size > buffer.length) {
        // A swap longer than a block: read on into a larger buffer.
        const larger = Buffer.allocUnsafe(size);
        buffer.copy(larger, 0, 0, held);
        buffer = larger;
      }
      const n = readSync(fd, buffer, held, Math.min(size - held, to - start - held), start + held);
      const filled = held + n;
      const last = start + filled >= to || n === 0;
      const cut = last ? filled : lastSeparator(buffer, filled);
      if (cut < 0) {
        held = filled;
        size *= 2;
        continue;
      }
      yield { from: start, to: start + cut, bytes: Buffer.from(buffer.subarray(0, cut)) };
      if (last) return;
      // The separator's comma is in neither block.
      buffer.copy(buffer, 0, cut + 1, filled);
      held = filled - cut - 1;
      start += cut + 1;
      size = Math.max(Math.min(4 * size, blockBytes), held + 1);
    }
  } finally {
    closeSync(fd);
  }
}

/** The last comma of `buffer[0, end)` between a `}` and a `{` (whitespace around it allowed), or -1. */
function lastSeparator(buffer: Buffer, end: number): number {
  for (
    let brace = buffer.lastIndexOf(OPEN_BRACE, end - 1);
    brace > 0;
    brace = buffer.lastIndexOf(OPEN_BRACE, brace - 1)
  ) {
    const comma = separatorBefore(buffer, brace);
    if (comma >= 0) return comma;
  }
  return -1;
}

/** Bytes searched for a separator after a place where the swaps are to be cut. */
const SEPARATOR_WINDOW = 1 << 20;

/**
 * The first comma at or after byte `at` of the file at `path` (before `end`) between a `}` and a
 * `{`, whitespace around it allowed: a place to cut the swaps array, as {@link swapBlocks} cuts
 * it; -1 when there is none in the {@link SEPARATOR_WINDOW} bytes after `at`.
 */
export function nextSeparator(path: string, at: number, end: number): number {
  const fd = openSync(path, 'r');
  try {
    const bytes = readRange(fd, at, Math.min(SEPARATOR_WINDOW, end - at));
    for (let brace = bytes.indexOf(OPEN_BRACE); brace >= 0; brace = bytes.indexOf(OPEN_BRACE, brace + 1)) {
      const comma = separatorBefore(bytes, brace);
      if (comma >= 0) return at + comma;
    }
    return -1;
  } finally {
    closeSync(fd);
  }
}

/** The comma before the `{` at `brace` when a `}` comes before it (whitespace around it allowed), or -1. */
function separatorBefore(buffer: Buffer, brace: number): number {
  let i = brace - 1;
  while (i >= 0 && isJsonSpace(buffer[i])) i--;
  if (buffer[i] !== COMMA) return -1;
  const comma = i;
  i--;
  while (i >= 0 && isJsonSpace(buffer[i])) i--;
  return buffer[i] === CLOSE_BRACE ? comma : -1;
}

/** A block's swaps as columns, or why the file must be read whole instead. */
export type DecodedBlock =
  | {
      readonly rows: number;
      readonly columns: SentColumns;
      /** Each swap's wallet's place in the request's wallets, -1 for a wallet not followed. */
      readonly leaders: Int32Array;
      /** Each swap's token's number (`BlockNumbering`). */
      readonly tokens: Int32Array;
      /** Each swap's `usd_price` as a double word (`rawToWord`): its high part, then its low part. */
      readonly priceWords: Float64Array;
    }
  | { readonly refused: string };

/**
 * What the reading thread looks up for the replay: each swap's wallet among the request's
 * wallets, and its token's number, made by a `TokenTable` as the streaming replay's own makes
 * it (`StreamingReplay.pushNumbered`): in the order first seen, by address key.
 */
export class BlockNumbering {
  private readonly leaders: LeaderLookup;
  private readonly tokens: TokenTable;

  constructor(
    private readonly network: Network,
    wallets: readonly string[],
  ) {
    this.leaders = new LeaderLookup(network, wallets);
    this.tokens = new TokenTable(network, {});
  }

  leader(wallet: string): number {
    return this.leaders.of(wallet);
  }

  token(address: string): number {
    return this.tokens.intern(address);
  }

  /** Each token's address key, by its number. */
  tokenKeys(): string[] {
    return this.tokens.list.map(({ address }) => addressKey(this.network, address));
  }
}

/**
 * Parses a block's swaps and turns them into the columns a row group of the Parquet tape has
 * (its readers and its way between threads are shared): the wallets, tokens and sides as
 * strings, the times, each decimal field as its strings' text or as doubles when every value of
 * the block was a JSON number, and the explicit nulls. Every swap is checked as the whole tape's
 * validation checks it; the transaction hashes, which a simulation never reads, are left out.
 */
export function decodeBlock(
  bytes: Buffer,
  start: number,
  numbering: BlockNumbering,
  market: MarketObservations | null,
): DecodedBlock {
  const text = decodeText(bytes);
  let swaps: unknown;
  try {
    swaps = JSON.parse(`[${text}]`);
  } catch (e) {
    return { refused: `not JSON: ${(e as Error).message}` };
  }
  const list = swaps as unknown[];
  const rows = list.length;
  const wallet = new Array<string>(rows);
  const token = new Array<string>(rows);
  const type = new Array<string>(rows);
  const time = new Float64Array(rows);
  const nulls = new Uint8Array(rows);
  const leaders = new Int32Array(rows);
  const tokens = new Int32Array(rows);
  const priceWords = new Float64Array(2 * rows);
  const quantity = new DecimalColumnBuilder(rows);
  const usdPrice = new DecimalColumnBuilder(rows);
  const usdAmount = new DecimalColumnBuilder(rows);
  const usdLiquidity = new DecimalColumnBuilder(rows);
  for (let i = 0; i < rows; i++) {
    const swap = list[i];
    if (!isValidSwap(swap)) return { refused: `swap ${start + i} is not valid` };
    wallet[i] = swap.wallet;
    token[i] = swap.token;
    type[i] = swap.type;
    time[i] = swap.time;
    quantity.add(i, swap.quantity);
    usdPrice.add(i, swap.usd_price);
    usdAmount.add(i, swap.usd_amount);
    // usd_liquidity may be null (bit 2); a null usd_amount or hash is no valid swap.
    if (swap.usd_liquidity === null) nulls[i] = 2;
    else usdLiquidity.add(i, swap.usd_liquidity);
    leaders[i] = numbering.leader(swap.wallet);
    tokens[i] = numbering.token(swap.token);
    rawToWord(WORD, swap.usd_price);
    priceWords[2 * i] = WORD[0]!;
    priceWords[2 * i + 1] = WORD[1]!;
    market?.add(swap, start + i, tokens[i]!, WORD[0]!);
  }
  const columns: Record<SwapColumn | typeof NULLS_COLUMN, FileColumn | Doubles> = {
    wallet,
    token,
    type,
    time,
    quantity: quantity.column(),
    usd_price: usdPrice.column(),
    usd_amount: usdAmount.column(),
    usd_liquidity: usdLiquidity.column(),
    transaction_hash: new Array<undefined>(rows),
    [NULLS_COLUMN]: nulls,
  };
  return { rows, columns, leaders, tokens, priceWords };
}

/** Where {@link decodeBlock} makes a price's word. */
const WORD = doubleWord();

/**
 * A decimal field's column, a value at a time: its strings as one text and their bounds when no
 * value is a number, the doubles (NaN where missing) when none is a string, else the values as
 * they are.
 */
class DecimalColumnBuilder {
  private readonly parts: string[] = [];
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly doubles: Float64Array;
  private length = 0;
  private strings = 0;
  private numbers = 0;

  constructor(private readonly rows: number) {
    this.starts = new Int32Array(rows).fill(-1);
    this.ends = new Int32Array(rows);
    this.doubles = new Float64Array(rows).fill(Number.NaN);
  }

  /** Row `i`'s value: a string, a number, or missing (undefined). */
  add(i: number, value: string | number | undefined): void {
    if (typeof value === 'string') {
      this.parts.push(value);
      this.starts[i] = this.length;
      this.length += value.length;
      this.ends[i] = this.length;
      this.strings++;
    } else if (value !== undefined) {
      this.doubles[i] = value;
      this.numbers++;
    }
  }

  column(): FileColumn | Doubles {
    if (this.numbers === 0) return new LazyStrings(this.parts.join(''), this.starts, this.ends);
    if (this.strings === 0) return new Doubles(this.doubles);
    const text = this.parts.join('');
    const values = new Array<string | number | undefined>(this.rows);
    for (let i = 0; i < this.rows; i++) {
      const at = this.starts[i]!;
      const number = this.doubles[i]!;
      values[i] = at >= 0 ? text.slice(at, this.ends[i]) : number === number ? number : undefined;
    }
    return values;
  }
}
