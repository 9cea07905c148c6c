export { diagnose, warningsOf, outcomeOf, withSkipLog, type DiagnoseOptions, type RunOutcome } from './diagnose.js';
export { tapeFacts, TapeFactsCollector, type TapeFacts, type LeaderFacts } from './tape-facts.js';
export { WarningSchema, WARNINGS_HEADER, type Warning, type WarningCode } from './warning.js';
