export {
  diagnose,
  warningsOf,
  outcomeOf,
  withSkipLog,
  dealsOf,
  type DiagnoseOptions,
  type RunOutcome,
} from './diagnose.js';
export { tradeWarnings, FAR_FROM_MARKET, NEIGHBOURS, type DealSource } from './trade-checks.js';
export { tapeFacts, TapeFactsCollector, type TapeFacts, type LeaderFacts } from './tape-facts.js';
export { WarningSchema, WARNINGS_HEADER, type Warning, type WarningCode } from './warning.js';
