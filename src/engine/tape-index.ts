import type { Network } from '../model/request.js';
import type { Swap, Tape, TapeInput } from '../model/tape.js';
import { NativePriceSeries } from './native-prices.js';
import { validateTape } from './tape-check.js';
import { addressKey, TokenTable, type TokenInfo } from './tokens.js';

export { addressKey, type TokenInfo } from './tokens.js';

/**
 * A validated tape, indexed once for any number of simulations: swaps in event order (a stable
 * sort by time), wallets and tokens interned as small integers, native prices sorted.
 */
export interface IndexedTape {
  readonly kind: 'indexed-tape';
  readonly network: Network;
  /** The swaps in input order, as validated. */
  readonly swaps: readonly Swap[];
  /** `order[k]` = input index of the k-th swap in event order. */
  readonly order: Uint32Array;
  /** Interned wallet id of each swap, by input index. */
  readonly walletOf: Uint32Array;
  /** Interned token id of each swap, by input index. */
  readonly tokenOf: Uint32Array;
  /** Wallet id by address key (lower-cased on `eth`). */
  readonly walletIds: ReadonlyMap<string, number>;
  readonly tokens: readonly TokenInfo[];
  readonly native: NativePriceSeries;
}

/** True when `value` is already an {@link IndexedTape}. */
export function isIndexedTape(value: unknown): value is IndexedTape {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'indexed-tape';
}

/** Returns the input indices of `swaps` in event order: ascending time, ties in input order. */
export function eventOrder(swaps: readonly Swap[]): Uint32Array {
  const n = swaps.length;
  const order = new Uint32Array(n);
  const times = new Float64Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    order[i] = i;
    times[i] = swaps[i]!.time;
    if (i > 0 && times[i]! < times[i - 1]!) sorted = false;
  }
  // A stable sort: ties keep input order, as the model asks.
  return sorted ? order : order.sort((a, b) => times[a]! - times[b]! || a - b);
}

/**
 * Validates (when needed) and indexes a tape for simulation. Index once, simulate many times.
 * The swap objects are kept as given (not copied): do not change them afterwards.
 *
 * @example
 * const indexed = indexTape(JSON.parse(fs.readFileSync('tape.json', 'utf8')));
 * const a = simulate(indexed, requestA);
 * const b = simulate(indexed, requestB);
 */
export function indexTape(input: TapeInput | Tape | IndexedTape): IndexedTape {
  if (isIndexedTape(input)) return input;
  const tape = validateTape(input);
  const { network, swaps } = tape;
  const order = eventOrder(swaps);

  const walletIds = new Map<string, number>();
  const tokens = new TokenTable(network, tape.tokens);
  const walletOf = new Uint32Array(swaps.length);
  const tokenOf = new Uint32Array(swaps.length);
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const swap = swaps[i]!;
    const walletKey = addressKey(network, swap.wallet);
    let w = walletIds.get(walletKey);
    if (w === undefined) walletIds.set(walletKey, (w = walletIds.size));
    walletOf[i] = w;
    tokenOf[i] = tokens.intern(swap.token);
  }

  return {
    kind: 'indexed-tape',
    network,
    swaps,
    order,
    walletOf,
    tokenOf,
    walletIds,
    tokens: tokens.list,
    native: new NativePriceSeries(tape.native_prices),
  };
}
