import type { Warning } from '../../diagnose/warning.js';
import type { ErrorBody } from '../../model/errors.js';
import type { EngineOptionsInput } from '../../model/options.js';
import type { Network } from '../../model/request.js';
import type { TapeHeaderOptions } from '../../io/parquet/header.js';

/** A tape a worker loads at start: one per network. */
export interface TapeFile {
  readonly network: Network;
  readonly file: string;
  /** The header given beside a Parquet file without copysim's (see `readTapeFile`). */
  readonly header?: TapeHeaderOptions;
}

/** What every worker is started with (`workerData`). */
export interface WorkerConfig {
  readonly tapes: readonly TapeFile[];
  readonly engineOptions: EngineOptionsInput;
}

/** A simulation asked of a worker. */
export interface SimulationJob {
  readonly id: number;
  readonly network: Network;
  readonly request: unknown;
}

/** Why a job failed, in a form that crosses the thread boundary. */
export type JobFailure =
  | { readonly kind: 'request'; readonly body: ErrorBody }
  | { readonly kind: 'input'; readonly message: string }
  | { readonly kind: 'internal'; readonly message: string };

/** Messages from a worker. The response travels as JSON text, serialised off the main thread. */
export type WorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'fatal'; readonly message: string }
  | { readonly type: 'done'; readonly id: number; readonly json: string; readonly warnings?: readonly Warning[] }
  | { readonly type: 'failed'; readonly id: number; readonly failure: JobFailure };
