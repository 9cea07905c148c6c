import { constants } from 'node:buffer';
import { closeSync, openSync } from 'node:fs';
import { StreamedMarket, type MarketPrices } from '../../diagnose/market-prices.js';
import { StreamingReplay } from '../../engine/stream.js';
import { InputError } from '../../model/errors.js';
import type { EngineOptionsInput } from '../../model/options.js';
import { parseTapeHeader, type Swap, type TapeHeader } from '../../model/tape.js';
import { responseParts, type ResponseParts } from '../../report/response.js';
import { checkNetwork, prepare, simulateParts } from '../../simulate.js';
import { readTapeFile } from '../read-tape.js';
import type { ByteProgress } from '../jsonl-tape.js';
import { replayNumberedRow, type SwapWatcher } from '../group-replay.js';
import { jsonBlocksAhead, NotStreamable, type JsonBlock } from './blocks-ahead.js';
import { readJsonTapeLayout } from './layout.js';
import { readRange } from '../files.js';

/**
 * Simulates a request over a JSON tape file: streamed as {@link simulateJsonFileStreamed} does
 * when its swaps are in time order (a sixth to a third quicker on tapes of a million swaps, in
 * about half the memory), read whole otherwise. The same response either way, as `simulate` gives over the tape.
 *
 * @example
 * writeResponseParts(simulateJsonFileParts('tape.json', request), (text) => process.stdout.write(text));
 */
export function simulateJsonFileParts(path: string, request: unknown, options: EngineOptionsInput = {}): ResponseParts {
  const streamed = simulateJsonFileStreamed(path, request, options);
  // As the streamed replay, the copier's points kept for a report.
  return streamed?.parts ?? simulateParts(readTapeFile(path), request, options, { copierPoints: true });
}

/**
 * The largest JSON tape whose market is gathered as it streams by: the largest the whole reading
 * takes (a string of `MAX_STRING_LENGTH` characters). A larger tape, which streams only, checks
 * no trade against the market, as a JSONL or Parquet stream does not: its price observations
 * would take about 80 bytes a swap (760 MB more at the peak of a 10M-swap tape).
 */
export const MARKET_UP_TO_BYTES = constants.MAX_STRING_LENGTH;

/** A JSON tape simulated as it streamed by: the response, and the market its trades are checked against. */
export interface StreamedJsonRun {
  readonly parts: ResponseParts;
  /** Null for a tape larger than {@link MARKET_UP_TO_BYTES}. */
  readonly market: MarketPrices | null;
}

/**
 * Simulates a request over a JSON tape file whose swaps are in time order, as a stream: a
 * thread of its own reads, parses and checks the swaps array a block at a time while this one
 * replays them (`jsonBlocksAhead`), so parsing the tape and replaying it overlap, and the tape
 * is never held whole. Gives the response `simulate` gives over the same tape read whole, with
 * the market's price observations for the warnings' check of the trades (up to
 * {@link MARKET_UP_TO_BYTES}).
 *
 * Null when the file cannot be streamed so: its swaps array is not the top-level object's last
 * member, a swap is out of time order or not valid, the header or the network is refused, or no
 * thread can be started. The caller then reads the file whole (`readTapeFile`), which names any
 * error; nothing of a refused stream is kept.
 */
export function simulateJsonFileStreamed(
  path: string,
  request: unknown,
  options: EngineOptionsInput = {},
  onProgress?: ByteProgress,
  onSwap?: SwapWatcher,
  /** Tapes up to this size gather their market ({@link MARKET_UP_TO_BYTES}). */
  marketUpTo = MARKET_UP_TO_BYTES,
): StreamedJsonRun | null {
  const layout = readJsonTapeLayout(path);
  if (layout === null) return null;
  let prepared: ReturnType<typeof prepare>;
  let header: TapeHeader;
  try {
    // Refused options too: the whole reading names the tape's own errors first.
    prepared = prepare(request, options);
    header = parseTapeHeader(layout.header);
    checkNetwork(header.network, prepared.parsed.network);
  } catch (e) {
    if (e instanceof InputError) return null;
    throw e;
  }
  const { parsed, engineOptions } = prepared;
  const stream = new StreamingReplay(header, parsed, engineOptions);
  const least = layout.size <= marketUpTo ? Number(engineOptions.min_price_swap_usd) : null;
  const blocks = jsonBlocksAhead(path, layout, header.network, parsed.wallets, least);
  /** Each block's first swap and bytes, to read a swap again. */
  const read: BlockPlace[] = [];
  try {
    for (let next = blocks.next(); ; next = blocks.next()) {
      if (next.done === true) {
        const { result, tokens } = stream.finish();
        const byToken = next.value;
        const market =
          byToken === null ? null : new StreamedMarket(header.network, byToken, (index) => swapOf(path, read, index));
        return { parts: responseParts(result, tokens), market };
      }
      replayBlock(stream, next.value, onSwap);
      read.push({ start: next.value.start, from: next.value.from, to: next.value.to });
      onProgress?.(next.value.to - layout.bodyStart, layout.bodyEnd - layout.bodyStart);
    }
  } catch (e) {
    // Out of time order (the replay's check), or refused by the reading thread.
    if (e instanceof InputError || e instanceof NotStreamable) return null;
    throw e;
  } finally {
    blocks.return(undefined as never);
  }
}

/**
 * Feeds a block to the replay, each swap's leader and token number as the reading thread looked
 * them up: a followed wallet's swap whole, any other as the price tick the replay reads of it
 * (whole when a `min_price_swap_usd` reads its amount). Every swap was checked by that thread.
 */
function replayBlock(stream: StreamingReplay, block: JsonBlock, onSwap: SwapWatcher | undefined): void {
  const { leaders, tokens } = block;
  for (let i = 0; i < block.rows; i++) replayNumberedRow(stream, block, i, leaders[i]!, tokens[i]!, onSwap);
}

/** Where a block lies: the index of its first swap, and its bytes in the file. */
interface BlockPlace {
  readonly start: number;
  readonly from: number;
  readonly to: number;
}

/** The tape's swap `index`, parsed again from its block of the file. */
function swapOf(path: string, blocks: readonly BlockPlace[], index: number): Swap {
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (blocks[mid]!.start <= index) lo = mid;
    else hi = mid - 1;
  }
  const block = blocks[lo]!;
  const fd = openSync(path, 'r');
  try {
    const text = readRange(fd, block.from, block.to - block.from).toString('utf8');
    return (JSON.parse(`[${text}]`) as Swap[])[index - block.start]!;
  } finally {
    closeSync(fd);
  }
}
