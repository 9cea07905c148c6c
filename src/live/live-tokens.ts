import type { Network } from '../model/request.js';
import type { TokenMeta } from '../model/tape.js';
import { addressKey, TokenTable, type TokenInfo } from '../engine/tokens.js';

/**
 * The tokens of a live run: ids in the order their first swap is applied (as a streamed tape
 * gives them), and their metadata as the feed brings it, at any time. The list the response
 * reads is made as a {@link TokenTable} of the metadata received would make it, so it is the one
 * `simulate` makes of a tape whose `tokens` are those.
 */
export class LiveTokens {
  /** The metadata received, merged in order (a later entry of an address replaces its earlier one). */
  readonly meta: Record<string, TokenMeta> = {};
  private readonly ids = new Map<string, number>();
  private readonly spellings: string[] = [];
  private cached: TokenInfo[] | null = null;

  constructor(private readonly network: Network) {}

  intern(address: string): number {
    const key = addressKey(this.network, address);
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.spellings.length;
      this.ids.set(key, id);
      this.spellings.push(address);
      this.cached = null;
    }
    return id;
  }

  merge(tokens: Readonly<Record<string, TokenMeta>>): void {
    Object.assign(this.meta, tokens);
    this.cached = null;
  }

  /** Each token by id: its first spelling and its metadata. */
  list(): readonly TokenInfo[] {
    if (this.cached === null) {
      const table = new TokenTable(this.network, this.meta);
      for (const address of this.spellings) table.intern(address);
      this.cached = table.list;
    }
    return this.cached;
  }
}
