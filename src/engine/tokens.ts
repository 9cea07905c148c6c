import type { Network } from '../model/request.js';
import type { TokenMeta } from '../model/tape.js';

/**
 * A token as the engine knows it: its address as first spelled in the tape, and metadata. (A
 * simulated deal prints the spelling of the swap that opened it: `Deal.tokenAddress`.)
 */
export interface TokenInfo {
  /** Address as spelled by the token's first swap in event order. */
  readonly address: string;
  readonly name: string | null;
  readonly symbol: string | null;
  readonly meta: TokenMeta | undefined;
}

/** The key an address compares by: exact on `sol`, case-insensitive on `eth` (model 1.1). */
export function addressKey(network: Network, address: string): string {
  return network === 'eth' ? address.toLowerCase() : address;
}

/**
 * The request's wallets by address key: a swap's wallet's place among them (its leader index),
 * -1 for a wallet not followed. A wallet listed twice takes its last place.
 */
export class LeaderLookup {
  private readonly places = new Map<string, number>();

  constructor(
    private readonly network: Network,
    wallets: readonly string[],
  ) {
    wallets.forEach((wallet, leader) => this.places.set(addressKey(network, wallet), leader));
  }

  /** The place of `wallet` among the request's wallets, or -1. */
  of(wallet: string): number {
    return this.places.get(addressKey(this.network, wallet)) ?? -1;
  }
}

/**
 * Interns token addresses as small integers in the order they are first seen (event order),
 * with their metadata from the tape's `tokens`. Shared by the indexed and the streaming replay.
 */
export class TokenTable {
  readonly list: TokenInfo[] = [];
  private readonly ids = new Map<string, number>();
  private readonly metaByKey = new Map<string, TokenMeta>();

  constructor(
    private readonly network: Network,
    tokens: Readonly<Record<string, TokenMeta>>,
  ) {
    // On `eth` two keys may name one token in different cases: the first in the object wins.
    for (const [address, meta] of Object.entries(tokens)) {
      const key = addressKey(network, address);
      if (!this.metaByKey.has(key)) this.metaByKey.set(key, meta);
    }
  }

  /** The id of the token spelled `address`; a new id when it is seen for the first time. */
  intern(address: string): number {
    const key = addressKey(this.network, address);
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.list.length;
      this.ids.set(key, id);
      const meta = this.metaByKey.get(key);
      this.list.push({ address, name: meta?.name ?? null, symbol: meta?.symbol ?? null, meta });
    }
    return id;
  }
}
