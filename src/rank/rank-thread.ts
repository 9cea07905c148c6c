/**
 * A helper thread of a local rank (`RankHelpers`, helpers.ts): it reads and indexes the tape
 * itself as soon as it starts, while the command's thread reads it too (or, when the rows are made
 * in double words, reads no tape and copies from the rows of swaps the command's thread shares),
 * then copies (or screens) the groups of wallets it takes from the counter it shares with the
 * command's thread, posting each group's rows (or screened figures). Started from the compiled
 * `dist/` file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { IndexedTape } from '../engine/tape-index.js';
import { readTapeFile } from '../io/read-tape.js';
import { prepare } from '../simulate.js';
import { NativePriceSeries } from '../engine/native-prices.js';
import { takeGroups, type HelperOrder, type HelperReply, type HelperStart, type WordOrder } from './helpers.js';
import { copyWallets, rankContext, wordResultsOf, type Candidate, type RankedWallet, type WordResult } from './rank.js';
import { WordCopy } from './word-copy.js';
import { SwapRows } from './word-rows.js';
import { packBounds, WalletScreen } from './screen.js';
import { takeParts, type TapePlan } from './tape-rows.js';

function read(start: HelperStart): IndexedTape | Error {
  try {
    return readTapeFile(start.tapePath, start.tapeHeader);
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

/** Takes parts of the tape to read as rows and posts each, its arrays moved, not copied. */
function postParts(plan: TapePlan, helper: number, post: (reply: HelperReply, transfer: ArrayBuffer[]) => void): void {
  takeParts(plan, helper, (part, reading) => {
    const transfer =
      'refused' in reading ? [] : [reading.rows.buffer as ArrayBuffer, reading.wallets.buffer as ArrayBuffer];
    post({ part, reading }, transfer);
  });
}

/** A group's result: its rows, or its rows in double words (null where not decided there). */
type GroupResult = { readonly rows: RankedWallet[] } | { readonly words: (WordResult | null)[] };

/**
 * The groups of an order taken from the shared counter, each copied by `copyGroup` or screened by
 * the screen `screen` makes (made once, when the first group is taken), its result posted.
 */
function serve(
  order: HelperOrder,
  helper: number,
  post: (reply: HelperReply) => void,
  copyGroup: (candidates: readonly Candidate[]) => GroupResult,
  screen: () => WalletScreen,
): void {
  const task = order.task;
  if (task.kind === 'copy') {
    takeGroups(order, helper, (group, candidates) => post({ order: order.id, group, ...copyGroup(candidates) }));
    return;
  }
  let made: WalletScreen | null = null;
  takeGroups(order, helper, (group, candidates) => {
    made ??= screen();
    post({ order: order.id, group, bounds: packBounds(made.bounds(candidates, task.metric)) });
  });
}

/** The groups of an order copied (or screened) in double words, from the rows the order shares. */
function copyInWords(words: WordOrder, helper: number, order: HelperOrder, post: (reply: HelperReply) => void): void {
  const { parsed, engineOptions } = prepare(order.settings.request, order.settings.engineOptions);
  const copy = new WordCopy({
    request: parsed,
    engineOptions,
    network: words.network,
    native: new NativePriceSeries(words.nativePrices),
    swaps: new SwapRows(words.rows),
  });
  serve(
    order,
    helper,
    post,
    (candidates) => ({ words: wordResultsOf(copy, candidates) }),
    () => new WalletScreen(copy),
  );
}

/** The groups of an order copied (or screened) from the tape this helper read. */
function copy(tape: IndexedTape, helper: number, order: HelperOrder, post: (reply: HelperReply) => void): void {
  if (tape.swaps.length !== order.swaps) throw new Error('the tape file changed while the rank read it');
  const { parsed, engineOptions } = prepare(order.settings.request, order.settings.engineOptions);
  const context = rankContext(tape, parsed, engineOptions);
  serve(
    order,
    helper,
    post,
    (candidates) => ({ rows: copyWallets(context, candidates, undefined, order.walletsAWalk) }),
    () => new WalletScreen(context),
  );
}

if (parentPort !== null) {
  const port = parentPort;
  const start = workerData as HelperStart;
  if (start.parts !== undefined) postParts(start.parts, start.helper, (reply, moved) => port.postMessage(reply, moved));
  const tape = start.readTape ? read(start) : null;
  port.postMessage({ read: true } satisfies HelperReply);
  port.on('message', (order: HelperOrder) => {
    try {
      const post = (reply: HelperReply): void => port.postMessage(reply);
      if (order.words !== undefined) copyInWords(order.words, start.helper, order, post);
      else if (tape === null) throw new Error('the helper read no tape, and the order shares no rows');
      else if (tape instanceof Error) throw tape;
      else copy(tape, start.helper, order, post);
      port.postMessage({ order: order.id, done: true } satisfies HelperReply);
    } catch (e) {
      port.postMessage({ order: order.id, error: e instanceof Error ? e.message : String(e) } satisfies HelperReply);
    }
  });
}
