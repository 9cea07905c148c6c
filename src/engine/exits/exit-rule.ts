import type { Decimal } from '../../numeric/decimal.js';
import type { ExitTrade } from '../../model/exits.js';
import type { PriceObservation } from './observation.js';

/** A price exit's sell: the trade type and the share `g` of the deal's lots it sells (null: the whole position). */
export interface ExitSell {
  readonly type: ExitTrade;
  readonly share: Decimal | null;
}

/**
 * One of the strategy's price exits (strategy extensions 5), decided at the price observations
 * of a token whose deal is open. A rule keeps its own state by deal index, so a deal stays pure
 * accounting. The rules run in `EXIT_RULES`' order; see `model/exits.ts` to add one.
 */
export interface ExitRule {
  /** A deal opened by a buy at reference price `price`. */
  opened(deal: number, price: Decimal): void;
  /** The observation starts (before any rule is checked at it): e.g. a trailing stop's peak takes the price. */
  observe(observation: PriceObservation, deal: number): void;
  /**
   * The next sell this rule makes at the observation, or null when it makes no more. Asked again
   * after each sell it gives, while the deal is open.
   */
  next(observation: PriceObservation, deal: number): ExitSell | null;
}
