// Public exports of the sweep layer: many simulator requests over one tape, on worker threads,
// and the latency curve (one request at many copy delays).
export { sweep, sweepEach, type SweepOptions, type SweepResult } from './sweep.js';
export { latencyCurve, DEFAULT_DELAYS, type LatencyCurve, type LatencyPoint } from './latency.js';
