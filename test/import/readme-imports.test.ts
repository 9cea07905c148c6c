import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTapeFile } from '../../src/index.js';
import { cli } from '../support/cli.js';
import { PROJECT_ROOT, present, REAL_DATA_DIR } from '../support/paths.js';

/**
 * The README's `copysim import` commands on the real exports, run as printed (in a scratch
 * folder), and each tape they write simulated with fees: every one has native prices.
 */
const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Real data'));
/** The folders the commands name, as the README sets them (`E=…; S=…; P=…`), from the project's root. */
const variables = new Map(
  [...section.matchAll(/\b([A-Z])=(\.\.\/shared\/[^;`\s]+)/g)].map((m) => [m[1]!, resolve(PROJECT_ROOT, m[2]!)]),
);
const commands = [...section.matchAll(/^npx copysim (import .*)$/gm)].map((m) =>
  m[1]!.split(/\s+/).map((word) => word.replace(/^\$([A-Z])/, (_, name: string) => variables.get(name) ?? `$${name}`)),
);

const dir = mkdtempSync(join(tmpdir(), 'copysim-readme-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const available = present(join(REAL_DATA_DIR, 'exports'));
if (!available) console.warn(`skipping the README's import commands: ${REAL_DATA_DIR}/exports is absent`);

const day = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10);

describe('the README import commands', () => {
  it('are there, with the folders they name', () => {
    expect(commands.length).toBeGreaterThanOrEqual(5);
    expect([...variables.keys()].sort()).toEqual(['E', 'P', 'S']);
  });

  it.skipIf(!available).each(commands.map((args) => [`${args[1]} ${basename(args[2]!)}`, args] as const))(
    'import %s… writes a tape that simulates with fees',
    async (_, args) => {
      const at = args.indexOf('--out');
      const out = join(dir, args[at + 1]!);
      const imported = await cli(...args.slice(0, at), '--out', out, ...args.slice(at + 2));
      expect(imported.err).not.toMatch(/simulating with fees will fail/);
      expect(imported.code).toBe(0);
      const tape = readTapeFile(out);
      expect(tape.native.length).toBeGreaterThan(0);
      // Follow the wallets that buy (or the first one), over the tape's days, with a priority fee.
      const buyers = [...new Set(tape.swaps.filter((s) => s.type === 'buy').map((s) => s.wallet))].slice(0, 20);
      const times = tape.swaps.map((s) => s.time);
      const request = join(dir, `${args[at + 1]}.request.json`);
      writeFileSync(
        request,
        JSON.stringify({
          wallets: buyers.length > 0 ? buyers : [tape.swaps[0]!.wallet],
          network: tape.network,
          from_date: day(Math.min(...times)),
          to_date: day(Math.max(...times)),
          buy_percentage: 100,
          max_buy_amount: 100,
          max_position_amount: 500,
          priority_fee: 0.0001,
          bribe: 0,
          max_dupe_buy_times: 1,
        }),
      );
      const simulated = await cli('simulate', '--tape', out, '--request', request);
      expect(simulated.err).not.toMatch(/native_prices is empty/);
      expect(simulated.code).toBe(0);
    },
  );
});
