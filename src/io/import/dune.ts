import { InputError } from '../../model/errors.js';
import type { Network } from '../../model/request.js';
import type { ExportTable } from './export-rows.js';
import { text } from './export-rows.js';
import { CHAINS, collector, exportNetwork, need, pick, type ProviderImportOptions } from './provider-options.js';
import { ProviderTimeReader } from './provider-time.js';
import type { TradeCollector, TradeLeg } from './trade-collector.js';
import type { ImportResult } from './types.js';

/** A Postgres bytea address as Dune's legacy tables print it (`\x56…`) in 0x form. */
function address(value: unknown): string {
  const t = text(value);
  return t.startsWith('\\x') ? `0x${t.slice(2)}` : t;
}

type Column = (row: number) => unknown;

/** A row's chain, lower-case: every row of an export repeats the same few, so the last is kept. */
class ChainReader {
  private lastCell: unknown = '';
  private lastChain = '';

  of(cell: unknown): string {
    if (cell !== this.lastCell) {
      this.lastCell = cell;
      this.lastChain = text(cell).toLowerCase();
    }
    return this.lastChain;
  }
}

/** One side of a row's trade; without an address column, the token is named by its symbol. */
function leg(row: number, addressOf: Column, symbolOf: Column, amountOf: Column, hasAddress: boolean): TradeLeg {
  const symbol = text(symbolOf(row)) || null;
  return { address: hasAddress ? address(addressOf(row)) : (symbol ?? ''), symbol, amount: amountOf(row) };
}

/** The columns of a Dune export by what they hold, in either form (see {@link importDune}); undefined when absent. */
interface DuneColumns {
  readonly legacy: boolean;
  readonly wallet: string;
  readonly bought: string | undefined;
  readonly boughtSymbol: string | undefined;
  readonly sold: string | undefined;
  readonly soldSymbol: string | undefined;
  readonly boughtAmount: string;
  readonly soldAmount: string;
  readonly usd: string | undefined;
  readonly hash: string | undefined;
  readonly time: string | undefined;
  /** The columns that order the rows of one second, most significant first. */
  readonly order: readonly string[];
}

/** Columns that order the rows of one second, most significant first, as Dune's tables name them. */
const ORDER_COLUMNS = [
  'block_number',
  'block_slot',
  'tx_index',
  'evt_index',
  'outer_instruction_index',
  'inner_instruction_index',
];

/** The columns of an export, by their names in each form Dune writes; an {@link InputError} naming one missing. */
function duneColumns(c: ReadonlySet<string>, legacy: boolean, file: string): DuneColumns {
  if (!legacy && !pick(c, ['token_bought_amount']) && pick(c, ['token_bought_amount_raw'])) {
    throw new InputError(
      `${file}: only raw amounts (token_bought_amount_raw): without each token's decimals they cannot be turned into ` +
        'token amounts; export token_bought_amount and token_sold_amount (dex.trades has them)',
      { source: file },
    );
  }
  const shared = { legacy, time: pick(c, ['block_time']), order: ORDER_COLUMNS.filter((n) => c.has(n)) };
  if (legacy) {
    return {
      ...shared,
      wallet: need(c, ['trader_a'], 'trader', file),
      bought: pick(c, ['token_a_address']),
      boughtSymbol: need(c, ['token_a_symbol'], 'bought token', file),
      sold: pick(c, ['token_b_address']),
      soldSymbol: need(c, ['token_b_symbol'], 'sold token', file),
      boughtAmount: need(c, ['token_a_amount'], 'bought amount', file),
      soldAmount: need(c, ['token_b_amount'], 'sold amount', file),
      usd: pick(c, ['usd_amount']),
      hash: pick(c, ['tx_hash']),
    };
  }
  return {
    ...shared,
    wallet: need(c, ['taker', 'trader_id', 'user', 'tx_from'], 'trader', file),
    bought: need(c, ['token_bought_address', 'token_bought_mint_address'], 'bought token', file),
    boughtSymbol: pick(c, ['token_bought_symbol']),
    sold: need(c, ['token_sold_address', 'token_sold_mint_address'], 'sold token', file),
    soldSymbol: pick(c, ['token_sold_symbol']),
    boughtAmount: need(c, ['token_bought_amount'], 'bought amount', file),
    soldAmount: need(c, ['token_sold_amount'], 'sold amount', file),
    usd: pick(c, ['amount_usd']),
    hash: pick(c, ['tx_hash', 'tx_id']),
  };
}

