/**
 * The model's identities over generated tapes (fast-check, fixed seed; see run.ts for the
 * environment variables that run more cases or reproduce one). Each check is in checks.ts.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { scenarioArb, type Scenario } from '../support/arbitraries.js';
import {
  checkCaps,
  checkCharts,
  checkDealStatus,
  checkFees,
  checkLastPoint,
  checkSettings,
  checkSums,
} from './checks.js';
import { checkProperty, runScenario } from './run.js';

/** Scenarios with one request setting forced, so the rules that need it are exercised often. */
function withRequest(patch: fc.Arbitrary<Partial<Scenario['request']>>): fc.Arbitrary<Scenario> {
  return fc.tuple(scenarioArb(), patch).map(([s, p]) => ({ ...s, request: { ...s.request, ...p } }));
}
const timeFixArb = withRequest(fc.integer({ min: 1, max: 6 }).map((hours) => ({ inactivity_time_fix: { hours } })));
const closeAllArb = withRequest(fc.constant({ close_all: true }));
const noTimeFixArb = withRequest(fc.constant({ inactivity_time_fix: null }));
const botFeesArb = withRequest(fc.boolean().map((include_bot_fees) => ({ include_bot_fees })));
const tightCapsArb = withRequest(
  fc.record({ max_buy_amount: fc.integer({ min: 1, max: 50 }), max_position_amount: fc.integer({ min: 1, max: 120 }) }),
);

describe('identities over generated tapes', () => {
  it('pnl_total = pnl_realized + pnl_unrealized per deal and in the summary; summary = Σ deals', () => {
    checkProperty('sums', scenarioArb(), (s) => checkSums(runScenario(s)));
  });

  it('the last chart point equals the summary', () => {
    checkProperty('last-point', scenarioArb(), (s) => checkLastPoint(runScenario(s)));
    checkProperty('last-point-time-fix', timeFixArb, (s) => checkLastPoint(runScenario(s)));
  });

  it('closed deals are fully sold and their cash flows add up; open deals are not fully sold', () => {
    checkProperty('deal-status', scenarioArb(), (s) => checkDealStatus(runScenario(s)));
    checkProperty('deal-status-close-all', closeAllArb, (s) => checkDealStatus(runScenario(s)));
  });

  it('caps: max_buy_amount, max_position_amount and max_dupe_buy_times hold', () => {
    checkProperty('caps', tightCapsArb, (s) => checkCaps(runScenario(s)));
  });

  it('time-fix: nothing open at the end, no gap longer than the hours; none without it', () => {
    checkProperty('time-fix', timeFixArb, (s) => checkSettings(runScenario(s)));
    checkProperty('no-time-fix', noTimeFixArb, (s) => checkSettings(runScenario(s)));
  });

  it('close_all: at most one sell per deal', () => {
    checkProperty('close-all', closeAllArb, (s) => checkSettings(runScenario(s)));
  });

  it('fees: non-negative, bot fees only when asked, network fee from the native price, sums never decrease', () => {
    checkProperty('fees', botFeesArb, (s) => checkFees(runScenario(s)));
  });

  it('charts: one point per trade, time never goes back, deal_indexes name the right deal', () => {
    checkProperty('charts', scenarioArb(), (s) => checkCharts(runScenario(s)));
  });
});
