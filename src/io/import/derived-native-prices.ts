import { DecimalJs40 as Decimal } from '../../numeric/decimal.js';
import type { Network } from '../../model/request.js';
import { utcIso } from '../../model/utc-time.js';
import { grown } from '../../typed-arrays.js';
import { Decimal40 } from '../../numeric/decimal40.js';
import { DigitsDecimal, quotient40, quotientTape, tapeFormDigits } from './export-decimal.js';
import { optionName } from './option-names.js';
import { exactDecimal, fitsTape, numberOf, tapeDecimal, type SwapDecimal } from './tape-builder.js';

/**
 * The native coin's USD prices read from the data itself: a swap that carries both a USD value
 * (the export's own) and a native-coin leg (SOL or wrapped SOL on sol, ETH or WETH on eth) says
 * what one coin was worth when it was made, its USD value over its native amount. An export
 * without a price series then still gives a tape that can be simulated with fees.
 *
 * The rule, exactly:
 * - a swap's **rate** is its USD value ÷ its native amount (magnitudes: exports sign the amounts
 *   leaving a wallet), divided as the importers divide prices: decimal.js at 40 significant
 *   digits, half to even. A swap gives none when either value is missing, zero, not a decimal, or
 *   beyond what a double holds;
 * - a rate more than 100× above or below the **lower median** of every rate of the import is
 *   left out (a USD value of the other leg, lamports or wei written as coins): the factor of the
 *   importers' outlier prices, a band 10,000× wide that holds years of SOL's or ETH's moves;
 * - each hour (UTC, by the swap's time) with a rate left gives one point at the hour's start
 *   (`floor(time / 3600) × 3600`): the lower median of its rates, rounded to 20 significant digits
 *   (half to even) as the tape writes decimals. The lower median of n sorted rates is the one at
 *   place ⌊(n − 1) / 2⌋ from 0: the middle one of an odd count, the lower middle one of an even
 *   count, always a rate some swap had, no mean to round.
 * Only the swaps that go into the tape count. The medians are found among the rates as doubles
 * (no object a swap, no sort); the few within {@link NEAR} of the median double are ordered by
 * their exact quotients, so the median is the exact one, whatever order the swaps came in.
 */

/** Rates further than this factor from the median of all are left out. */
export const RATE_OUTLIER_FACTOR = 100;

/**
 * Doubles nearer than this (relatively) are ordered by their exact quotients. A rate's double is
 * within 3.4e-16 of its exact value (three roundings to nearest: the two amounts and their
 * quotient), so doubles further apart than 6.7e-16 order as the exact rates do; this is 15 times that.
 */
const NEAR = 1e-14;

/** Doubles this far from 1 keep the bound above (no subnormal, no overflow). */
const DOUBLE_RANGE = 1e300;

const HOUR = 3_600;

/** A decimal's text, as the importers read amounts. */
const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The scale of a native amount kept as it was given (see {@link NativeRateSamples}), not as digits. */
const AS_GIVEN = 0x7fffffff;

/** Powers of ten a double holds exactly: a quotient by one is rounded once. */
const POW10 = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
  1e21, 1e22,
];

/** The digits and scale {@link readShortDecimal} read last. */
const SHORT = { digits: 0, scale: 0 };

/**
 * Reads the text of a native amount as at most 15 digits (an integer a double holds exactly) ×
 * 10^scale, its sign dropped, into {@link SHORT}: most amounts are, and kept so they hold no
 * string. False for any other text (more digits, an exponent, white space, no decimal).
 */
function readShortDecimal(text: string): boolean {
  const length = text.length;
  let i = 0;
  let c = text.charCodeAt(0);
  if (c === 43 || c === 45) i++;
  let digits = 0;
  let count = 0;
  let scale = 0;
  let point = false;
  let any = false;
  for (; i < length; i++) {
    c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      any = true;
      if (point) scale--;
      if (digits === 0 && c === 48) continue;
      if (++count > 15) return false;
      digits = digits * 10 + (c - 48);
    } else if (c === 46 && !point) point = true;
    else return false;
  }
  SHORT.digits = digits;
  SHORT.scale = scale;
  return any;
}

/** True for a double from 1e-300 to 1e300 (false for NaN). */
function inRange(x: number): boolean {
  return x >= 1 / DOUBLE_RANGE && x <= DOUBLE_RANGE;
}

/** The magnitude of a native amount given as a number, a decimal or other text, as a double; NaN when no decimal. */
function givenNumber(value: unknown): number {
  if (typeof value === 'number') return Math.abs(value);
  if (typeof value === 'string') return DECIMAL_TEXT.test(value.trim()) ? Math.abs(Number(value)) : NaN;
  if (value instanceof Decimal) return value.abs().toNumber();
  return NaN;
}

