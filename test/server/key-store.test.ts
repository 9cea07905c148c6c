import { readFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { InputError, KeyStore, SCHEMA_VERSION } from './support/api.js';

const clock = { now: () => 1_700_000_000 };
const dirs: string[] = [];
function dbFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'copysim-keys-'));
  dirs.push(dir);
  return join(dir, 'keys.db');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('KeyStore', () => {
  it('stores a key only as its hash', () => {
    const file = dbFile();
    const store = KeyStore.open(file, clock);
    const { key, record } = store.create({ credits: 5, label: 'ci' });
    expect(key).toMatch(/^cs_[A-Za-z0-9_-]{43}$/); // 32 random bytes in base64url
    expect(record).toEqual({
      id: 1,
      prefix: key.slice(0, 9),
      label: 'ci',
      credits: 5,
      disabled: false,
      createdAt: 1_700_000_000,
      rate: null,
    });
    expect(store.findByKey(key)?.id).toBe(1);
    expect(store.findByKey(`${key}x`)).toBeUndefined();
    store.close();
    const bytes = [file, `${file}-wal`]
      .filter(existsSync)
      .map((f) => readFileSync(f).toString('latin1'))
      .join('');
    expect(bytes).not.toContain(key);
    expect(bytes).not.toContain(key.slice(9)); // not even the part after the shown prefix
  });

  // One key through a sequence of operations; each step's outcome and balance after it.
  it('charges, tops up and disables, with a ledger row per change', () => {
    const store = KeyStore.open(':memory:', clock);
    const { record } = store.create({ credits: 23 });
    const id = record.id;
    const steps: Array<[string, () => unknown, unknown, number]> = [
      ['charge 10', () => store.charge(id, 10, 'simulate'), { ok: true, remaining: 13 }, 13], // 23 − 10
      ['charge 10', () => store.charge(id, 10, 'simulate'), { ok: true, remaining: 3 }, 3], // 13 − 10
      [
        'charge 10 with 3',
        () => store.charge(id, 10, 'simulate'),
        { ok: false, code: 'insufficient_credits', remaining: 3 },
        3,
      ],
      ['top up 7', () => store.topUp(id, 7).credits, 10, 10], // 3 + 7
      ['disable', () => store.setDisabled(id, true).disabled, true, 10],
      ['charge 1 disabled', () => store.charge(id, 1, 'deals'), { ok: false, code: 'key_disabled' }, 10],
      ['enable', () => store.setDisabled(id, false).disabled, false, 10],
      ['charge 5', () => store.charge(id, 5, 'wallets'), { ok: true, remaining: 5 }, 5], // 10 − 5
      ['charge unknown key', () => store.charge(99, 1, 'deals'), { ok: false, code: 'unknown_key' }, 5],
    ];
    for (const [name, run, outcome, balance] of steps) {
      expect(run(), name).toEqual(outcome);
      expect(store.get(id)!.credits, name).toBe(balance);
    }
    expect(store.ledger(id).map((r) => [r.kind, r.operation, r.delta, r.balanceAfter])).toEqual([
      ['grant', null, 23, 23],
      ['charge', 'simulate', -10, 13],
      ['charge', 'simulate', -10, 3],
      ['top_up', null, 7, 10],
      ['charge', 'wallets', -5, 5],
    ]);
    expect(store.list()[0]).toMatchObject({ credits: 5, spent: 25 }); // 10 + 10 + 5
    store.close();
  });

  it.each([
    [
      'create with −1 credits',
      (s: KeyStore) => s.create({ credits: -1 }),
      'credits must be a whole number ≥ 0, got -1',
    ],
    [
      'create with 1.5 credits',
      (s: KeyStore) => s.create({ credits: 1.5 }),
      'credits must be a whole number ≥ 0, got 1.5',
    ],
    ['top up 0', (s: KeyStore) => s.topUp(1, 0), 'credits must be a whole number ≥ 1, got 0'],
    ['top up an unknown key', (s: KeyStore) => s.topUp(9, 5), 'no key with id 9'],
    ['disable an unknown key', (s: KeyStore) => s.setDisabled(9, true), 'no key with id 9'],
    [
      'top up past 2^53 − 1',
      (s: KeyStore) => s.topUp(1, Number.MAX_SAFE_INTEGER),
      'key 1: a balance above 9007199254740991 credits is not supported',
    ],
  ])('%s is an InputError', (_name, run, message) => {
    const store = KeyStore.open(':memory:', clock);
    store.create({ credits: 1 });
    let error: unknown;
    try {
      run(store);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(message);
    expect(store.ledger(1)).toHaveLength(1); // only the grant
    store.close();
  });

  it('keeps the balance equal to the sum of the ledger and never below 0 (property)', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('charge' as const), cost: fc.integer({ min: 1, max: 10 }) }),
      fc.record({ kind: fc.constant('top_up' as const), cost: fc.integer({ min: 1, max: 30 }) }),
      fc.record({ kind: fc.constant('toggle' as const), cost: fc.constant(0) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50 }), fc.array(op, { maxLength: 40 }), (initial, ops) => {
        const store = KeyStore.open(':memory:', clock);
        const { record } = store.create({ credits: initial });
        let balance = initial;
        let disabled = false;
        for (const o of ops) {
          if (o.kind === 'charge') {
            const outcome = store.charge(record.id, o.cost, 'deals');
            const expected = !disabled && balance >= o.cost;
            expect(outcome.ok).toBe(expected);
            if (expected) balance -= o.cost;
          } else if (o.kind === 'top_up') {
            store.topUp(record.id, o.cost);
            balance += o.cost;
          } else {
            disabled = !disabled;
            store.setDisabled(record.id, disabled);
          }
        }
        const ledger = store.ledger(record.id);
        expect(store.get(record.id)!.credits).toBe(balance);
        expect(ledger.reduce((sum, r) => sum + r.delta, 0)).toBe(balance);
        expect(ledger.every((r) => r.balanceAfter >= 0)).toBe(true);
        store.close();
      }),
      { numRuns: 60 },
    );
  });
});

describe('schema migrations', () => {
  it('creates the schema once and records its version', () => {
    const file = dbFile();
    KeyStore.open(file, clock).close();
    const again = KeyStore.open(file, clock); // a second open finds nothing to do
    // synchronous = FULL (2): a charge is on disk before its answer leaves.
    expect((again as unknown as { db: Database.Database }).db.pragma('synchronous', { simple: true })).toBe(2);
    again.close();
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT version FROM schema_version').all()).toEqual([{ version: SCHEMA_VERSION }]);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('refuses a database of a newer schema', () => {
    const file = dbFile();
    KeyStore.open(file, clock).close();
    const db = new Database(file);
    db.prepare('UPDATE schema_version SET version = ?').run(SCHEMA_VERSION + 1);
    db.close();
    expect(() => KeyStore.open(file, clock)).toThrow(
      `the key database is at schema version ${SCHEMA_VERSION + 1}, newer than this copysim knows (${SCHEMA_VERSION})`,
    );
  });

  it('names the file it cannot open', () => {
    expect(() => KeyStore.open('/nonexistent-folder/keys.db', clock)).toThrow(
      /^key database \/nonexistent-folder\/keys\.db: /,
    );
  });
});
