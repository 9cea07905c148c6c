import { getHeapSpaceStatistics } from 'node:v8';

/**
 * Collects V8's young generation now, when this node runs with `--expose-gc` (the replay
 * commands' flags, `REPLAY_NODE_FLAGS`) and the young generation holds at least
 * {@link WORTH_COLLECTING} bytes; else does nothing.
 *
 * The hosts of a sweep (the command line, the sweep's and the queue's worker threads) pass it
 * as the sweep's `afterWalk`, so it runs between walks of the tape; the sweep itself knows
 * nothing of the collector. A walk's deals and decimals live until the walk ends, so a
 * collection in the middle of a walk copies them all and promotes most of them into the old
 * generation, to be marked and swept later; a collection just after the walk finds them dead
 * and copies almost nothing. The next walk then starts with an empty young generation, and one
 * that fits in it (a couple of requests' summaries do, in the replay flags' 64 MB) runs without
 * a collection. A collection has a fixed cost (about 0.4 ms), which walks of a small tape would
 * pay far more often than their few objects need: they are left to the collector's own timing.
 * Results do not depend on it: only the collector's work does.
 */
export function collectYoungGeneration(): void {
  if (collect !== undefined && youngBytes() >= WORTH_COLLECTING) collect({ type: 'minor' });
}

/** A few MB: far above what a walk of a small tape leaves, far below a walk of a large one's tens of MB. */
export const WORTH_COLLECTING = 4 * 1024 * 1024;

const collect = (globalThis as { gc?: (options: { type: 'minor' | 'major' }) => void }).gc;

/** Bytes in V8's young generation now. */
export function youngBytes(): number {
  for (const space of getHeapSpaceStatistics()) if (space.space_name === 'new_space') return space.space_used_size;
  return 0;
}
