// Public exports of the import layer: real swap data (provider exports, Uniswap subgraph, PumpSwap capture, CSV)
// turned into tapes, with a report of what was dropped and why.
export type { ImportResult } from './types.js';
export { importUniswap, type UniswapImportOptions, type UniswapPoolSwaps } from './uniswap.js';
export { parsePoolInfo, tradedSide, WETH, type UniswapPool, type PoolToken } from './uniswap-pools.js';
export { importPumpSwap, type PumpSwapImportOptions } from './pumpswap.js';
export {
  importCsv,
  parseColumnMapping,
  CSV_FIELDS,
  type CsvColumns,
  type CsvField,
  type CsvImportOptions,
} from './csv.js';
export { parsePriceSeries, priceAt, type PriceSeries } from './prices.js';
export {
  hourlyNativePrices,
  NativeRateSamples,
  RATE_OUTLIER_FACTOR,
  type DerivedNativePrices,
  type NativeDerivation,
} from './derived-native-prices.js';
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
export { importDune } from './dune.js';
export { importFlipside } from './flipside.js';
export { importHelius } from './helius.js';
export { importBirdeye } from './birdeye.js';
export { readExportFile, readExportTable, type ExportTable, type ExportRow } from './export-rows.js';
export { parseProviderTime } from './provider-time.js';
export { QUOTE_ASSETS, QuoteAssets, parseQuoteAssets, type QuoteAsset, type QuoteKind } from './quote-assets.js';
export type { ProviderImportOptions } from './provider-options.js';
export type { ProviderFileOptions } from './provider-files.js';
export { importProviderFile, importProviderFiles, importProviderText, PROVIDERS, type Provider } from './registry.js';
