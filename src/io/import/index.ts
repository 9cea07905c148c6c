// Public exports of the import layer: real swap data (Uniswap subgraph, PumpSwap capture, CSV)
// turned into tapes, with a report of what was dropped and why.
export { importUniswap, type ImportResult, type UniswapImportOptions, type UniswapPoolSwaps } from './uniswap.js';
export { parsePoolInfo, tradedSide, WETH, type UniswapPool, type PoolToken } from './uniswap-pools.js';
export { importPumpSwap, type PumpSwapImportOptions } from './pumpswap.js';
export { importCsv, parseColumnMapping, CSV_FIELDS, type CsvColumns, type CsvField, type CsvImportOptions } from './csv.js';
export { parsePriceSeries, priceAt, type PriceSeries } from './prices.js';
export { formatImportReport, type ImportReport, type DroppedRows } from './report.js';
export {
  summarizeTape,
  formatTapeSummary,
  roundTrips,
  topRoundTripWallets,
  suggestRequest,
  type TapeSummary,
} from './tape-summary.js';
export {
  importUniswapFiles,
  importPumpSwapFile,
  importCsvFile,
  readPriceSeriesFile,
  writeTapeFile,
  writeRequestFile,
  type UniswapFileOptions,
  type CsvFileOptions,
} from './files.js';
