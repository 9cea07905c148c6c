/**
 * A JSON tape read for a rank as rows by parts (`src/rank/tape-rows.ts`): the rows, the wallets
 * and the rank are those of the tape indexed, however the swaps are cut; a tape the parts cannot
 * take (out of time order, a swap the check refuses, a cut inside a string) is read whole.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SimulatorRequestInput, TapeInput } from '../../src/index.js';
import { indexTape } from '../../src/engine/tape-index.js';
import { readJsonTapeLayout } from '../../src/io/json-tape/layout.js';
import { nextSeparator } from '../../src/io/json-tape/blocks.js';
import { readTapeFile } from '../../src/io/read-tape.js';
import { rankWallets } from '../../src/rank/pipeline.js';
import { candidateWallets, rankContext, rankRequest } from '../../src/rank/rank.js';
import {
  joinParts,
  planTapeParts,
  readTapePart,
  takeParts,
  type PartReading,
  type RowsTape,
  type TapePlan,
} from '../../src/rank/tape-rows.js';
import { wordCopyOf } from '../../src/rank/word-copy.js';
import { turnCounters } from '../../src/rank/turns.js';
import { ROW } from '../../src/rank/word-rows.js';
import { prepare } from '../../src/simulate.js';
import { suggestRequest } from '../../src/import.js';
import { scenarioArb } from '../support/arbitraries.js';
import { present, REAL_DATA_DIR } from '../support/paths.js';
import { REAL_TAPES } from '../support/real-tapes.js';
import { cli } from '../support/cli.js';
import { at, buy, FREE_OPTIONS, LEADER_A, LEADER_B, request, sell, tape, TOKEN_X } from '../support/scenario.js';

const DIR = mkdtempSync(join(tmpdir(), 'copysim-tape-rows-'));
let files = 0;

/** The tape written as a JSON file, as copysim writes one (the swaps last). */
function written(t: TapeInput): string {
  const path = join(DIR, `tape-${files++}.json`);
  const { swaps, ...header } = t;
  writeFileSync(path, JSON.stringify({ ...header, swaps }, null, 1));
  return path;
}

/** The swaps sorted by time (a stable sort), as the parts take only a tape in time order. */
function inTimeOrder(t: TapeInput): TapeInput {
  return { ...t, swaps: [...t.swaps].sort((a, b) => a.time - b.time) };
}

/** Every part of the plan read in this thread, in the order a thread takes them. */
function readings(plan: TapePlan): PartReading[] {
  const read: PartReading[] = [];
  takeParts(plan, 0, (index, reading) => (read[index] = reading));
  return read;
}

/** The tape at `path` read as rows in parts of at least `least` bytes on `threads` threads' worth of parts. */
function byParts(path: string, threads: number, least: number, readWhole = () => readTapeFile(path)): RowsTape | null {
  const plan = planTapeParts(path, threads, least);
  expect(plan).not.toBeNull();
  return joinParts(plan!, readings(plan!), readWhole);
}

/** The bytes of the first `doubles` doubles: NaN payloads and signed zeros compared too. */
function bytesOf(rows: Float64Array, doubles: number): Buffer {
  return Buffer.from(rows.buffer, rows.byteOffset, Float64Array.BYTES_PER_ELEMENT * doubles);
}

/** The context of a rank of `t` (indexed) and of the same tape read as rows. */
function bothContexts(t: TapeInput, rows: RowsTape, r: SimulatorRequestInput) {
  const { parsed, engineOptions } = prepare(rankRequest(r, undefined), FREE_OPTIONS);
  return {
    indexed: rankContext(indexTape(t), parsed, engineOptions),
    asRows: rankContext(rows, parsed, engineOptions),
  };
}

