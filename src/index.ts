/**
 * copysim: a deterministic copy-trade simulation engine.
 *
 * The public API, curated: the simulator, the request/tape/options/response schemas (zod) and
 * the types inferred from them, and the error hierarchy.
 */
export { simulate, simulateStream, simulateParts, simulateStreamParts, type ReplayControl } from './simulate.js';
export { readTapeFile } from './io/read-tape.js';
export { simulateJsonlFile, simulateJsonlFileParts } from './io/jsonl-tape.js';
export { assembleResponse, type ResponseParts } from './report/response.js';
export { writeJson, writeResponseParts } from './io/json-stream.js';
export { Decimal40 } from './numeric/decimal40.js';
export { indexTape, type IndexedTape } from './engine/tape-index.js';

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
  EngineOptionsSchema,
  DEFAULT_ENGINE_OPTIONS,
  resolveEngineOptions,
  type EngineOptions,
  type EngineOptionsInput,
} from './model/options.js';
export {
  SimulatorResponseSchema,
  SimulatedDealSchema,
  SimulatedTradeSchema,
  SimulationSummarySchema,
  ErrorBodySchema,
  type SimulatorResponse,
  type SimulatedDeal,
  type SimulatedTrade,
  type SimulationSummary,
} from './model/response.js';
export {
  CopysimError,
  InputError,
  RequestError,
  type ErrorBody,
  type ValidationProblem,
  type InputLocation,
} from './model/errors.js';

// The layers around the engine; each index lists its own public exports. The HTTP service is
// the separate entry point `copysim/server`, so a library import loads no web framework or SQLite.
export * from './io/import/index.js';
export * from './sweep/index.js';
export * from './analytics/index.js';
