import { Decimal, ZERO, type DecimalInput } from '../numeric/decimal.js';
import { parseExponent } from '../numeric/decimal40-parse.js';
import { POW10 } from '../numeric/nearest-double.js';

/**
 * Leaders' holdings (model section 2: a buy adds its quantity, a sell takes its quantity away
 * and floors at 0), one slot a (leader, token) pair, kept exact without a decimal per swap.
 *
 * A tape's quantities have few digits ("1475489746.321099": sixteen), so a pair's holdings are
 * mostly an integer count of a power of ten that a double holds exactly (below 2^53): `units ×
 * 10^exp`. Adding, subtracting and comparing such counts at a common exponent is exact while
 * every count stays below 2^53, and then gives the value the decimal arithmetic gives (a sum of
 * at most sixteen digits is not rounded at 40). A quantity that does not scan so, or a count that
 * would pass 2^53, turns the pair to decimals until its holdings are 0 again. A leader swap
 * then costs no decimal parse and no decimal addition: a decimal is made only for the holdings
 * a copied sell or a delayed copy reads ({@link before}).
 */
export class ExactHoldings {
  /** After the pair's latest swap: the count and its exponent; {@link DECIMAL} marks a decimal slot. */
  private readonly units: number[] = [];
  private readonly exps: number[] = [];
  /** Before the pair's latest swap, the same way. */
  private readonly unitsBefore: number[] = [];
  private readonly expsBefore: number[] = [];
  /** The holdings of the slots held as decimals (after, and before, their latest swap). */
  private readonly decimalAfter = new Map<number, Decimal>();
  private readonly decimalBefore = new Map<number, Decimal>();
  /** The slot {@link before} reads. */
  private last = -1;

  /** Adds `count` slots holding nothing; gives the first one's number. */
  addSlots(count: number): number {
    const first = this.units.length;
    for (let k = 0; k < count; k++) {
      this.units.push(0);
      this.exps.push(0);
      this.unitsBefore.push(0);
      this.expsBefore.push(0);
    }
    return first;
  }

  /** Moves slot `slot`'s holdings by a swap of `quantity`; {@link before} then reads the slot. */
  move(slot: number, quantity: DecimalInput, buy: boolean): void {
    this.last = slot;
    const units = this.units[slot]!;
    const exp = this.exps[slot]!;
    this.unitsBefore[slot] = units;
    this.expsBefore[slot] = exp;
    if (exp !== DECIMAL && typeof quantity === 'string' && scanQuantity(quantity)) {
      const q = SCANNED[0]!;
      const qExp = SCANNED[1]!;
      if (units === 0) {
        this.set(slot, buy ? q : 0, buy ? qExp : 0);
        return;
      }
      // Both counts at the lower exponent: exact while each stays a safe integer.
      const low = Math.min(exp, qExp);
      const held = exp - low <= 22 ? units * POW10[exp - low]! : Infinity;
      const taken = qExp - low <= 22 ? q * POW10[qExp - low]! : Infinity;
      if (held <= SAFE && taken <= SAFE) {
        if (!buy) {
          if (held <= taken) this.set(slot, 0, 0);
          else this.set(slot, held - taken, low);
          return;
        }
        if (held + taken <= SAFE) {
          this.set(slot, held + taken, low);
          return;
        }
      }
    }
    this.moveDecimal(slot, units, exp, quantity, buy);
  }

  /** Makes slot `slot` the one {@link before} reads, without moving it (another follower moved it at this swap). */
  select(slot: number): void {
    this.last = slot;
  }

  /** The holdings before the latest swap of the slot last moved or selected, as a decimal. */
  before(): Decimal {
    const slot = this.last;
    const exp = this.expsBefore[slot]!;
    return exp === DECIMAL ? this.decimalBefore.get(slot)! : decimalOf(this.unitsBefore[slot]!, exp);
  }

  /** The holdings after the latest swap of slot `slot`, as a decimal. */
  after(slot: number): Decimal {
    const exp = this.exps[slot]!;
    return exp === DECIMAL ? this.decimalAfter.get(slot)! : decimalOf(this.units[slot]!, exp);
  }

  /** The count is `units × 10^exp`, dropping the count's trailing zeros so that later sums keep room. */
  private set(slot: number, units: number, exp: number): void {
    let u = units;
    let e = exp;
    while (u !== 0 && u % 10 === 0) {
      u /= 10;
      e++;
    }
    this.units[slot] = u;
    this.exps[slot] = e;
  }

  /** The model's rule in decimals, for a slot the counts cannot hold. */
  private moveDecimal(slot: number, units: number, exp: number, quantity: DecimalInput, buy: boolean): void {
    const held = exp === DECIMAL ? this.decimalAfter.get(slot)! : decimalOf(units, exp);
    if (exp === DECIMAL) this.decimalBefore.set(slot, held);
    const after = holdingsAfter(held, new Decimal(quantity), buy);
    if (after.isZero()) {
      this.decimalAfter.delete(slot);
      this.units[slot] = 0;
      this.exps[slot] = 0;
      return;
    }
    this.decimalAfter.set(slot, after);
    this.exps[slot] = DECIMAL;
  }
}

/** Holdings after a swap of `quantity`, from the holdings before it (model section 2: sells floor at 0). */
export function holdingsAfter(held: Decimal, quantity: Decimal, buy: boolean): Decimal {
  if (buy) return held.isZero() ? quantity : held.plus(quantity);
  return held.isZero() || held.lte(quantity) ? ZERO : held.minus(quantity);
}

/** `units × 10^exp` as a decimal. */
function decimalOf(units: number, exp: number): Decimal {
  // A safe integer prints as its digits: the text is the exact value.
  return units === 0 ? ZERO : new Decimal(exp === 0 ? String(units) : `${units}e${exp}`);
}

/** The exponent that marks a slot held as a decimal. */
const DECIMAL = 1e9;
const SAFE = Number.MAX_SAFE_INTEGER;
/** The count and exponent {@link scanQuantity} read. */
const SCANNED = new Float64Array(2);

/**
 * Reads a quantity's text (`digits[.digits][e[+-]digits]`, as a tape's decimals are checked to
 * be) into {@link SCANNED} as a count below 2^53 and the exponent of its last digit; false when
 * the count would not fit (too many digits) or the text is of another form.
 */
function scanQuantity(text: string): boolean {
  const length = text.length;
  let value = 0;
  let digits = 0;
  let fraction = 0;
  let point = false;
  let i = 0;
  for (; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (value > LAST_BEFORE_OVERFLOW) return false;
      value = value * 10 + (c - 48);
      digits++;
      if (point) fraction++;
    } else if (c === 46 /* . */ && !point) {
      point = true;
    } else break;
  }
  if (digits === 0) return false;
  let exponent = 0;
  if (i < length) {
    const c = text.charCodeAt(i);
    if (c !== 101 && c !== 69 /* e E */) return false;
    exponent = parseExponent(text, i + 1);
    // NaN (malformed) fails the test, and so does an exponent no tape's decimal has.
    if (!(exponent >= -1000 && exponent <= 1000)) return false;
  }
  SCANNED[0] = value;
  SCANNED[1] = exponent - fraction;
  return true;
}

/** The largest count one more digit can follow without passing 2^53. */
const LAST_BEFORE_OVERFLOW = Math.floor((SAFE - 9) / 10);
