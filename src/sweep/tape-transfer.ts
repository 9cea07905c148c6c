import { deserialize, serialize } from 'node:v8';
import type { DecimalInput } from '../numeric/decimal.js';
import { NativePriceSeries } from '../engine/native-prices.js';
import type { IndexedTape } from '../engine/tape-index.js';

/** An {@link IndexedTape} as plain data: what the structured-clone format can carry. */
type TapeParts = Omit<IndexedTape, 'kind' | 'native'> & {
  readonly nativePoints: readonly (readonly [number, DecimalInput])[];
};

/**
 * Serialises an indexed tape once, into memory every worker thread can read: each worker
 * then copies it out with {@link unpackTape}, in parallel, instead of the main thread cloning
 * it once per worker. No parsing, validation or sorting happens again.
 */
export function packTape(tape: IndexedTape): SharedArrayBuffer {
  const parts: TapeParts = {
    network: tape.network,
    swaps: tape.swaps,
    order: tape.order,
    walletOf: tape.walletOf,
    tokenOf: tape.tokenOf,
    walletIds: tape.walletIds,
    tokens: tape.tokens,
    nativePoints: tape.native.points,
  };
  const bytes = serialize(parts);
  const shared = new SharedArrayBuffer(bytes.length);
  new Uint8Array(shared).set(bytes);
  return shared;
}

/** The indexed tape of a {@link packTape} buffer. */
export function unpackTape(shared: SharedArrayBuffer): IndexedTape {
  const parts = deserialize(Buffer.from(shared)) as TapeParts;
  return {
    kind: 'indexed-tape',
    network: parts.network,
    swaps: parts.swaps,
    order: parts.order,
    walletOf: parts.walletOf,
    tokenOf: parts.tokenOf,
    walletIds: parts.walletIds,
    tokens: parts.tokens,
    native: new NativePriceSeries(parts.nativePoints),
  };
}
