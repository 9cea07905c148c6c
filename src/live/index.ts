/**
 * Paper trading on a live feed, as a library: the simulation fed as the market moves
 * ({@link LiveSimulation}), its refusals, and a feed log read back as `simulate --tape` reads it.
 * The durable run with its log and service (`LiveRun`, `src/live/http/`) is `copysim follow`'s:
 * it reads Helius webhooks, so it loads the importers, which the library's entry does not.
 */
export { LiveSimulation, DEFAULT_LATENESS, type LiveSetup, type LiveCounts } from './live-simulation.js';
export { FeedRefusal, REFUSALS, type RefusalCode } from './errors.js';
export type { FeedInput, NativePoint } from './feed-input.js';
export { simulateFeedLogParts } from './replay-log.js';
