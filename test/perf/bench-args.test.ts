/**
 * The benchmark scripts' command lines: every option is checked, and a wrong one is an error
 * naming the option and its value, never a stack trace or a tape that does not validate.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GEN_ARGS, GenOptions } from '../../bench/gen.js';
import { RUN_ARGS, RunOptions } from '../../bench/run.js';
import { parseCount, scriptOptions } from '../../tools/script-args.js';
import { DEFAULT_SHAPE } from '../../bench/tape-generator.js';
import { UsageError } from '../../src/cli/usage.js';

const gen = (argv: string[]) => scriptOptions(argv, GEN_ARGS, GenOptions, 'usage');
const run = (argv: string[]) => scriptOptions(['--workers', '2', ...argv], RUN_ARGS, RunOptions, 'usage');

/** The message `f` throws, or '' when it does not throw. */
function thrown(f: () => unknown): string {
  try {
    f();
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('parseCount', () => {
  it('reads plain counts, thousands and millions', () => {
    expect(parseCount('250000')).toBe(250_000);
    expect(parseCount('250k')).toBe(250_000);
    expect(parseCount('1.5M')).toBe(1_500_000);
    expect(parseCount(' 10m ')).toBe(10_000_000);
  });

  it('refuses anything else with a usage error that quotes it', () => {
    expect(() => parseCount('many')).toThrow(UsageError);
    expect(thrown(() => parseCount('-5'))).toBe('not a count: "-5" (try 100000, 100k or 1m)');
  });
});

describe('bench:gen options', () => {
  it('reads the defaults and the short forms as the generator takes them', () => {
    expect(gen([])).toEqual({
      swaps: 1_000_000,
      leaders: 100,
      tokens: 2_000,
      wallets: 20_000,
      'leader-share': 0.5,
      days: 30,
      seed: 1,
      requests: 0,
    });
    expect(
      gen(['--swaps', '100k', '--requests', '1k', '--leader-share', '1', '--days', '0.5', '--out', 'x.jsonl']),
    ).toMatchObject({
      swaps: 100_000,
      requests: 1_000,
      'leader-share': 1,
      days: 0.5,
      out: 'x.jsonl',
    });
    expect(DEFAULT_SHAPE).toMatchObject({
      leaders: 100,
      tokens: 2_000,
      marketWallets: 20_000,
      leaderShare: 0.5,
      days: 30,
      seed: 1,
    });
  });

  it('names the option and its value when one is wrong', () => {
    expect(thrown(() => gen(['--swaps', 'abc']))).toBe('--swaps abc: expected a count such as 100000, 100k or 1m');
    expect(thrown(() => gen(['--swaps', '0']))).toBe('--swaps 0: expected at least 1');
    // No leaders or no market wallets made tapes whose swaps had no wallet.
    expect(thrown(() => gen(['--leaders', '0']))).toBe('--leaders 0: expected at least 1');
    expect(thrown(() => gen(['--wallets', '0']))).toBe('--wallets 0: expected at least 1');
    expect(thrown(() => gen(['--leader-share', '0']))).toBe('--leader-share 0: expected a share above 0');
    expect(thrown(() => gen(['--leader-share', '1.5']))).toBe('--leader-share 1.5: expected a share of at most 1');
    expect(thrown(() => gen(['--days', 'soon']))).toBe('--days soon: expected a number');
    expect(thrown(() => gen(['--seed', '2.5']))).toBe('--seed 2.5: expected a whole number');
    expect(thrown(() => gen(['--out', 'tape.csv']))).toBe(
      '--out tape.csv: expected a file name ending in .json or .jsonl',
    );
    expect(() => gen(['--swaps', 'abc'])).toThrow(UsageError);
  });

  it('refuses an unknown option', () => {
    expect(thrown(() => gen(['--swap', '10']))).toMatch(/Unknown option '--swap'/);
  });

  it('prints the usage for --help and gives no options', () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    expect(gen(['--swaps', '10', '--help'])).toBeNull();
    expect(write).toHaveBeenCalledWith('usage\n');
  });
});

describe('bench options', () => {
  it('reads the suites, rounds and workers', () => {
    expect(run([])).toEqual({ quick: false, workers: 2 });
    expect(run(['--only', 'loop, floor', '--rounds', '5', '--quick'])).toEqual({
      quick: true,
      only: ['loop', 'floor'],
      rounds: 5,
      workers: 2,
    });
  });

  it('names an unknown suite and lists the suites', () => {
    expect(thrown(() => run(['--only', 'loop,nope']))).toBe(
      '--only loop,nope: unknown suite "nope": the suites are decimal, loop, floor, rank, report, stream, sweep, distributed, columnar, importer, live, heavy',
    );
    expect(thrown(() => run(['--rounds', '0']))).toBe('--rounds 0: expected at least 1');
    expect(thrown(() => run(['--workers', 'two']))).toBe('--workers two: expected a whole number');
  });
});
