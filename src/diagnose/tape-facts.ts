import { addressKey, type IndexedTape } from '../engine/tape-index.js';
import { LeaderLookup } from '../engine/tokens.js';
import type { Network, SimulatorRequest, Window } from '../model/request.js';

/** What the tape holds of one followed wallet. */
export interface LeaderFacts {
  /** Its swaps in the whole tape. */
  readonly swaps: number;
  /** Its swaps inside the request's window. */
  readonly inWindow: number;
  /** Its first and last swap time; null without swaps. */
  readonly first: number | null;
  readonly last: number | null;
  /** A wallet of the tape spelt the same but for letter case (on sol, where case counts), when it has no swap. */
  readonly otherCase?: string;
}

/** The few facts of a tape that {@link diagnose} needs, gathered in one pass. */
export interface TapeFacts {
  readonly swaps: number;
  /** The earliest and latest swap time; null for an empty tape. */
  readonly first: number | null;
  readonly last: number | null;
  /** One entry a followed wallet, in the request's order. */
  readonly leaders: readonly LeaderFacts[];
}

interface MutableLeader {
  swaps: number;
  inWindow: number;
  first: number | null;
  last: number | null;
}

const emptyLeader = (): MutableLeader => ({ swaps: 0, inWindow: 0, first: null, last: null });

function count(leader: MutableLeader, time: number, window: Window): void {
  leader.swaps++;
  if (time >= window.start && time <= window.end) leader.inWindow++;
  if (leader.first === null || time < leader.first) leader.first = time;
  if (leader.last === null || time > leader.last) leader.last = time;
}

/**
 * The facts of an indexed tape for a request: one pass over the interned wallet ids, so it
 * costs a small fraction of a replay.
 */
export function tapeFacts(tape: IndexedTape, request: SimulatorRequest, window: Window): TapeFacts {
  const n = tape.swaps.length;
  const leaders = request.wallets.map(emptyLeader);
  // Request position of each interned wallet id, or -1 for a wallet not followed.
  const leaderOf = new Int32Array(tape.walletIds.size).fill(-1);
  request.wallets.forEach((wallet, j) => {
    const id = tape.walletIds.get(addressKey(tape.network, wallet));
    if (id !== undefined) leaderOf[id] = j;
  });
  for (let i = 0; i < n; i++) {
    const j = leaderOf[tape.walletOf[i]!]!;
    if (j >= 0) count(leaders[j]!, tape.swaps[i]!.time, window);
  }
  const otherCase = tape.network === 'sol' && leaders.some((l) => l.swaps === 0) ? caseFolded(tape) : null;
  return {
    swaps: n,
    first: n === 0 ? null : tape.swaps[tape.order[0]!]!.time,
    last: n === 0 ? null : tape.swaps[tape.order[n - 1]!]!.time,
    leaders: leaders.map((l, j) => {
      const near = l.swaps === 0 ? otherCase?.get(request.wallets[j]!.toLowerCase()) : undefined;
      return near === undefined ? l : { ...l, otherCase: near };
    }),
  };
}

/** The tape's wallets by their lower-case spelling (first met wins): for a followed wallet that is not there. */
function caseFolded(tape: IndexedTape): Map<string, string> {
  const byLower = new Map<string, string>();
  for (const address of tape.walletIds.keys()) {
    const lower = address.toLowerCase();
    if (!byLower.has(lower)) byLower.set(lower, address);
  }
  return byLower;
}

/**
 * Gathers {@link TapeFacts} from swaps as they stream past (a JSONL tape never held in memory).
 * It reads only `wallet` and `time`, and ignores a value without them: the stream's own check
 * rejects such a swap anyway.
 */
export class TapeFactsCollector {
  private swaps = 0;
  private first: number | null = null;
  private last: number | null = null;
  private readonly leaders: MutableLeader[];
  private readonly leaderOf: LeaderLookup;

  constructor(
    network: Network,
    request: SimulatorRequest,
    private readonly window: Window,
  ) {
    this.leaders = request.wallets.map(emptyLeader);
    this.leaderOf = new LeaderLookup(network, request.wallets);
  }

  /** `leader`: the swap's place in the request's wallets (-1: none) when the caller knows it already. */
  add(swap: unknown, leader?: number): void {
    const { wallet, time } = (swap ?? {}) as { wallet?: unknown; time?: unknown };
    if (typeof wallet !== 'string' || typeof time !== 'number') return;
    this.swaps++;
    if (this.first === null || time < this.first) this.first = time;
    if (this.last === null || time > this.last) this.last = time;
    const j = leader ?? this.leaderOf.of(wallet);
    if (j >= 0) count(this.leaders[j]!, time, this.window);
  }

  facts(): TapeFacts {
    return { swaps: this.swaps, first: this.first, last: this.last, leaders: this.leaders.map((l) => ({ ...l })) };
  }
}
