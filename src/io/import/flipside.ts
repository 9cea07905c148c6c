import type { ExportTable } from './export-rows.js';
import { text } from './export-rows.js';
import { collector, exportNetwork, need, pick, type ProviderImportOptions } from './provider-options.js';
import { ProviderTimeReader } from './provider-time.js';
import { usdCell } from './trade-collector.js';
import type { ImportResult } from './types.js';

/**
 * Imports a Flipside export (CSV or JSON rows) of swaps. Recognised column sets:
 * - `ez_dex_swaps` on EVM chains: `block_timestamp`, `origin_from_address` (the trader; else
 *   `sender`), `token_in`, `amount_in`, `token_out`, `amount_out`, `amount_in_usd` /
 *   `amount_out_usd`, `tx_hash`, `event_index`;
 * - `ez_dex_swaps` on Solana: `block_timestamp`, `swapper`, `swap_from_mint`,
 *   `swap_from_amount`, `swap_to_mint`, `swap_to_amount`, `swap_from_amount_usd` /
 *   `swap_to_amount_usd`, `tx_id`;
 * - the `fact_swaps` seeds: `swapper`, `from_mint`, `from_amt` or `from_amount`, `to_mint`,
 *   `to_amt` or `to_amount`, `tx_id`, `succeeded`, and no time nor USD value.
 * "In" / "from" is what the trader sold. Rows with `succeeded` false are dropped. The network is
 * `blockchain` when the export has it, else the `network` option, else Solana for the mint
 * column sets.
 *
 * @example
 * const { tape, report } = importFlipside(readExportTable(csvText, 'swaps.csv'), 'swaps.csv', { nativeUsd });
 */
export function importFlipside(table: ExportTable, file: string, options: ProviderImportOptions = {}): ImportResult {
  const c = table.columns;
  const evm = c.has('token_in') || c.has('amount_in');
  const network = exportNetwork(table, options, file, evm ? 'eth' : 'sol');
  const col = evm
    ? {
        wallet: need(c, ['origin_from_address', 'sender', 'tx_to'], 'trader', file),
        sold: need(c, ['token_in'], 'sold token', file),
        soldSymbol: pick(c, ['symbol_in']),
        soldAmount: need(c, ['amount_in'], 'sold amount', file),
        soldUsd: pick(c, ['amount_in_usd']),
        bought: need(c, ['token_out'], 'bought token', file),
        boughtSymbol: pick(c, ['symbol_out']),
        boughtAmount: need(c, ['amount_out'], 'bought amount', file),
        boughtUsd: pick(c, ['amount_out_usd']),
        hash: pick(c, ['tx_hash']),
      }
    : {
        wallet: need(c, ['swapper'], 'trader', file),
        sold: need(c, ['swap_from_mint', 'from_mint'], 'sold token', file),
        soldSymbol: pick(c, ['swap_from_symbol']),
        soldAmount: need(c, ['swap_from_amount', 'from_amt', 'from_amount'], 'sold amount', file),
        soldUsd: pick(c, ['swap_from_amount_usd']),
        bought: need(c, ['swap_to_mint', 'to_mint'], 'bought token', file),
        boughtSymbol: pick(c, ['swap_to_symbol']),
        boughtAmount: need(c, ['swap_to_amount', 'to_amt', 'to_amount'], 'bought amount', file),
        boughtUsd: pick(c, ['swap_to_amount_usd']),
        hash: pick(c, ['tx_id']),
      };
  const time = pick(c, ['block_timestamp']);
  const order = ['block_number', 'block_id', 'event_index', 'index', 'swap_index', 'inner_index'].filter((n) =>
    c.has(n),
  );
  const trades = collector(network, options, false, (row) => table.where(row));
  const times = new ProviderTimeReader();
  const read = (name: string | undefined): ((row: number) => unknown) =>
    name === undefined ? () => undefined : table.column(name);
  const cell = {
    succeeded: read('succeeded'),
    time: read(time),
    wallet: read(col.wallet),
    sold: read(col.sold),
    soldSymbol: read(col.soldSymbol),
    soldAmount: read(col.soldAmount),
    soldUsd: read(col.soldUsd),
    bought: read(col.bought),
    boughtSymbol: read(col.boughtSymbol),
    boughtAmount: read(col.boughtAmount),
    boughtUsd: read(col.boughtUsd),
    hash: read(col.hash),
    order: order.map(read),
  };
  table.forEachRow((index) => {
    if (c.has('succeeded') && /^(false|0)$/i.test(text(cell.succeeded(index)))) {
      trades.drop('failed transaction (succeeded is false)', index);
      return;
    }
    const written = cell.time(index);
    const at = time ? times.read(written) : null;
    if (time && at === null && text(written) !== '') {
      trades.drop(`block_timestamp "${text(written)}" is not a time`, index);
      return;
    }
    // Either leg's USD value is the trade's; the quote leg's is the truer one, but both are the export's.
    const usd =
      (col.soldUsd ? usdCell(cell.soldUsd(index)) : null) ?? (col.boughtUsd ? usdCell(cell.boughtUsd(index)) : null);
    const seq: number[] = [];
    for (const orderOf of cell.order) seq.push(Number(text(orderOf(index))) || 0);
    seq.push(index);
    trades.add({
      wallet: text(cell.wallet(index)),
      sold: {
        address: text(cell.sold(index)),
        symbol: col.soldSymbol ? text(cell.soldSymbol(index)) || null : null,
        amount: cell.soldAmount(index),
      },
      bought: {
        address: text(cell.bought(index)),
        symbol: col.boughtSymbol ? text(cell.boughtSymbol(index)) || null : null,
        amount: cell.boughtAmount(index),
      },
      time: at,
      usd,
      hash: col.hash ? text(cell.hash(index)) || null : null,
      seq,
      where: index,
    });
  });
  return trades.finish(
    'flipside',
    file,
    time ? [] : ['the export has no time column (block_timestamp): no row can be placed in time'],
  );
}
