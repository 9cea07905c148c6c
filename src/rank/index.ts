// Public exports of the ranking: every wallet by what copying it alone would have made, and the
// out-of-sample check of such a ranking.
export { rankWallets, outOfSample } from './pipeline.js';
export {
  selectRows,
  metricOf,
  RANK_METRICS,
  type RankedWallet,
  type RankMetric,
  type RankOptions,
  type OwnResults,
} from './rank.js';
export { spearmanOf, type OutOfSample, type SplitRow, type TopTogether } from './out-of-sample.js';
