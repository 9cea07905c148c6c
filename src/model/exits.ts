import type { Strategy } from './strategy.js';

/**
 * The ways a deal closes by the bot's own rules rather than a leader's sell (strategy extensions
 * 5 and 6): each with the trade type of its sell and the `special_tag` of a deal it closes, and
 * whether a strategy turns it on. The response's enums, the replay's closing tags and the reports
 * are built from this list.
 *
 * To add an exit rule: its strategy member in `StrategySchema` (model/strategy.ts), an entry
 * here, and, for a rule decided at price observations, a file in `src/engine/exits/` implementing
 * `ExitRule` and a line in `EXIT_RULES` there (a rule decided by time is a scheduled action of
 * `engine/scheduler.ts`, as max hold is).
 */
export const EXIT_KINDS = [
  { tag: 'take_profit', trade: 'sell_take_profit', on: (s: Strategy) => s.take_profit.length > 0 },
  { tag: 'stop_loss', trade: 'sell_stop_loss', on: (s: Strategy) => s.stop_loss_percent !== null },
  { tag: 'trailing_stop', trade: 'sell_trailing_stop', on: (s: Strategy) => s.trailing_stop_percent !== null },
  { tag: 'max_hold', trade: 'sell_max_hold', on: (s: Strategy) => s.max_hold_hours !== null },
] as const;

export type ExitKind = (typeof EXIT_KINDS)[number];
/** The trade type of an exit's sell (`sell_take_profit` …). */
export type ExitTrade = ExitKind['trade'];
/** The special tag of a deal an exit closes (`take_profit` …). */
export type ExitTag = ExitKind['tag'];

/** The exit trade types, in {@link EXIT_KINDS}' order. */
export const EXIT_TRADES = EXIT_KINDS.map((k) => k.trade) as unknown as readonly [ExitTrade, ...ExitTrade[]];
/** The exit tags, in {@link EXIT_KINDS}' order. */
export const EXIT_TAGS = EXIT_KINDS.map((k) => k.tag) as unknown as readonly [ExitTag, ...ExitTag[]];
