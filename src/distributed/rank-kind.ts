/**
 * The `rank` job kind: wallets of one tape, each copied alone with one request's settings. A
 * chunk's wallets are the followers of one walk of the tape (the local rank's own
 * `copyWallets`), so a rank on the queue gives the local rows, byte for byte. The request and
 * the engine options travel as given; the producer has validated both.
 */
import { addressKey, type IndexedTape } from '../engine/tape-index.js';
import { InputError } from '../model/errors.js';
import type { EngineOptionsInput } from '../model/options.js';
import { copyWallets, rankContext, type Candidate, type RankContext, type RankedWallet } from '../rank/rank.js';
import { checkNetwork, prepare } from '../simulate.js';
import type { JobKind } from './job.js';

/** The settings of a rank run: the request (its window and settings) and the engine options. */
export interface RankJobSettings {
  readonly request: unknown;
  readonly engineOptions: EngineOptionsInput;
}

export const rankKind: JobKind<RankJobSettings, string, RankedWallet, RankContext, Candidate> = {
  name: 'rank',
  prepare(tape, settings) {
    const { parsed, engineOptions } = prepare(settings.request, settings.engineOptions);
    checkNetwork(tape.network, parsed.network);
    return rankContext(tape, parsed, engineOptions);
  },
  accept: (context, address) => ({ accepted: candidateOf(context.tape, address) }),
  runAll: (context, candidates) => copyWallets(context, candidates).map((output) => ({ output })),
};

function candidateOf(tape: IndexedTape, address: string): Candidate {
  const id = tape.walletIds.get(addressKey(tape.network, address));
  if (id === undefined) throw new InputError(`wallet ${address} has no swap in the tape`, { source: 'wallets' });
  return { id, address };
}