describe('a tape read as rows by parts', () => {
  it('has the rows, the grouping and the wallets of the tape indexed, however it is cut', () => {
    fc.assert(
      fc.property(scenarioArb({}, 60), fc.integer({ min: 1, max: 6 }), (s, threads) => {
        const t = inTimeOrder(s.tape);
        const path = written(t);
        // Parts of at least 64 bytes: a few swaps each, so most tapes are cut several times.
        const rows = byParts(path, threads, 64)!;
        const { indexed, asRows } = bothContexts(t, rows, s.request);
        expect(rows.count).toBe(t.swaps.length);
        expect([...rows.walletIds]).toEqual([...indexed.tape.walletIds]);
        const end = indexed.rows.end;
        expect(asRows.rows.end).toBe(end);
        expect(bytesOf(asRows.rows.rows, end * ROW).equals(bytesOf(indexed.rows.rows, end * ROW))).toBe(true);
        const { layout, series } = asRows.rows.shared;
        const { walletStart, walletPos, tokenStart } = indexed.rows.shared.layout;
        expect(layout).toEqual({ walletStart, walletPos, tokenStart });
        expect(Buffer.from(series.buffer).equals(Buffer.from(indexed.rows.shared.series.buffer))).toBe(true);
        expect(candidateWallets(asRows, undefined)).toEqual(candidateWallets(indexed, undefined));
      }),
      { numRuns: 150 },
    );
  });

  it('ranks as the tape indexed; a wallet the rows leave undecided reads the tape whole, once', () => {
    // LEADER_A's deal has a PnL of exactly 0, which double words cannot tell from a tiny gain or
    // loss: it is copied exactly, from the tape read whole. LEADER_B's is decided.
    const t = tape([
      buy(LEADER_A, TOKEN_X, at(1), 10, 10),
      buy(LEADER_B, TOKEN_X, at(2), 10, 10),
      sell(LEADER_A, TOKEN_X, at(3), 10, 10),
      sell(LEADER_B, TOKEN_X, at(4), 10, 12),
    ]);
    const r = request({ wallets: [LEADER_A], buy_percentage: 50 });
    const path = written(t);
    let wholeReads = 0;
    const rows = byParts(path, 2, 16, () => {
      wholeReads++;
      return readTapeFile(path);
    })!;
    const options = { engineOptions: FREE_OPTIONS };
    expect(rankWallets(rows, r, options)).toEqual(rankWallets(t, r, options));
    expect(wholeReads).toBe(1);
    expect(rankWallets(rows, r, { ...options, wallets: [LEADER_B] })).toEqual(
      rankWallets(t, r, { ...options, wallets: [LEADER_B] }),
    );
    expect(wholeReads).toBe(1);
  });

  it('ranks every wallet as the tape indexed on generated tapes, reading it whole only for an undecided one', () => {
    let allDecided = 0;
    fc.assert(
      fc.property(scenarioArb({}, 40), (s) => {
        const t = inTimeOrder(s.tape);
        const path = written(t);
        let wholeReads = 0;
        const rows = byParts(path, 3, 64, () => {
          wholeReads++;
          return readTapeFile(path);
        })!;
        const r = { ...s.request, strategy: null };
        expect(JSON.stringify(rankWallets(rows, r, { engineOptions: s.options }))).toBe(
          JSON.stringify(rankWallets(t, r, { engineOptions: s.options })),
        );
        const { parsed, engineOptions } = prepare(rankRequest(r, undefined), s.options);
        const context = rankContext(rows, parsed, engineOptions);
        const words = wordCopyOf(context);
        const decided = candidateWallets(context, undefined).every(
          ({ id }) => words.row(id) !== null && words.own(id) !== null,
        );
        if (decided) {
          allDecided++;
          expect(wholeReads).toBe(0);
        }
      }),
      { numRuns: 100 },
    );
    expect(allDecided).toBeGreaterThan(20);
  });
});

describe('the real tapes read in parts', () => {
  const available = present(REAL_DATA_DIR);
  if (!available) console.warn(`real tapes read in parts skipped: ${REAL_DATA_DIR} is absent on this machine`);
  it.skipIf(!available).each(REAL_TAPES.map(([name, load]) => [name, load] as const))(
    'rank as the tape indexed, their undecided wallets copied from the tape read whole: %s',
    (_name, load) => {
      const t = inTimeOrder(load().tape);
      const path = written(t);
      expect(planTapeParts(path, 4, 4096)!.parts.length).toBeGreaterThan(4);
      let wholeReads = 0;
      const rows = byParts(path, 4, 4096, () => {
        wholeReads++;
        return readTapeFile(path);
      })!;
      const r = suggestRequest(t, 5)!;
      expect(JSON.stringify(rankWallets(rows, r))).toBe(JSON.stringify(rankWallets(t, r)));
      // Some of their wallets are not decided in double words (docs/rank.md): read whole once.
      expect(wholeReads).toBe(1);
    },
  );
});

