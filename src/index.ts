/**
 * copysim: a deterministic copy-trade simulation engine.
 *
 * What a library user needs to simulate, sweep and rank: the simulator, the tapes it reads, the
 * request, options and response (zod schemas, every type inferred from them), the warnings of a
 * run, and the errors. The rest lives behind subpaths, each loading only its own layer:
 * - `copysim/import`: real swap data (Dune, Flipside, Helius, Birdeye, Uniswap, PumpSwap, CSV) to tapes;
 * - `copysim/tape`: tapes between JSON, JSONL and Parquet;
 * - `copysim/analytics`: the wallet analytics reads (deals, indicators, charts, the wallet list);
 * - `copysim/server`: the HTTP service (loads Fastify and SQLite).
 */

// The simulator: a tape and a request in, the `POST /wallets/simulator` body out.
export { simulate, simulateStream, simulateParts, simulateStreamParts, type ReplayControl } from './simulate.js';
export { assembleResponse, type ResponseParts } from './report/response.js';
export { LiveSimulation, FeedRefusal, simulateFeedLogParts, type LiveSetup, type FeedInput } from './live/index.js';
export { writeJson, writeResponseParts } from './io/json-stream.js';

// Tapes: read one (JSON, JSONL, Parquet), simulate a large one as a stream, index one for many runs.
export { readTapeFile } from './io/read-tape.js';
export type { TapeHeaderOptions } from './io/parquet/header.js';
export { simulateJsonlFile, simulateJsonlFileParts } from './io/jsonl-tape.js';
export { simulateParquetFileParts } from './io/parquet/simulate.js';
export { simulateJsonFileParts } from './io/json-tape/simulate.js';
export { indexTape, type IndexedTape } from './engine/tape-index.js';

// Many requests over one tape, the latency curve, and wallets ranked by the copier's result.
export {
  sweep,
  sweepEach,
  latencyCurve,
  DEFAULT_DELAYS,
  type SweepOptions,
  type SweepResult,
  type LatencyCurve,
  type LatencyPoint,
} from './sweep/index.js';
export {
  rankWallets,
  outOfSample,
  RANK_METRICS,
  type RankedWallet,
  type RankMetric,
  type RankOptions,
  type OutOfSample,
} from './rank/index.js';

// The warnings of a run: answers probably not meant, and answers built on weak data.
export { diagnose, WarningSchema, type DiagnoseOptions, type Warning, type WarningCode } from './diagnose/index.js';

// The request (with its `strategy` member), the engine options, the tape and the response.
export {
  SimulatorRequestSchema,
  NetworkSchema,
  parseSimulatorRequest,
  type SimulatorRequest,
  type SimulatorRequestInput,
  type ParseRequestResult,
  type Network,
} from './model/request.js';
export {
  StrategySchema,
  TakeProfitLevelSchema,
  NO_STRATEGY,
  type Strategy,
  type StrategyInput,
  type TakeProfitLevel,
} from './model/strategy.js';
export {
  EngineOptionsSchema,
  DEFAULT_ENGINE_OPTIONS,
  resolveEngineOptions,
  type EngineOptions,
  type EngineOptionsInput,
} from './model/options.js';
export {
  TapeSchema,
  SwapSchema,
  TokenMetaSchema,
  TapeHeaderSchema,
  parseTape,
  type Tape,
  type TapeInput,
  type Swap,
  type TokenMeta,
  type TapeHeader,
} from './model/tape.js';
export {
  SimulatorResponseSchema,
  SimulatedDealSchema,
  SimulatedTradeSchema,
  SimulationSummarySchema,
  SkippedCopySchema,
  LeaderResultSchema,
  CopierResultSchema,
  ErrorBodySchema,
  type SimulatorResponse,
  type SimulatedDeal,
  type SimulatedTrade,
  type SimulationSummary,
  type SkippedCopyJson,
  type LeaderResultJson,
  type CopierResultJson,
} from './model/response.js';

// Errors: an unusable tape or options (InputError), a request that fails validation (RequestError, with its 400 body).
export {
  CopysimError,
  InputError,
  RequestError,
  type ErrorBody,
  type ValidationProblem,
  type InputLocation,
} from './model/errors.js';
