/**
 * Paper trading on a live feed: the simulation fed as the market moves ({@link LiveSimulation}),
 * kept on disk with a durable log ({@link LiveRun}), and the log read back as a tape.
 */
export { LiveSimulation, DEFAULT_LATENESS, type LiveSetup, type LiveCounts } from './live-simulation.js';
export { LiveRun, partsText, type LiveRunOptions, type Receipt } from './live-run.js';
export { FeedRefusal, REFUSALS, type RefusalCode } from './errors.js';
export { readFeedItem, feedLine, type FeedInput, type NativePoint } from './feed-input.js';
export { simulateFeedLogParts, feedLogTape, replayFeedLog } from './replay-log.js';
export { isFeedLogHeader, FeedLogReader, type FeedLogHeader } from './log-reader.js';
export type { LiveStatus } from './status.js';
