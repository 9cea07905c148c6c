import { InputError } from '../../model/errors.js';
import type { Network } from '../../model/request.js';
import { text, type ExportTable } from './export-rows.js';
import type { PriceSeries } from './prices.js';
import { optionName } from './option-names.js';
import { QuoteAssets, type QuoteAsset } from './quote-assets.js';
import { TradeCollector } from './trade-collector.js';

export interface ProviderImportOptions {
  /** The network, when the export has no `blockchain` column (or to keep one chain of several). */
  readonly network?: Network;
  /** Replaces the network's quote assets. */
  readonly quoteAssets?: readonly QuoteAsset[];
  /** SOL/USD series: USD values of trades paid in SOL that the export gives none. */
  readonly solUsd?: PriceSeries;
  /** ETH/USD series: the same for trades paid in ETH. */
  readonly ethUsd?: PriceSeries;
  readonly outlierFactor?: number;
  /** The time (seconds) given to rows of an export that has none; unset drops them. */
  readonly assumeTime?: number;
}

export const CHAINS: Record<string, Network> = { solana: 'sol', ethereum: 'eth' };

/** The first of `names` that the table has. */
export function pick(columns: ReadonlySet<string>, names: readonly string[]): string | undefined {
  return names.find((n) => columns.has(n));
}

/** The column of `names` the table must have; an {@link InputError} naming them and the file's columns otherwise. */
export function need(columns: ReadonlySet<string>, names: readonly string[], what: string, file: string): string {
  const found = pick(columns, names);
  if (found === undefined) {
    throw new InputError(
      `${file}: no ${what} column (${names.join(' or ')}); the file has ${[...columns].join(', ')}`,
      { source: file },
    );
  }
  return found;
}

/** The network of an export: the `network` option, else its first row's `blockchain`. */
export function exportNetwork(
  table: ExportTable,
  options: ProviderImportOptions,
  file: string,
  fallback?: Network,
): Network {
  if (options.network) return options.network;
  const chain = text(table.first('blockchain')).toLowerCase();
  const network = CHAINS[chain] ?? fallback;
  if (network === undefined) {
    const which = chain ? `blockchain "${chain}"` : 'no blockchain column';
    const network = optionName('network');
    const pass = `pass ${network} sol or ${network} eth`;
    throw new InputError(`${file}: cannot tell the network (${which}): ${pass}`, { source: file });
  }
  return network;
}

/** The trade collector of an import on `network` with these options. */
/** `placeOf` names a row the importer gives by its number (see `RowPlace`). */
export function collector(
  network: Network,
  options: ProviderImportOptions,
  bySymbol = false,
  placeOf?: (row: number) => string,
): TradeCollector {
  const nativeUsd = network === 'sol' ? options.solUsd : options.ethUsd;
  return new TradeCollector({
    network,
    quotes: new QuoteAssets(network, options.quoteAssets),
    bySymbol,
    ...(nativeUsd ? { nativeUsd } : {}),
    ...(options.outlierFactor !== undefined ? { outlierFactor: options.outlierFactor } : {}),
    ...(options.assumeTime !== undefined ? { assumeTime: options.assumeTime } : {}),
    ...(placeOf !== undefined ? { placeOf } : {}),
  });
}
