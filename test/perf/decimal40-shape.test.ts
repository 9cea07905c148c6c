/**
 * What keeps Decimal40 cheap in V8, checked with V8's own introspection in a child node started
 * with `--allow-natives-syntax`: every value, however it was made, has one object shape, and its
 * limbs are stored as small integers, not as boxed numbers (six more allocations a value: see
 * `Raw` in src/numeric/decimal40-parts.ts). A regression here changes no result, only the
 * speed, so no other test would notice it.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ensureBuild } from '../server/support/build.js';

/** Runs `script` (an ES module that may use V8 natives) and gives what it printed. */
function natives(script: string): string {
  const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`the child node failed: ${run.stderr}`);
  return run.stdout;
}

describe('Decimal40 in V8', () => {
  it('one object shape and small-integer fields, whatever made the value (exact sums included)', async () => {
    const { dir } = await ensureBuild();
    const module = pathToFileURL(join(dir, 'dist/src/numeric/decimal40.js')).href;
    const parts = pathToFileURL(join(dir, 'dist/src/numeric/decimal40-parts.js')).href;
    const exactSum = pathToFileURL(join(dir, 'dist/src/numeric/exact-sum.js')).href;
    const out = natives(`
      const { Decimal40, ZERO40 } = await import(${JSON.stringify(module)});
      const { decimal40 } = await import(${JSON.stringify(parts)});
      const { ExactSum } = await import(${JSON.stringify(exactSum)});
      const sum = new ExactSum();
      sum.addProduct(new Decimal40('123.4567'), new Decimal40('1.9950556e-7'));
      sum.add(new Decimal40('1e-45'), -1);
      const positive = sum.value();
      sum.add(new Decimal40('1e60'), -1);
      const negative = sum.value();
      const a = new Decimal40('1234.5678').div(new Decimal40(3));
      const made = {
        'a string': new Decimal40('0.000123456789012345678901234567890123456789'),
        'a number': new Decimal40(412.49),
        'an integer': new Decimal40(35866),
        'plus': a.plus(new Decimal40('0.1')),
        'minus, cancelling': a.minus(a.plus(new Decimal40('1e-30'))),
        'times': a.times(a),
        'times by one limb': a.times(new Decimal40('0.5')),
        'times by two limbs': a.times(new Decimal40('1.9950556e-7')),
        'div': a.div(new Decimal40(7)),
        'neg': a.neg(),
        'zero': ZERO40,
        'decimal40()': decimal40(1, 0, 10000, 0, 0, 0, 0, 0),
        'an exact sum': positive,
        'a negative exact sum': negative,
      };
      for (const [how, d] of Object.entries(made)) {
        console.log(how + ': same shape ' + %HaveSameMap(d, a));
      }
      %DebugPrint(a);
    `);
    for (const line of out.split('\n').filter((l) => l.includes('same shape')))
      expect(line).toMatch(/same shape true$/);
    expect(out.split('\n').filter((l) => l.includes('same shape'))).toHaveLength(14);
    // V8 prints an unboxed small integer field as its value, a boxed one as `<HeapNumber …>`.
    // The shape is shared: one value made with a fractional or boxed exponent anywhere (an exact
    // sum's reading, say) would box the exponent of every value.
    for (const field of ['s', 'e', 'c0', 'c1', 'c2', 'c3', 'c4', 'c5']) {
      expect(out, `field ${field} stored as a small integer`).toMatch(new RegExp(`#${field}: -?\\d+ \\(`));
    }
    expect(out).not.toContain('HeapNumber');
  });
});
