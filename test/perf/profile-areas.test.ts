/**
 * The profile summariser of tools/profile: a function's part of the code, and the time of each
 * part, hand-summed.
 */
import { describe, expect, it } from 'vitest';
import { areaOf, areasOf, type CpuProfile } from '../../tools/profile/profile-areas.js';

describe('profile-areas', () => {
  it.each([
    ['copyBuy', 'file:///work/main/dist/src/engine/replay.js', 'src/engine'],
    ['add', 'file:///repo/src/numeric/decimal40-add.ts', 'src/numeric'],
    ['simulate', 'file:///repo/dist/src/simulate.js', 'src'],
    ['swap', 'file:///repo/dist/src/io/parquet/row-group.js', 'src/io'],
    ['x', 'file:///repo/node_modules/pkg/src/a/b.js', 'node_modules/pkg'],
    ['(garbage collector)', '', 'garbage collector'],
    ['(idle)', '', 'idle'],
    ['readFileSync', 'node:fs', 'node and native code'],
    ['parse', 'file:///repo/node_modules/zod/v4/core/parse.js', 'node_modules/zod'],
    ['x', 'file:///repo/node_modules/@scope/pkg/index.js', 'node_modules/@scope/pkg'],
    ['(anonymous)', 'file:///repo/dist/bench/run.js', 'other'],
  ])('puts %s of %s in %s', (name, url, area) => {
    expect(areaOf(name, url)).toBe(area);
  });

  it("sums each area's sampled time, largest first", () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '' } },
        { id: 2, callFrame: { functionName: 'walk', url: 'file:///r/dist/src/engine/followers.js' } },
        { id: 3, callFrame: { functionName: 'add', url: 'file:///r/dist/src/numeric/decimal40-add.js' } },
        { id: 4, callFrame: { functionName: '(garbage collector)', url: '' } },
      ],
      samples: [2, 3, 2, 4, 2],
      timeDeltas: [1000, 2000, 3000, 500, 3500],
    };
    // engine 1 + 3 + 3.5 = 7.5 ms, numeric 2 ms, the collector 0.5 ms: 10 ms in all.
    expect(areasOf(profile)).toEqual([
      { area: 'src/engine', ms: 7.5, share: 0.75 },
      { area: 'src/numeric', ms: 2, share: 0.2 },
      { area: 'garbage collector', ms: 0.5, share: 0.05 },
    ]);
  });

  it('names a sample of a node the profile does not have', () => {
    const profile: CpuProfile = { nodes: [], samples: [7], timeDeltas: [10] };
    expect(() => areasOf(profile)).toThrow('sample 0 names node 7, which the profile does not have');
  });
});
