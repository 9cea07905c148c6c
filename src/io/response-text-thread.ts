/**
 * The thread that prints a large response's bulk beside the thread that writes the response
 * (response-texts.ts): given the PnL chart's points and the trade rows of every deal, it posts
 * the JSON `JSON.stringify` makes of `cumulative_pnl_and_fee_chart`, then the `trades` arrays of
 * the deals, a batch of deals at a time, from the last batch back to where the writer's meet them.
 * Started from the compiled `dist/` file.
 */
import { POINT_ROW_WIDTH, pointAt, recordAt, TRADE_ROW_WIDTH } from '../engine/trade-row.js';
import { pnlAndFeeChart } from '../report/charts.js';
import { tradeJson } from '../report/trade-json.js';
import type { SimulatedTrade } from '../model/response.js';
import { onReadingStart, postCounted } from './reading-thread.js';
import {
  batchCount,
  CLAIMED,
  TEXTS_BATCH,
  type ResponseTextsReply,
  type ResponseTextsStart,
} from './response-texts.js';

function printResponse(start: ResponseTextsStart): void {
  const { values, offsets, types, largeAbove, points } = start;
  const post = (reply: ResponseTextsReply): void => postCounted(start, reply);
  try {
    const chart = pnlAndFeeChart({
      length: points.length / POINT_ROW_WIDTH,
      get: (i) => pointAt(points, i * POINT_ROW_WIDTH),
    });
    post({ kind: 'chart', text: JSON.stringify(chart) });
    const deals = offsets.length - 1;
    const batches = batchCount(deals);
    const trades: SimulatedTrade[] = [];
    // From the last batch back, each claimed, until the writer's claims from the first meet them.
    for (let batch = batches - 1; Atomics.add(start.signal, CLAIMED, 1) < batches; batch--) {
      const first = batch * TEXTS_BATCH;
      const texts: string[] = [];
      for (let deal = first; deal < Math.min(first + TEXTS_BATCH, deals); deal++) {
        const from = offsets[deal]!;
        const to = offsets[deal + 1]!;
        // A large deal is written piece by piece by the writer itself.
        if (to - from > largeAbove) {
          texts.push('');
          continue;
        }
        trades.length = 0;
        for (let row = from; row < to; row++) trades.push(tradeJson(recordAt(values, row * TRADE_ROW_WIDTH, types)));
        texts.push(JSON.stringify(trades));
      }
      post({ kind: 'texts', first, texts });
    }
  } catch (e) {
    post({ kind: 'failed', reason: (e as Error).message });
  }
}

onReadingStart(printResponse);
