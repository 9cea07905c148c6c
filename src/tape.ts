/**
 * `copysim/tape`: tapes between JSON, JSONL and Parquet (docs/columnar-tape.md), and the Parquet
 * reader and writer themselves.
 */
export { convertTapeFile, writeTape } from './io/convert-tape.js';
export { ParquetTapeFile } from './io/parquet/read.js';
export type { TapeHeaderOptions } from './io/parquet/header.js';
export { ParquetTapeWriter, writeParquetTape } from './io/parquet/write.js';