/** The magnitude of a native amount {@link givenNumber} read, exactly. */
function givenDecimal(value: unknown): Decimal {
  const decimal =
    value instanceof Decimal ? value : new Decimal(typeof value === 'string' ? value.trim() : Number(value));
  return decimal.abs();
}

/**
 * The swaps of an import that carry both a USD value and a native amount, each with its time and
 * its rate as a double, in typed arrays: an import may hold millions, and an object or a string
 * each would cost the collections of the young generation. The exact values are kept for the
 * exact quotients the medians need: the USD value as the swap has it (the import holds it
 * anyway), the native amount as its digits and scale (or, rarely, as given).
 */
export class NativeRateSamples {
  private count = 0;
  private times = new Float64Array(256);
  private rates = new Float64Array(256);
  private tags = new Int32Array(256);
  private digits = new Float64Array(256);
  /** The native amount's power of ten, or {@link AS_GIVEN}: then it is in {@link given}. */
  private scales = new Int32Array(256);
  private readonly usd: SwapDecimal[] = [];
  private readonly given = new Map<number, unknown>();

  /** How many swaps gave a rate. */
  get length(): number {
    return this.count;
  }

  /**
   * Adds a swap made at `time` (seconds) worth `usd`, whose native leg is `native` (a decimal,
   * its text, or a number; signed or not). False when the two give no rate: either zero, no
   * decimal, or beyond 1e±300, as their quotient. `tag` names the swap for {@link only} (the
   * importer's number of it).
   */
  add(time: number, usd: SwapDecimal, native: unknown, tag = this.count): boolean {
    let nativeNumber: number;
    let digits = 0;
    let scale = AS_GIVEN;
    if (typeof native === 'string' && readShortDecimal(native) && SHORT.scale >= -22) {
      digits = SHORT.digits;
      scale = SHORT.scale;
      nativeNumber = digits / POW10[-scale]!;
    } else nativeNumber = givenNumber(native);
    const usdNumber = numberOf(usd);
    const rate = usdNumber / nativeNumber;
    if (!(inRange(usdNumber) && inRange(nativeNumber) && inRange(rate))) return false;
    this.push(time, rate, tag, usd, digits, scale, native);
    return true;
  }

  private push(
    time: number,
    rate: number,
    tag: number,
    usd: SwapDecimal,
    digits: number,
    scale: number,
    given: unknown,
  ): void {
    const i = this.count++;
    if (i === this.times.length) {
      this.times = grown(this.times, i);
      this.rates = grown(this.rates, i);
      this.tags = grown(this.tags, i);
      this.digits = grown(this.digits, i);
      this.scales = grown(this.scales, i);
    }
    this.times[i] = time;
    this.rates[i] = rate;
    this.tags[i] = tag;
    this.digits[i] = digits;
    this.scales[i] = scale;
    this.usd.push(usd);
    if (scale === AS_GIVEN) this.given.set(i, given);
  }

  /** The samples whose tag `keep` takes (the swaps that went into the tape), in the same order. */
  only(keep: (tag: number) => boolean): NativeRateSamples {
    let left = 0;
    const taken = new Int32Array(this.count);
    for (let i = 0; i < this.count; i++) if (keep(this.tags[i]!)) taken[left++] = i;
    if (left === this.count) return this;
    const kept = new NativeRateSamples();
    kept.times = new Float64Array(left);
    kept.rates = new Float64Array(left);
    kept.tags = new Int32Array(left);
    kept.digits = new Float64Array(left);
    kept.scales = new Int32Array(left);
    for (let k = 0; k < left; k++) {
      const i = taken[k]!;
      kept.times[k] = this.times[i]!;
      kept.rates[k] = this.rates[i]!;
      kept.tags[k] = this.tags[i]!;
      kept.digits[k] = this.digits[i]!;
      kept.scales[k] = this.scales[i]!;
      kept.usd.push(this.usd[i]!);
      if (this.scales[i] === AS_GIVEN) kept.given.set(k, this.given.get(i));
    }
    kept.count = left;
    return kept;
  }

  /** The samples of several imports as one (for imports merged into one tape). */
  static merged(all: readonly NativeRateSamples[]): NativeRateSamples {
    if (all.length === 1) return all[0]!;
    const merged = new NativeRateSamples();
    for (const samples of all) for (let i = 0; i < samples.count; i++) merged.copy(samples, i);
    return merged;
  }

