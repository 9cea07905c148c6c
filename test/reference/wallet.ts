/**
 * The copier's wallet (copier-wallet 2, 4, 7): its cash, every value the cash takes, the equity
 * after each change of cash, and the failed attempts, whose fees belong to no deal.
 */
import { ZERO, type D } from './decimal.js';

/** Copier-wallet 4: a failed attempt of a copy of `leader`'s swap, at `time`, and its failed_fee. */
export interface FailedAttempt {
  leader: number;
  time: number;
  fee: D;
}

export class Wallet {
  /** Copier-wallet 2: cash starts at B, or at 0 without a starting balance. */
  cash: D;
  /** Every value `cash` takes, the first included (capital_required). */
  readonly cashValues: D[];
  /** E_0, E_1, …: the equity at the start and after each change of cash (max_drawdown). */
  readonly equities: D[];
  readonly failed: FailedAttempt[] = [];

  constructor(readonly startingBalance: D | null) {
    this.cash = startingBalance ?? ZERO;
    this.cashValues = [this.cash];
    this.equities = [this.cash]; // E_0 = B (0 without B)
  }

  /**
   * One change of cash (a trade or a failed attempt) by `delta`; `holdings` is the value of the
   * deals open right after it, Σ qty × known price at that moment, so the equity is cash + holdings.
   */
  move(delta: D, holdings: D): void {
    this.cash = this.cash.plus(delta);
    this.cashValues.push(this.cash);
    this.equities.push(this.cash.plus(holdings));
  }

  /** Copier-wallet 4: a failed attempt pays its failed_fee. */
  fail(attempt: FailedAttempt, holdings: D): void {
    this.failed.push(attempt);
    this.move(attempt.fee.negated(), holdings);
  }
}
