/**
 * The thread that reads a JSON tape's swaps beside the replay (blocks-ahead.ts): it cuts the
 * swaps array into blocks, parses and checks each, gathers the market's price observations, and
 * posts the block's columns, at most {@link AHEAD} ahead of the replay. Started from the
 * compiled `dist/` file.
 */
import { MarketObservations } from '../../diagnose/market-prices.js';
import { ColumnsSender } from '../parquet/column-wire.js';
import { AHEAD, type BlocksReply, type BlocksStart } from './blocks-ahead.js';
import { onReadingStart, postCounted, TAKEN } from '../reading-thread.js';
import { BlockNumbering, decodeBlock, swapBlocks } from './blocks.js';

function readBlocks(start: BlocksStart): void {
  const { port, signal } = start;
  let posted = 0;
  const post = (reply: BlocksReply, transfer?: ArrayBuffer[]): void => {
    postCounted(start, reply, transfer);
    posted++;
  };
  try {
    const market = start.least === null ? null : new MarketObservations(start.least);
    const numbering = new BlockNumbering(start.network, start.wallets);
    const sender = new ColumnsSender();
    let swaps = 0;
    for (const block of swapBlocks(start.path, start.from, start.to)) {
      for (let taken = Atomics.load(signal, TAKEN); posted - taken >= AHEAD; taken = Atomics.load(signal, TAKEN)) {
        Atomics.wait(signal, TAKEN, taken);
      }
      const decoded = decodeBlock(block.bytes, swaps, numbering, market);
      if ('refused' in decoded) {
        post({ kind: 'refused', reason: decoded.refused });
        return;
      }
      const { rows, leaders, tokens, priceWords } = decoded;
      const wire = sender.wire(decoded.columns);
      post(
        {
          kind: 'block',
          start: swaps,
          rows,
          from: block.from,
          to: block.to,
          columns: wire.columns,
          leaders,
          tokens,
          priceWords,
        },
        [
          ...wire.transfer,
          leaders.buffer as ArrayBuffer,
          tokens.buffer as ArrayBuffer,
          priceWords.buffer as ArrayBuffer,
        ],
      );
      swaps += decoded.rows;
    }
    const byToken = market?.byToken(numbering.tokenKeys()) ?? null;
    const buffers = byToken === null ? [] : [byToken.start, byToken.swaps, byToken.times, byToken.prices];
    post(
      { kind: 'end', market: byToken },
      buffers.map((column) => column.buffer as ArrayBuffer),
    );
  } catch (e) {
    post({ kind: 'refused', reason: (e as Error).message });
  } finally {
    port.close();
  }
}

onReadingStart(readBlocks);