/**
 * Imports a Dune export (CSV or the API's JSON) of DEX trades. Recognised column sets:
 * - `dex.trades` today: `block_time`, `taker` (else `tx_from`), `token_bought_address`,
 *   `token_sold_address`, `token_bought_amount`, `token_sold_amount`, `amount_usd`, `tx_hash`;
 * - `dex_solana.trades`: `trader_id`, `token_bought_mint_address`, `token_sold_mint_address`, `tx_id`;
 * - the `bot_trades` seeds: `user` as the trader, `tx_id` or `tx_hash`;
 * - the legacy `dex.trades` (`token_a_symbol`, `token_b_symbol`, `token_a_amount`,
 *   `token_b_amount`, `usd_amount`, `trader_a`): token_a is what trader_a bought. It has no token
 *   addresses, so tokens are named by symbol (two tokens sharing a symbol merge), no transaction
 *   hash, and a trade routed through an aggregator appears once per layer: rows of category
 *   `Aggregator` are dropped as repeats of their DEX row.
 * Times in Dune's `2024-03-10 10:00:00.000 UTC` form or ISO. Rows of a chain other than the
 * network's are dropped. Raw amounts alone (`token_bought_amount_raw`) cannot be scaled
 * without the tokens' decimals: such a file is an error.
 *
 * @example
 * const { tape, report } = importDune(readExportTable(csvText, 'trades.csv'), 'trades.csv', { nativeUsd });
 */
export function importDune(table: ExportTable, file: string, options: ProviderImportOptions = {}): ImportResult {
  const c = table.columns;
  const legacy = c.has('token_a_symbol') || c.has('trader_a');
  const network = exportNetwork(table, options, file, legacy ? 'eth' : undefined);
  const col = duneColumns(c, legacy, file);
  const bySymbol = legacy && col.bought === undefined;
  // Rows are named by number, put into words only for the report's few examples.
  const trades = collector(network, options, bySymbol, (row) => table.where(row));
  const aggregatorRows = addRows(table, col, network, trades);
  if (!legacy) return trades.finish('dune', file);
  const symbolsOnly = bySymbol ? 'no token addresses, tokens are named by their symbol; ' : '';
  const noHashes = col.hash ? '' : 'no transaction hashes; ';
  const note = `legacy dex.trades form: ${symbolsOnly}${noHashes}${aggregatorRows} aggregator rows dropped as repeats`;
  return trades.finish('dune', file, [note]);
}

/**
 * Gives `trades` each row of the table, or drops it (a chain not the network's, a legacy
 * aggregator row, a time Dune does not write); the count of aggregator rows dropped.
 */
function addRows(table: ExportTable, col: DuneColumns, network: Network, trades: TradeCollector): number {
  const read = (name: string | undefined): Column => (name === undefined ? () => undefined : table.column(name));
  const cell = {
    chain: read('blockchain'),
    category: read('category'),
    time: read(col.time),
    wallet: read(col.wallet),
    bought: read(col.bought),
    boughtSymbol: read(col.boughtSymbol),
    boughtAmount: read(col.boughtAmount),
    sold: read(col.sold),
    soldSymbol: read(col.soldSymbol),
    soldAmount: read(col.soldAmount),
    usd: read(col.usd),
    hash: read(col.hash),
    order: col.order.map(read),
  };
  const chains = new ChainReader();
  const times = new ProviderTimeReader();
  let aggregatorRows = 0;
  table.forEachRow((index) => {
    const chain = chains.of(cell.chain(index));
    if (chain && CHAINS[chain] !== network) {
      trades.drop(`blockchain "${chain}" is not the tape's network (${network})`, index);
      return;
    }
    if (col.legacy && text(cell.category(index)) === 'Aggregator') {
      aggregatorRows++;
      trades.drop('aggregator row: the same trade appears again as its DEX row', index);
      return;
    }
    const written = cell.time(index);
    const at = col.time ? times.read(written) : null;
    if (col.time && at === null && text(written) !== '') {
      trades.drop(`block_time "${text(written)}" is not a time Dune writes`, index);
      return;
    }
    const seq: number[] = [];
    for (const orderOf of cell.order) seq.push(Number(text(orderOf(index))) || 0);
    seq.push(index);
    const hash = col.hash ? address(cell.hash(index)) || null : null;
    trades.add({
      wallet: address(cell.wallet(index)),
      bought: leg(index, cell.bought, cell.boughtSymbol, cell.boughtAmount, col.bought !== undefined),
      sold: leg(index, cell.sold, cell.soldSymbol, cell.soldAmount, col.sold !== undefined),
      time: at,
      usd: col.usd ? cell.usd(index) : null,
      hash,
      seq,
      where: index,
    });
  });
  return aggregatorRows;
}
