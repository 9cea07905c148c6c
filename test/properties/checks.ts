/**
 * The identities every simulation result must hold, as pure checks that return a list of
 * problems (empty when all hold). Shared by the property tests, the saved regressions and the
 * real-data test.
 *
 * Numbers are compared after the response's decimal → float64 conversion, so an identity that
 * is exact in decimals holds here up to rounding: within 1e-9 relative to the magnitude of the
 * terms involved (absolute 1e-9 near 0). See {@link near}.
 */
import { checkDealStatus, checkLastPoint, checkSums } from './checks/pnl.js';
import { checkCaps, checkCharts, checkFees, checkSettings } from './checks/rules.js';
import type { Run } from './checks/support.js';

export { checkDealStatus, checkLastPoint, checkSums, buysAfterASell } from './checks/pnl.js';
export { checkCaps, checkCharts, checkFees, checkSettings } from './checks/rules.js';
export { near, type Run } from './checks/support.js';

/** Every identity above; the ones that hold for every valid input. */
export const ALL_CHECKS = {
  checkSums,
  checkLastPoint,
  checkDealStatus,
  checkCaps,
  checkSettings,
  checkFees,
  checkCharts,
} as const;

/** Runs every check and returns all problems, each prefixed by its check's name. */
export function checkAll(run: Run): string[] {
  return Object.entries(ALL_CHECKS).flatMap(([name, check]) => check(run).map((p) => `${name}: ${p}`));
}
