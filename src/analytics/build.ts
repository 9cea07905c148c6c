import { indexTape, type IndexedTape } from '../engine/tape-index.js';
import type { Network } from '../model/request.js';
import type { Tape, TapeInput } from '../model/tape.js';
import { SwapBuckets } from './buckets.js';
import { followWallet, followWallets, type FollowerDeal } from './following.js';
import { resolveAnalyticsOptions, type AnalyticsOptions, type ResolvedAnalyticsOptions } from './options.js';
import type { PeriodKey } from './periods.js';
import { periodTotals, type DealTotals } from './totals.js';
import { computeOwnDeals } from './own-deals.js';

/** What the index keeps of each wallet with at least one swap up to now. */
export interface WalletSummary {
  readonly id: number;
  /** The address as its first swap spells it. */
  readonly address: string;
  /** The `initial` totals of each period key at now. */
  readonly totals: Readonly<Record<PeriodKey, DealTotals>>;
  /** Sells made while the wallet held none of the token: ignored. */
  readonly ignoredSells: number;
  /** Sells of more than the wallet held: only the held part counted. */
  readonly oversoldSells: number;
}

/** The sells the deal rules could not take as they were (see docs/analytics.md). */
export interface AnalyticsWarnings {
  /** Sells while the wallet held none of the token: ignored. */
  readonly ignored_sells: number;
  /** Sells of more than the wallet held: only the held part counted. */
  readonly oversold_sells: number;
}

/** The key an address compares by: exact on `sol`, case-insensitive on `eth` (model 1.1). */
export function addressKey(network: Network, address: string): string {
  return network === 'eth' ? address.toLowerCase() : address;
}

/**
 * A tape indexed for the wallet analytics: swaps grouped by wallet and token, every wallet's
 * own (`initial`) totals per period, and the follower's (`following`) deals computed on first
 * use per wallet and kept. Build once with {@link buildAnalyticsIndex}, query many times.
 */
export class AnalyticsIndex {
  readonly kind = 'analytics-index';
  private readonly followers = new Map<number, FollowerDeal[]>();
  private readonly tokenIds = new Map<string, number>();
  /** Wallet ids in list order, cached per sort (see wallet-list.ts). */
  readonly sortedLists = new Map<string, readonly number[]>();

  constructor(
    readonly tape: IndexedTape,
    /** The analytics' "now", seconds: swaps after it are left out. */
    readonly now: number,
    readonly options: ResolvedAnalyticsOptions,
    readonly buckets: SwapBuckets,
    /** By wallet id; undefined for a wallet without swaps up to now. */
    readonly wallets: readonly (WalletSummary | undefined)[],
  ) {
    tape.tokens.forEach((token, id) => this.tokenIds.set(addressKey(tape.network, token.address), id));
  }

  get network(): Network {
    return this.tape.network;
  }

  /** The wallet with this address, or undefined when it made no swap up to now. */
  wallet(address: string): WalletSummary | undefined {
    const id = this.tape.walletIds.get(addressKey(this.network, address));
    return id === undefined ? undefined : this.wallets[id];
  }

  /** The interned id of a token of the tape. */
  tokenId(address: string): number {
    const id = this.tokenIds.get(addressKey(this.network, address));
    if (id === undefined) throw new Error(`internal: token ${address} is not in the tape`);
    return id;
  }

  /**
   * The follower's deals copying `wallet` alone up to event position `end` (default: now);
   * computed once per wallet for now, afresh for an earlier end.
   */
  follower(wallet: WalletSummary, end: number = this.buckets.end): FollowerDeal[] {
    const atNow = end >= this.buckets.end;
    const cached = atNow ? this.followers.get(wallet.id) : undefined;
    if (cached !== undefined) return cached;
    const deals = followWallet(
      this.buckets,
      wallet.id,
      wallet.address,
      Math.min(end, this.buckets.end),
      this.options,
      (a) => this.tokenId(a),
    );
    if (atNow) this.followers.set(wallet.id, deals);
    return deals;
  }

  /**
   * {@link follower} at now for many wallets: those not yet computed are simulated together, as
   * the followers of walks of the tape (`followWallets`), and kept.
   */
  followersAtNow(wallets: readonly WalletSummary[]): FollowerDeal[][] {
    const missing = wallets.filter((w) => !this.followers.has(w.id));
    if (missing.length > 0) {
      const computed = followWallets(this.buckets, missing, this.buckets.end, this.options, (a) => this.tokenId(a));
      missing.forEach((w, k) => this.followers.set(w.id, computed[k]!));
    }
    return wallets.map((w) => this.followers.get(w.id)!);
  }
}

/**
 * Indexes a tape for the wallet analytics in one pass: swaps up to "now" grouped by wallet and
 * token, then every wallet's own deals and their totals per period, each wallet from its own
 * swaps only. The `following` side is simulated lazily, per wallet asked for.
 *
 * Throws an {@link InputError} when the tape or the options cannot be used.
 *
 * @example
 * const index = buildAnalyticsIndex(tape, { now: 1_700_000_000 });
 * walletIndicators(index, 'Wallet1111', { network: 'sol' }).indicators.pnl_total['24h'];
 */
export function buildAnalyticsIndex(
  tape: TapeInput | Tape | IndexedTape,
  options: AnalyticsOptions = {},
): AnalyticsIndex {
  const resolved = resolveAnalyticsOptions(options);
  const indexed = indexTape(tape);
  const { order, swaps } = indexed;
  const now = resolved.now ?? (order.length === 0 ? 0 : swaps[order[order.length - 1]!]!.time);
  const buckets = new SwapBuckets(indexed, now);
  const wallets: (WalletSummary | undefined)[] = new Array(indexed.walletIds.size).fill(undefined);
  for (let id = 0; id < wallets.length; id++) {
    const positions = buckets.walletPositions(id);
    if (positions.length === 0) continue;
    const result = computeOwnDeals(buckets, id, buckets.end, false);
    wallets[id] = {
      id,
      address: buckets.swapAt(positions[0]!).wallet,
      totals: periodTotals(result.deals, now),
      ignoredSells: result.ignoredSells,
      oversoldSells: result.oversoldSells,
    };
  }
  return new AnalyticsIndex(indexed, now, resolved, buckets, wallets);
}

/**
 * The sells the deal rules set aside, for one wallet (by address) or the whole tape.
 *
 * @example
 * analyticsWarnings(index, 'Wallet1111'); // { ignored_sells: 1, oversold_sells: 0 }
 */
export function analyticsWarnings(index: AnalyticsIndex, address?: string): AnalyticsWarnings {
  const wallets = address === undefined ? index.wallets : [index.wallet(address)];
  let ignored = 0;
  let oversold = 0;
  for (const w of wallets) {
    ignored += w?.ignoredSells ?? 0;
    oversold += w?.oversoldSells ?? 0;
  }
  return { ignored_sells: ignored, oversold_sells: oversold };
}
