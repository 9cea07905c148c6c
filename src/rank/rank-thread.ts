/**
 * A helper thread of a local rank (`RankHelpers`, helpers.ts): it reads and indexes the tape
 * itself as soon as it starts, while the command's thread reads it too, then copies (or screens)
 * the groups of wallets it takes from the counter it shares with the command's thread, posting
 * each group's rows (or screened figures). Started from the compiled `dist/` file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { IndexedTape } from '../engine/tape-index.js';
import { readTapeFile } from '../io/read-tape.js';
import { prepare } from '../simulate.js';
import { takeGroups, type HelperOrder, type HelperReply, type HelperStart } from './helpers.js';
import { copyWallets, rankContext } from './rank.js';
import { packBounds, WalletScreen } from './screen.js';

function read(start: HelperStart): IndexedTape | Error {
  try {
    return readTapeFile(start.tapePath, start.tapeHeader);
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

function copy(tape: IndexedTape, helper: number, order: HelperOrder, post: (reply: HelperReply) => void): void {
  if (tape.swaps.length !== order.swaps) throw new Error('the tape file changed while the rank read it');
  const { parsed, engineOptions } = prepare(order.settings.request, order.settings.engineOptions);
  const context = rankContext(tape, parsed, engineOptions);
  const task = order.task;
  if (task.kind === 'copy') {
    takeGroups(order, helper, (group, candidates) =>
      post({ order: order.id, group, rows: copyWallets(context, candidates, undefined, order.walletsAWalk) }),
    );
    return;
  }
  let screen: WalletScreen | null = null; // its rows made once, for every group taken
  takeGroups(order, helper, (group, candidates) => {
    screen ??= new WalletScreen(context);
    post({ order: order.id, group, bounds: packBounds(screen.bounds(candidates, task.metric)) });
  });
}

if (parentPort !== null) {
  const port = parentPort;
  const start = workerData as HelperStart;
  const tape = read(start);
  port.postMessage({ read: true } satisfies HelperReply);
  port.on('message', (order: HelperOrder) => {
    try {
      if (tape instanceof Error) throw tape;
      copy(tape, start.helper, order, (reply) => port.postMessage(reply));
      port.postMessage({ order: order.id, done: true } satisfies HelperReply);
    } catch (e) {
      port.postMessage({ order: order.id, error: e instanceof Error ? e.message : String(e) } satisfies HelperReply);
    }
  });
}
