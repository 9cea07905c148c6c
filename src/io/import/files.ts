import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { InputError } from '../../model/errors.js';
import type { Network, SimulatorRequestInput } from '../../model/request.js';
import type { TapeInput } from '../../model/tape.js';
import { parseJsonText, readText } from '../files.js';
import { writeTape } from '../convert-tape.js';
import { importCsv, type CsvColumns, type CsvImportOptions } from './csv.js';
import { parsePriceSeries } from './prices.js';
import { importPumpSwap } from './pumpswap.js';
import type { ImportResult } from './types.js';
import { importUniswap, type UniswapImportOptions } from './uniswap.js';
import { parsePoolInfo } from './uniswap-pools.js';

/** Reads a price series file (see `parsePriceSeries` for the forms). */
export function readPriceSeriesFile(path: string) {
  return parsePriceSeries(readText(path, 'price series'), path);
}

export interface UniswapFileOptions extends Omit<UniswapImportOptions, 'ethUsd'> {
  /** Pool info: pool_info.csv or the subgraph's pairs JSON. */
  readonly pools: string;
  /** ETH/USD series file (Yahoo daily CSV, GeckoTerminal JSON, or unix/price lines). */
  readonly ethUsd?: string;
}

/**
 * Imports Uniswap subgraph swap files, each named by its pool's address (`0x….json`) and holding
 * `{"swaps": [...]}` or a bare list.
 *
 * @example
 * importUniswapFiles(['sample_data/uniswap_v3/0x3796….json'], { pools: 'pool_info.csv' });
 */
export function importUniswapFiles(paths: readonly string[], options: UniswapFileOptions): ImportResult {
  const pools = parsePoolInfo(readText(options.pools, 'pool info'), options.pools);
  const inputs = paths.map((path) => {
    const json = parseJsonText(readText(path, 'swaps'), path, 'swaps');
    const swaps = Array.isArray(json) ? json : (json as { swaps?: unknown }).swaps;
    if (!Array.isArray(swaps))
      throw new InputError(`${path}: expected {"swaps": [...]} or a list of Swap entities`, { source: path });
    return { pool: basename(path).replace(/\.json$/i, ''), swaps, source: basename(path) };
  });
  const { ethUsd, pools: _pools, ...rest } = options;
  return importUniswap(inputs, pools, { ...rest, ...(ethUsd ? { ethUsd: readPriceSeriesFile(ethUsd) } : {}) });
}

/**
 * Imports the PumpSwap capture (JSON lines) with its SOL/USD series file.
 *
 * @example
 * importPumpSwapFile('floor_capture_sample.jsonl', { solUsd: 'sol_usd_hourly.json' });
 */
export function importPumpSwapFile(path: string, options: { solUsd: string; outlierFactor?: number }): ImportResult {
  const lines = readText(path, 'capture').split('\n');
  return importPumpSwap(
    lines,
    readPriceSeriesFile(options.solUsd),
    options.outlierFactor === undefined ? {} : { outlierFactor: options.outlierFactor },
  );
}

export interface CsvFileOptions extends Omit<CsvImportOptions, 'nativePrices' | 'network' | 'columns'> {
  readonly network: Network;
  readonly columns: CsvColumns;
  /** Native coin USD series file. */
  readonly nativePrices?: string;
}

/**
 * Imports a CSV export with a column mapping.
 *
 * @example
 * importCsvFile('trades.csv', { network: 'sol', columns: parseColumnMapping('wallet=trader,…') });
 */
export function importCsvFile(path: string, options: CsvFileOptions): ImportResult {
  const { nativePrices, ...rest } = options;
  return importCsv(
    readText(path, 'csv'),
    { ...rest, ...(nativePrices ? { nativePrices: readPriceSeriesFile(nativePrices) } : {}) },
    basename(path),
  );
}

/**
 * Writes a tape in the form its name says: Parquet (`.parquet`), JSONL (`.jsonl`), else JSON
 * with one swap a line (readable, and diffs well). Each form is written as it goes, never as
 * one string, so a tape of any size can be written (see {@link writeTape}).
 */
export function writeTapeFile(path: string, tape: TapeInput): void {
  writeTape(path, tape);
}

/** Writes a simulator request as indented JSON. */
export function writeRequestFile(path: string, request: SimulatorRequestInput): void {
  writeFileSync(path, `${JSON.stringify(request, null, 2)}\n`);
}
