// Public exports of the sweep layer: many simulator requests over one tape, on worker threads.
export { sweep, sweepEach, type SweepOptions, type SweepResult } from './sweep.js';
