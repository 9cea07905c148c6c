/**
 * The thread that prints a response's trades beside the thread that writes the response
 * (trade-texts.ts): given the trade rows of every deal, it posts the `trades` array of each deal
 * as the JSON `JSON.stringify` makes of it, a batch of deals at a time. Started from the
 * compiled `dist/` file; it loads the trade rows' layout and the trade's JSON shape alone.
 */
import { TRADE_ROW_WIDTH, recordAt } from '../engine/trade-row.js';
import { tradeJson } from '../report/trade-json.js';
import type { SimulatedTrade } from '../model/response.js';
import { onReadingStart, postCounted } from './reading-thread.js';
import type { TradeTextsReply, TradeTextsStart } from './trade-texts.js';

/** Deals whose texts go in one message. */
const BATCH = 256;

function printTrades(start: TradeTextsStart): void {
  const { values, offsets, types, largeAbove } = start;
  const post = (reply: TradeTextsReply): void => postCounted(start, reply);
  try {
    let texts: string[] = [];
    const trades: SimulatedTrade[] = [];
    for (let deal = 0; deal + 1 < offsets.length; deal++) {
      const from = offsets[deal]!;
      const to = offsets[deal + 1]!;
      if (to - from > largeAbove) continue; // written piece by piece by the writer itself
      trades.length = 0;
      for (let row = from; row < to; row++) trades.push(tradeJson(recordAt(values, row * TRADE_ROW_WIDTH, types)));
      texts.push(JSON.stringify(trades));
      if (texts.length === BATCH) {
        post({ kind: 'texts', texts });
        texts = [];
      }
    }
    post({ kind: 'texts', texts });
  } catch (e) {
    post({ kind: 'failed', reason: (e as Error).message });
  }
}

onReadingStart(printTrades);
