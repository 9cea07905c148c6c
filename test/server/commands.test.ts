import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { LEDGERS, newDatabase, testLedger, usePostgres } from './support/ledgers.js';
import { SOL_TAPE } from './support/tapes.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'copysim-cmd-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

usePostgres();

describe.each(LEDGERS)('copysim keys, %s ledger', (kind) => {
  const newDb = (): Promise<string> => newDatabase(kind, join(tempDir(), 'keys.db'));

  it('create prints the key once, alone on the last line, and it is the key that works', async () => {
    const db = await newDb();
    const { code, out } = await cli('keys', 'create', '--credits', '250', '--label', 'ci', '--db', db);
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    const key = lines.at(-1)!;
    expect(key).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
    expect(lines.slice(0, -1).join('\n')).not.toContain(key);
    const ledger = await testLedger(db);
    expect(await ledger.authenticate(key)).toMatchObject({ id: 1, credits: 250, label: 'ci', rate: null });
    await ledger.close();
  });

  it('lists, tops up, disables and enables', async () => {
    const db = await newDb();
    await cli('keys', 'create', '--credits', '10', '--db', db);
    expect((await cli('keys', 'top-up', '--id', '1', '--credits', '15', '--db', db)).out).toBe('key 1: 25 credits\n'); // 10 + 15
    expect((await cli('keys', 'disable', '--id', '1', '--db', db)).out).toBe('key 1: disabled\n');
    const table = (await cli('keys', 'list', '--db', db)).out.split('\n');
    expect(table[0]).toMatch(/^id\s+prefix\s+credits\s+spent\s+status\s+rate\s+created \(UTC\)\s+label$/);
    expect(table[1]).toMatch(/^1\s+cs_\S{6}…\s+25\s+0\s+disabled\s+default\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await cli('keys', 'enable', '--id', '1', '--db', db)).out).toBe('key 1: active\n');
    const json = JSON.parse((await cli('keys', 'list', '--json', '--db', db)).out);
    expect(json).toMatchObject([{ id: 1, credits: 25, spent: 0, disabled: false, label: null, rate: null }]);
  });

  it('sets a rate limit at creation and later, and back to the default', async () => {
    const db = await newDb();
    await cli('keys', 'create', '--credits', '10', '--rate', '5/s', '--db', db);
    expect((await cli('keys', 'set', '--id', '1', '--rate', '600/min, 10/s', '--db', db)).out).toBe(
      'key 1: rate 10/s,600/min\n',
    );
    expect((await cli('keys', 'list', '--db', db)).out.split('\n')[1]).toMatch(/\sactive\s+10\/s,600\/min\s/);
    expect((await cli('keys', 'set', '--id', '1', '--rate', 'unlimited', '--db', db)).out).toBe(
      'key 1: rate unlimited\n',
    );
    expect((await cli('keys', 'set', '--id', '1', '--rate', 'default', '--db', db)).out).toBe('key 1: rate default\n');
    const json = JSON.parse((await cli('keys', 'list', '--json', '--db', db)).out);
    expect(json).toMatchObject([{ id: 1, rate: null }]);
  });

  it('takes the database from COPYSIM_DB when --db is not given', async () => {
    const db = await newDb();
    const before = process.env.COPYSIM_DB;
    process.env.COPYSIM_DB = db;
    try {
      expect((await cli('keys', 'create', '--credits', '7')).code).toBe(0);
      expect(JSON.parse((await cli('keys', 'list', '--json')).out)).toMatchObject([{ id: 1, credits: 7 }]);
    } finally {
      if (before === undefined) delete process.env.COPYSIM_DB;
      else process.env.COPYSIM_DB = before;
    }
  });

  it('says when there are no keys yet', async () => {
    const db = await newDb();
    expect((await cli('keys', 'list', '--db', db)).out).toBe(
      'no keys yet: create one with "copysim keys create --credits N"\n',
    );
  });

  it.each([
    [['keys'], 'keys needs a subcommand first: create, list, top-up, set, disable, enable'],
    [['keys', 'rotate'], 'unknown keys subcommand "rotate"'],
    [['keys', 'create'], '--credits N is needed'],
    [['keys', 'create', '--credits=-5'], '--credits must be a whole number, not "-5"'],
    [['keys', 'create', '--credits', '1e3'], '--credits must be a whole number, not "1e3"'],
    [
      ['keys', 'create', '--credits', '5', '--rate', '0/s'],
      '--rate "0/s" is not a rate: give "N/s", "N/min", both as "N/s,M/min", or "unlimited", each count at least 1',
    ],
    [['keys', 'create', '--credits', '5', '--rate', 'default'], '--rate "default" is not a rate'],
    [['keys', 'set', '--id', '1'], '--rate R is needed'],
    [['keys', 'set', '--id', '1', '--rate', '3/h'], '--rate "3/h" is not a rate'],
    [['keys', 'top-up', '--credits', '5'], '--id N is needed'],
    [['keys', 'top-up', '--id', '7', '--credits', '5'], 'no key with id 7'],
    [['keys', 'list', '--credits', '5'], 'keys list takes no --credits'],
    [['keys', 'disable', '--id', '1', '--json'], 'keys disable takes no --json'],
  ])('%j exits 1: %s', async (argv, message) => {
    const db = await newDb();
    const { code, out, err } = await cli(...argv, '--db', db);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toContain(message);
  });
});

describe('copysim serve refuses to start on unusable input', () => {
  function dataDir(files: Record<string, unknown>): string {
    const dir = join(tempDir(), 'data');
    mkdirSync(dir);
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(content));
    return dir;
  }

  it.each([
    [
      'two tapes of one network',
      { 'a.json': SOL_TAPE, 'b.json': SOL_TAPE },
      /holds two tapes of network sol: \S+a\.json and \S+b\.json; keep one per network/,
    ],
    [
      'no tape',
      { 'request.json': { wallets: [] } },
      /holds no tape \(no \*\.parquet file, no \*\.json file with "swaps"\)/,
    ],
    [
      'a tape with a bad swap',
      { 'sol.json': { ...SOL_TAPE, swaps: [{ ...SOL_TAPE.swaps[0], usd_price: -1 }] } },
      /sol\.json: tape: swap 0: swaps\[0\]\.usd_price: /,
    ],
  ])('%s', async (_name, files, message) => {
    const data = dataDir(files);
    const { code, err } = await cli('serve', '--data', data, '--db', join(tempDir(), 'keys.db'), '--port', '0');
    expect(code).toBe(1);
    expect(err).toMatch(message);
  });

  it.each([
    [['--port', '70000'], '--port must be a whole number from 0 to 65535, not "70000"'],
    [['--workers', '0'], '--workers must be a whole number from 1 to 64, not "0"'],
    [['--queue-timeout', '30'], '--queue-timeout needs --queue'],
    [
      ['--queue', 'redis://127.0.0.1:1', '--queue-timeout', '0'],
      '--queue-timeout must be a whole number from 1 to 86400, not "0"',
    ],
    [['--data', '/nonexistent-copysim-data'], 'data folder /nonexistent-copysim-data: no such folder'],
    [['--rate', '5/h'], '--rate "5/h" is not a rate'],
    [['--redis', 'http://127.0.0.1:6379'], '--redis "http://127.0.0.1:6379" is not a Redis URL'],
    [['--redis', 'redis://127.0.0.1:1'], 'cannot reach Redis at redis://127.0.0.1:1: '],
  ])('%j', async (argv, message) => {
    const { code, err } = await cli('serve', ...argv, '--db', join(tempDir(), 'keys.db'));
    expect(code).toBe(1);
    expect(err).toContain(message);
  });
});
