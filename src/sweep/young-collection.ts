/**
 * Collects V8's young generation now, when this node runs with `--expose-gc` (the replay
 * commands' flags, `REPLAY_NODE_FLAGS`); else does nothing.
 *
 * A sweep calls it between walks of the tape. A walk's deals and decimals live until the walk
 * ends, so a collection in the middle of a walk copies them all and promotes most of them into
 * the old generation, to be marked and swept later; a collection just after the walk finds them
 * dead and copies almost nothing. The next walk then starts with an empty young generation, and
 * one that fits in it (a couple of requests' summaries do, in the replay flags' 64 MB) runs
 * without a collection. Results do not depend on it: only the collector's work does.
 */
export function collectYoungGeneration(): void {
  collect?.({ type: 'minor' });
}

const collect = (globalThis as { gc?: (options: { type: 'minor' | 'major' }) => void }).gc;
