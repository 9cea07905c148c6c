import { Decimal, HUNDRED, ONE } from '../numeric/decimal.js';
import type { Fill } from './execution.js';

/**
 * The copier's slippage tolerance `τ` (copier-wallet.md 4, step 3): a buy fails when its
 * execution price `x > w = p_q × (1 + τ/100)`, a sell when `x < w = p_q × (1 − τ/100)`, read as
 * `usd_amount < Q × w` (`x = usd_amount / Q`, no quotient). Most fills are far from `w`: doubles
 * decide those, and the decimals are multiplied only near the bound ({@link exceeded}).
 */
export class SlippageTolerance {
  /** `1 + τ/100` and `1 − τ/100`, and their nearest doubles. */
  private readonly up: Decimal;
  private readonly down: Decimal;
  private readonly upNumber: number;
  private readonly downNumber: number;

  constructor(percent: number) {
    const share = new Decimal(percent).div(HUNDRED);
    this.up = ONE.plus(share);
    this.down = ONE.minus(share);
    this.upNumber = this.up.toNumber();
    this.downNumber = this.down.toNumber();
  }

  /** The worst price the tolerance allows a buy (`buy`) or a sell quoted at `quoted`: `w`. */
  worst(buy: boolean, quoted: Decimal): Decimal {
    return quoted.times(buy ? this.up : this.down);
  }

  /** Whether the fill is past the worst price: a buy's `x > w`, a sell's `usd_amount < Q × w`. */
  exceeded(buy: boolean, fill: Fill, quoted: Decimal): boolean {
    const quick = buy
      ? quickSign(fill.execution!.toApproxNumber(), quoted.toApproxNumber() * this.upNumber)
      : quickSign(
          fill.usdAmount.toApproxNumber(),
          fill.quantity.toApproxNumber() * quoted.toApproxNumber() * this.downNumber,
        );
    if (quick !== 0) return buy ? quick > 0 : quick < 0;
    const worst = this.worst(buy, quoted);
    return buy ? fill.execution!.gt(worst) : fill.usdAmount.lt(fill.quantity.times(worst));
  }
}

/**
 * The sign of `a − b` for positive values whose doubles are `x` and `y`, or 0 when they are too
 * close to tell. `toApproxNumber` is within 2^-49 of a decimal, relatively; `y`, a product of up
 * to three such doubles (one of them a nearest double, 2^-53) and two roundings, is within
 * 4 × 2^-49 of the exact product, which the model rounds at 40 digits once or twice (10^-39 each).
 * So `x` and `y` within 2^-46 = 8 × 2^-49 of each other, relatively, may stand either way. Out
 * of the range where those bounds hold (10^-250 to 10^250), nothing is told.
 */
function quickSign(x: number, y: number): number {
  if (!(x > 1e-250 && x < 1e250 && y > 1e-250 && y < 1e250)) return 0;
  if (x < y * (1 - QUICK_MARGIN)) return -1;
  if (x > y * (1 + QUICK_MARGIN)) return 1;
  return 0;
}

const QUICK_MARGIN = 2 ** -46;
