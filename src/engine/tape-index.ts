import type { Network } from '../model/request.js';
import { parseTape, type Swap, type Tape, type TapeInput, type TokenMeta } from '../model/tape.js';
import { NativePriceSeries } from './native-prices.js';

/** A token as the engine knows it: its address as first spelled in the tape, and metadata. */
export interface TokenInfo {
  /** Address as spelled by the token's first swap in event order. */
  readonly address: string;
  readonly name: string | null;
  readonly symbol: string | null;
  readonly meta: TokenMeta | undefined;
}

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

/** The key an address compares by: exact on `sol`, case-insensitive on `eth` (model 1.1). */
export function addressKey(network: Network, address: string): string {
  return network === 'eth' ? address.toLowerCase() : address;
}

/** True when `value` is already an {@link IndexedTape}. */
export function isIndexedTape(value: unknown): value is IndexedTape {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'indexed-tape';
}

/** Returns the input indices of `swaps` in event order: ascending time, ties in input order. */
export function eventOrder(swaps: readonly Swap[]): Uint32Array {
  const order = new Uint32Array(swaps.length);
  let sorted = true;
  for (let i = 0; i < swaps.length; i++) {
    order[i] = i;
    if (i > 0 && swaps[i]!.time < swaps[i - 1]!.time) sorted = false;
  }
  if (sorted) return order;
  // Array.prototype.sort is stable; ties keep input order, as the model asks.
  const indices = Array.from(order).sort((a, b) => swaps[a]!.time - swaps[b]!.time);
  return Uint32Array.from(indices);
}

/**
 * Validates (when needed) and indexes a tape for simulation. Index once, simulate many times.
 *
 * @example
 * const indexed = indexTape(JSON.parse(fs.readFileSync('tape.json', 'utf8')));
 * const a = simulate(indexed, requestA);
 * const b = simulate(indexed, requestB);
 */
export function indexTape(input: TapeInput | Tape | IndexedTape): IndexedTape {
  if (isIndexedTape(input)) return input;
  const tape = parseTape(input);
  const { network, swaps } = tape;
  const order = eventOrder(swaps);

  const metaByKey = new Map<string, TokenMeta>();
  for (const [address, meta] of Object.entries(tape.tokens)) metaByKey.set(addressKey(network, address), meta);

  const walletIds = new Map<string, number>();
  const tokenIds = new Map<string, number>();
  const tokens: TokenInfo[] = [];
  const walletOf = new Uint32Array(swaps.length);
  const tokenOf = new Uint32Array(swaps.length);
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const swap = swaps[i]!;
    const walletKey = addressKey(network, swap.wallet);
    let w = walletIds.get(walletKey);
    if (w === undefined) walletIds.set(walletKey, (w = walletIds.size));
    walletOf[i] = w;
    const tokenKey = addressKey(network, swap.token);
    let t = tokenIds.get(tokenKey);
    if (t === undefined) {
      t = tokens.length;
      tokenIds.set(tokenKey, t);
      const meta = metaByKey.get(tokenKey);
      tokens.push({ address: swap.token, name: meta?.name ?? null, symbol: meta?.symbol ?? null, meta });
    }
    tokenOf[i] = t;
  }

  return {
    kind: 'indexed-tape',
    network,
    swaps,
    order,
    walletOf,
    tokenOf,
    walletIds,
    tokens,
    native: new NativePriceSeries(tape.native_prices),
  };
}
