// @ts-check
// A request's strategy in words, for the text report and the report page alike: one phrase a
// setting that differs from its default, so a reader sees what the bot did without reading JSON.

/** @import { StrategyInput } from '../../src/model/strategy.js' */

/**
 * The strategy's settings that differ from their defaults, a few words each, in the order of the
 * strategy's members. Takes a strategy as validated (defaults filled in) or as a client sent it
 * (members left out): a member left out is its default.
 *
 * @param {StrategyInput} strategy
 * @returns {string[]}
 */
export function strategyPhrases(strategy) {
  const s = strategy;
  /** @type {string[]} */
  const parts = [];
  const set = (/** @type {unknown} */ value) => value !== undefined && value !== null;
  if (s.copy_delay_seconds !== undefined && s.copy_delay_seconds > 0)
    parts.push(`copies ${s.copy_delay_seconds} s late`);
  if (set(s.fixed_buy_amount)) parts.push(`buys ${s.fixed_buy_amount} USD`);
  if (s.min_leader_buy_usd !== undefined && s.min_leader_buy_usd > 0)
    parts.push(`leader buys of ${s.min_leader_buy_usd} USD or more`);
  if (set(s.min_liquidity_usd)) parts.push(`liquidity of ${s.min_liquidity_usd} USD or more`);
  if (set(s.max_token_age_hours)) parts.push(`tokens at most ${s.max_token_age_hours} h old`);
  if (s.take_profit !== undefined && s.take_profit.length > 0) {
    parts.push(`take profit ${s.take_profit.map((l) => `${l.sell_percent} % at +${l.roi} %`).join(', ')}`);
  }
  if (set(s.stop_loss_percent)) parts.push(`stop loss at -${s.stop_loss_percent} %`);
  if (set(s.trailing_stop_percent)) parts.push(`trailing stop ${s.trailing_stop_percent} %`);
  if (set(s.max_hold_hours)) parts.push(`held at most ${s.max_hold_hours} h`);
  // The copier's wallet (model 3.0).
  if (set(s.starting_balance_usd)) parts.push(`a balance of ${s.starting_balance_usd} USD`);
  if (s.reserve_usd !== undefined && s.reserve_usd > 0) parts.push(`${s.reserve_usd} USD kept in reserve`);
  if (set(s.max_open_deals)) parts.push(`at most ${s.max_open_deals} deal${s.max_open_deals === 1 ? '' : 's'} open`);
  if (set(s.slippage_tolerance_percent)) parts.push(`slippage tolerance ${s.slippage_tolerance_percent} %`);
  if (s.failed_transaction_percent !== undefined && s.failed_transaction_percent > 0) {
    parts.push(`${s.failed_transaction_percent} % of transactions dropped`);
  }
  if (s.retries !== undefined && s.retries > 0) {
    parts.push(`${s.retries} ${s.retries === 1 ? 'retry' : 'retries'} ${s.retry_delay_seconds ?? 2} s after a failure`);
  }
  if (s.sandwich_percent !== undefined && s.sandwich_percent > 0)
    parts.push(`${s.sandwich_percent} % of copies sandwiched`);
  if (s.random_seed !== undefined && s.random_seed !== 0) parts.push(`draws seeded ${s.random_seed}`);
  return parts;
}