  private copy(from: NativeRateSamples, i: number): void {
    const scale = from.scales[i]!;
    const given = scale === AS_GIVEN ? from.given.get(i) : undefined;
    this.push(from.times[i]!, from.rates[i]!, from.tags[i]!, from.usd[i]!, from.digits[i]!, scale, given);
  }

  timeOf(i: number): number {
    return this.times[i]!;
  }

  rateNumber(i: number): number {
    return this.rates[i]!;
  }

  /**
   * A sample's rate as the tape writes it: the exact rate rounded to 20 significant digits. The
   * usual sample (the USD value as digits, the native amount as digits) is divided by Decimal40,
   * which gives decimal.js's quotient without building its objects.
   */
  rateText(i: number): string {
    const usd = this.usd[i]!;
    return this.isUsual(i, usd) ? quotientTape(usd, this.nativeText(i)) : tapeDecimal(this.slowRate(i));
  }

  /** A sample's rate exactly: 40 significant digits, half to even (as {@link rateText} divides). */
  exactRate(i: number): Decimal40 {
    const usd = this.usd[i]!;
    return this.isUsual(i, usd) ? quotient40(usd, this.nativeText(i)) : new Decimal40(this.slowRate(i).toString());
  }

  /** True when the rate is one for Decimal40: both values as digits (at most 40 of them). */
  private isUsual(i: number, usd: SwapDecimal): usd is string | DigitsDecimal {
    return (
      this.scales[i] !== AS_GIVEN &&
      (usd instanceof DigitsDecimal || (typeof usd === 'string' && tapeFormDigits(usd) > 0))
    );
  }

  private nativeText(i: number): string {
    return `${this.digits[i]!}e${this.scales[i]!}`;
  }

  /** The rate divided by decimal.js: for values in any other form. */
  private slowRate(i: number): Decimal {
    const scale = this.scales[i]!;
    const native = scale === AS_GIVEN ? givenDecimal(this.given.get(i)) : new Decimal(this.nativeText(i));
    return exactDecimal(this.usd[i]!).div(native);
  }
}

/** The native prices derived from an import's swaps (see {@link hourlyNativePrices}). */
export interface DerivedNativePrices {
  /** `[hour start, USD per coin]`, by time, in the tape's form. */
  readonly points: [number, string][];
  /** The swaps whose rates made the points. */
  readonly swaps: number;
  /** The swaps whose rate was more than {@link RATE_OUTLIER_FACTOR}× from the median of all, left out. */
  readonly leftOut: number;
}

/**
 * The native coin's USD series of `samples`: each hour's lower median rate at the hour's start,
 * the rates far from the median of all left out (the rule is in this module's comment).
 *
 * @example
 * const samples = new NativeRateSamples();
 * samples.add(1710064800, '300', '2');   // 150 USD per SOL
 * samples.add(1710065400, '151', '1');   // 151
 * samples.add(1710066000, '1520', '10'); // 152
 * hourlyNativePrices(samples).points;    // [[1710064800, '151']]
 */
export function hourlyNativePrices(samples: NativeRateSamples): DerivedNativePrices {
  const n = samples.length;
  if (n === 0) return { points: [], swaps: 0, leftOut: 0 };
  const exact = new ExactRates(samples);
  const all = new Int32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  const median = exact.of(lowerMedian(all, samples, exact));
  const medianNumber = median.toNumber();
  const factor = RATE_OUTLIER_FACTOR;
  // Each kept sample's hour, grouped by a counting sort (samples usually come in time order).
  const groupOf = new Int32Array(n).fill(-1);
  const hours: number[] = [];
  const groups = new Map<number, number>();
  let leftOut = 0;
  let lastHour = NaN;
  let lastGroup = -1;
  for (let i = 0; i < n; i++) {
    // Far from the bounds, doubles decide; within a millionth of them, the exact rates.
    const quick = samples.rateNumber(i) / medianNumber;
    if (!(quick < factor * (1 - 1e-6) && quick * factor > 1 + 1e-6)) {
      const ratio = exact.of(i).div(median);
      if (ratio.gt(factor) || ratio.times(factor).lt(1)) {
        leftOut++;
        continue;
      }
    }
    const hour = Math.floor(samples.timeOf(i) / HOUR);
    if (hour !== lastHour) {
      let group = groups.get(hour);
      if (group === undefined) {
        groups.set(hour, (group = hours.length));
        hours.push(hour);
      }
      lastHour = hour;
      lastGroup = group;
    }
    groupOf[i] = lastGroup;
  }
  const starts = new Int32Array(hours.length + 1);
  for (let i = 0; i < n; i++) if (groupOf[i]! >= 0) starts[groupOf[i]! + 1]!++;
  for (let g = 0; g < hours.length; g++) starts[g + 1]! += starts[g]!;
  const byGroup = new Int32Array(n - leftOut);
  const next = starts.slice(0, hours.length);
  for (let i = 0; i < n; i++) if (groupOf[i]! >= 0) byGroup[next[groupOf[i]!]!++] = i;
  const points: [number, string][] = [];
  for (let g = 0; g < hours.length; g++) {
    const rate = samples.rateText(lowerMedian(byGroup.subarray(starts[g]!, starts[g + 1]!), samples, exact));
    if (fitsTape(rate)) points.push([hours[g]! * HOUR, rate]);
  }
  points.sort((a, b) => a[0] - b[0]);
  return { points, swaps: n - leftOut, leftOut };
}