describe('a tape the parts do not take is read whole', () => {
  const swaps = [
    buy(LEADER_A, TOKEN_X, at(1), 10, 10),
    buy(LEADER_B, TOKEN_X, at(2), 10, 10),
    sell(LEADER_A, TOKEN_X, at(3), 10, 12),
    sell(LEADER_B, TOKEN_X, at(4), 10, 12),
  ];

  it('swaps out of time order, within a part or across two', () => {
    const path = written(tape([swaps[2]!, swaps[0]!, swaps[1]!, swaps[3]!]));
    for (const threads of [1, 4]) expect(byParts(path, threads, 16)).toBeNull();
  });

  it('a swap the check refuses, or a part that does not parse', () => {
    const bad = { ...swaps[3]!, usd_price: -1 };
    expect(byParts(written(tape([...swaps.slice(0, 3), bad])), 4, 16)).toBeNull();
    const path = written(tape(swaps));
    const text = readFileSync(path, 'latin1');
    writeFileSync(path, text.replace('"sell"', '"sell",,'));
    expect(byParts(path, 4, 16)).toBeNull();
  });

  it('a cut inside a string: both parts refuse it', () => {
    const path = written(tape(swaps.map((s) => ({ ...s, transaction_hash: 'x},{y' }))));
    const layout = readJsonTapeLayout(path)!;
    const inString = readFileSync(path, 'latin1').indexOf('x},{y');
    const comma = nextSeparator(path, inString, layout.bodyEnd);
    expect(comma).toBe(inString + 2);
    const plan = planTapeParts(path, 1)!;
    const cut: TapePlan = {
      ...plan,
      parts: [
        { from: layout.bodyStart, to: comma },
        { from: comma + 1, to: layout.bodyEnd },
      ],
      counters: turnCounters(2),
    };
    const both = readings(cut);
    expect(both.every((part) => 'refused' in part)).toBe(true);
    expect(joinParts(cut, both, () => readTapeFile(path))).toBeNull();
    expect(readTapePart(path, plan.parts[0]!, 'sol')).toMatchObject({ count: 4 });
  });

  it('not a JSON tape whose swaps come last, or a header the schema refuses', () => {
    const first = join(DIR, 'swaps-first.json');
    const t = tape(swaps);
    writeFileSync(first, JSON.stringify({ swaps: t.swaps, network: t.network }));
    expect(planTapeParts(first, 2)).toBeNull();
    const badHeader = written({ ...t, network: 'btc' as 'sol' });
    expect(planTapeParts(badHeader, 2)).toBeNull();
    expect(planTapeParts(join(DIR, 'tape.jsonl'), 2)).toBeNull();
    expect(planTapeParts(join(DIR, 'no-such-tape.json'), 2)).toBeNull();
  });
});

/** A tape of a few megabytes, in time order: `wallets` wallets trading `tokens` tokens, seeded. */
function largeTape(count: number): TapeInput {
  let seed = 7;
  const next = (n: number): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  const wallets = Array.from({ length: 60 }, (_, w) => `Wallet${w}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`);
  const tokens = Array.from({ length: 30 }, (_, k) => `Token${k}yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy`);
  const swaps = Array.from({ length: count }, (_, i) => {
    const token = tokens[next(tokens.length)]!;
    return {
      wallet: wallets[next(wallets.length)]!,
      token,
      type: next(3) === 0 ? ('sell' as const) : ('buy' as const),
      time: at(1) + 30 * i,
      quantity: String(1 + next(100_000)),
      usd_price: `0.${String(1 + next(999_999)).padStart(6, '0')}`,
      usd_amount: String(1 + next(500)),
      ...(next(5) === 0 ? {} : { usd_liquidity: String(10_000 + next(1_000_000)) }),
      transaction_hash: `hash${i}`,
    };
  });
  return tape(swaps);
}

describe('rank --threads reads a JSON tape in parts', () => {
  const t = largeTape(14_000);
  const path = written(t);
  const requestFile = join(DIR, 'request.json');
  writeFileSync(requestFile, JSON.stringify(request({ wallets: [LEADER_A], buy_percentage: 20 })));

  it('the same rows as one thread and as the library', async () => {
    expect(planTapeParts(path, 2)!.parts.length).toBeGreaterThan(1);
    const args = ['rank', '--tape', path, '--request', requestFile, '--format', 'jsonl'];
    const one = await cli(...args, '--threads', '1');
    expect(one.code).toBe(0);
    expect(await cli(...args, '--threads', '2')).toEqual(one);
    const library = rankWallets(t, JSON.parse(readFileSync(requestFile, 'utf8')));
    expect(one.out).toBe(library.map((row) => `${JSON.stringify(row)}\n`).join(''));
  });

  it('a tape with a bad swap fails with the whole reading’s message', async () => {
    const bad = written({ ...t, swaps: t.swaps.map((s, i) => (i === 9_000 ? { ...s, quantity: '-3' } : s)) });
    const args = ['rank', '--tape', bad, '--request', requestFile, '--format', 'jsonl'];
    let message = '';
    try {
      readTapeFile(bad);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/swaps\[9000\]/);
    for (const threads of ['1', '2']) {
      const run = await cli(...args, '--threads', threads);
      expect(run.code).toBe(1);
      expect(run.err).toContain(message);
    }
  });
});
