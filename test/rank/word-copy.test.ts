import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexTape } from '../../src/engine/tape-index.js';
import { candidateWallets, copyWallets, rankContext, rankRequest } from '../../src/rank/rank.js';
import { wordCopyOf } from '../../src/rank/word-copy.js';
import { prepare } from '../../src/simulate.js';
import { scenarioArb } from '../support/arbitraries.js';

describe('rows in double words', () => {
  it('on generated tapes: every decided row is the exact row', () => {
    let decided = 0;
    let all = 0;
    fc.assert(
      fc.property(scenarioArb({}, 40), (s) => {
        const { parsed, engineOptions } = prepare(rankRequest(s.request, undefined), s.options);
        const context = rankContext(indexTape(s.tape), parsed, engineOptions);
        const candidates = candidateWallets(context, undefined);
        const exact = copyWallets(context, candidates, undefined, undefined, false);
        const words = wordCopyOf(context);
        candidates.forEach(({ id }, k) => {
          all++;
          const row = words.row(id);
          if (row === null) return;
          decided++;
          const { own: _own, wallet: _wallet, ...rest } = exact[k]!;
          expect({ ...row }).toEqual(rest);
        });
      }),
      { numRuns: 150 },
    );
    console.log(`decided ${decided} of ${all}`);
  });
});