/** The exact rates of samples, each divided once at most. */
class ExactRates {
  private readonly known = new Map<number, Decimal40>();

  constructor(private readonly samples: NativeRateSamples) {}

  of(i: number): Decimal40 {
    let rate = this.known.get(i);
    if (rate === undefined) this.known.set(i, (rate = this.samples.exactRate(i)));
    return rate;
  }
}

/**
 * The sample at the lower median of `ids` by exact rate. The median double v is selected; the
 * exact median lies within 3.4e-16 of it, so a double further than {@link NEAR} below v is of a
 * rate exactly below the median, one further above of a rate above it. The samples within are
 * sorted by their exact rates (ties by sample), and the median is the one at its place among them.
 */
function lowerMedian(ids: Int32Array, samples: NativeRateSamples, exact: ExactRates): number {
  const n = ids.length;
  const values = new Float64Array(n);
  for (let k = 0; k < n; k++) values[k] = samples.rateNumber(ids[k]!);
  const middle = (n - 1) >> 1;
  const v = selected(values, middle);
  const low = v * (1 - NEAR);
  const high = v * (1 + NEAR);
  let below = 0;
  const near: number[] = [];
  for (let k = 0; k < n; k++) {
    // `values` is reordered now: each rate is read again by its sample.
    const rate = samples.rateNumber(ids[k]!);
    if (rate < low) below++;
    else if (rate <= high) near.push(ids[k]!);
  }
  if (near.length > 1) near.sort((a, b) => exact.of(a).cmp(exact.of(b)) || a - b);
  return near[middle - below]!;
}

/**
 * The k-th smallest of `values` (from 0), which it reorders (Hoare's selection, the pivot the
 * median of three): a median without sorting every rate.
 */
function selected(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const a = values[lo]!;
    const b = values[(lo + hi) >> 1]!;
    const c = values[hi]!;
    const pivot = Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i++] = values[j]!;
        values[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return values[k]!;
}

/**
 * How an import's native prices were derived: the samples and the report's note on them, so that
 * imports merged into one tape derive theirs again from all their swaps at once.
 */
export interface NativeDerivation {
  readonly samples: NativeRateSamples;
  readonly note: string;
}

/** The coin a network's native prices price. */
const COIN: Record<Network, string> = { sol: 'SOL', eth: 'ETH' };

/** The option of a network's native series, as the messages name it. */
function seriesOption(network: Network): string {
  return optionName(network === 'sol' ? 'solUsd' : 'ethUsd');
}

/** `n` things, the word in the plural but for one. */
function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The report's note on native prices derived: how many points, from how many swaps, over what
 * time; or, with none, why simulating with fees will fail and the option that fixes it.
 */
export function derivedNativeNote(derived: DerivedNativePrices, network: Network): string {
  const coin = COIN[network];
  const leg = `${network === 'eth' ? 'an' : 'a'} ${coin} leg`;
  const series = seriesOption(network);
  if (derived.points.length === 0) {
    return (
      `no native prices: no swap has both ${leg} and a USD value to derive them from ` +
      `(pass ${series} FILE): simulating with fees will fail`
    );
  }
  const first = derived.points[0]![0];
  const last = derived.points[derived.points.length - 1]![0];
  const span = first === last ? `the hour of ${utcIso(first)}` : `the hours from ${utcIso(first)} to ${utcIso(last)}`;
  const leftOut =
    derived.leftOut > 0
      ? `; ${count(derived.leftOut, 'swap')} left out, their USD per ${coin} more than ${RATE_OUTLIER_FACTOR}× ` +
        'from the median'
      : '';
  return (
    `native prices derived from the data: ${count(derived.points.length, 'hourly point')} over ${span}, each the ` +
    `median USD per ${coin} of the hour's swaps with ${leg} and a USD value (from ${count(derived.swaps, 'swap')}` +
    `${leftOut}); ${series} FILE gives a series instead`
  );
}
