/**
 * The profile summariser of tools/profile: a function's part of the code, and the time of each
 * part, hand-summed.
 */
import { describe, expect, it } from 'vitest';
import { areaOf, areasOf, type CpuProfile } from '../../tools/profile/profile-areas.js';

describe('profile-areas', () => {
  it('names the part of the code a function lies in', () => {
    expect(areaOf('copyBuy', 'file:///work/main/dist/src/engine/replay.js')).toBe('src/engine');
    expect(areaOf('add', 'file:///repo/src/numeric/decimal40-add.ts')).toBe('src/numeric');
    expect(areaOf('simulate', 'file:///repo/dist/src/simulate.js')).toBe('src');
    expect(areaOf('swap', 'file:///repo/dist/src/io/parquet/row-group.js')).toBe('src/io');
    expect(areaOf('x', 'file:///repo/node_modules/pkg/src/a/b.js')).toBe('node_modules/pkg');
    expect(areaOf('(garbage collector)', '')).toBe('garbage collector');
    expect(areaOf('(idle)', '')).toBe('idle');
    expect(areaOf('readFileSync', 'node:fs')).toBe('node and native code');
    expect(areaOf('parse', 'file:///repo/node_modules/zod/v4/core/parse.js')).toBe('node_modules/zod');
    expect(areaOf('x', 'file:///repo/node_modules/@scope/pkg/index.js')).toBe('node_modules/@scope/pkg');
    expect(areaOf('(anonymous)', 'file:///repo/dist/bench/run.js')).toBe('other');
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
