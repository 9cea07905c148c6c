import { afterEach, describe, expect, it, vi } from 'vitest';
import { KEY_STATUS_MAX_AGE_MS, openLedger, SqliteLedger, type AnswerToStore, type Ledger } from './support/api.js';
import { HAS_POSTGRES, LEDGERS, postgresDatabase, testLedger, usePostgres } from './support/ledgers.js';

usePostgres();

const opened: Ledger[] = [];
afterEach(async () => {
  for (const ledger of opened.splice(0)) await ledger.close();
});

describe.each(LEDGERS)('holds and charges of the %s ledger', (kind) => {
  async function setup(credits: number) {
    const ledger = await testLedger(kind === 'sqlite' ? ':memory:' : await postgresDatabase());
    opened.push(ledger);
    const { record } = await ledger.create({ credits });
    return { ledger, id: record.id };
  }

  async function held(ledger: Ledger, id: number, cost: number) {
    const outcome = await ledger.hold(id, cost);
    if (!outcome.ok) throw new Error(`hold of ${cost} refused: ${outcome.code}`);
    return outcome.hold;
  }

  it('holds credits of requests in flight, so a key cannot start more than it can pay for', async () => {
    const { ledger, id } = await setup(15);
    const first = await held(ledger, id, 10);
    // 15 − 10 held = 5 available, less than 10.
    expect(await ledger.hold(id, 10)).toEqual({ ok: false, code: 'insufficient_credits', remaining: 5 });
    const small = await held(ledger, id, 5); // exactly the 5 left
    expect(await ledger.hold(id, 1)).toEqual({ ok: false, code: 'insufficient_credits', remaining: 0 });
    await ledger.release(first);
    await ledger.release(small);
    await ledger.release(small); // a second release is harmless
    expect((await ledger.hold(id, 15)).ok).toBe(true); // the released 15 are available again
  });

  it('charges on success: one ledger row, the hold let go', async () => {
    const { ledger, id } = await setup(15);
    const hold = await held(ledger, id, 10);
    expect(await ledger.charge(hold, 'simulate')).toEqual({ ok: true, remaining: 5 }); // 15 − 10
    await ledger.release(hold); // after its charge: nothing to let go
    expect((await ledger.ledger(id)).filter((r) => r.kind === 'charge')).toHaveLength(1);
    expect((await ledger.hold(id, 5)).ok).toBe(true); // the charged hold holds nothing more
  });

  it('refuses the charge of a key disabled while its request ran, charging nothing', async () => {
    const { ledger, id } = await setup(15);
    const hold = await held(ledger, id, 1);
    await ledger.setDisabled(id, true);
    expect(await ledger.charge(hold, 'deals')).toEqual({ ok: false, code: 'key_disabled' });
    expect((await ledger.get(id))!.credits).toBe(15);
    await ledger.setDisabled(id, false);
    expect((await ledger.hold(id, 15)).ok).toBe(true); // the refused charge let go of its hold
  });

  it('refuses a hold on a disabled key, and on an unknown one', async () => {
    const { ledger, id } = await setup(15);
    await ledger.setDisabled(id, true);
    expect(await ledger.hold(id, 1)).toEqual({ ok: false, code: 'key_disabled' });
    expect(await ledger.hold(id + 1, 1)).toEqual({ ok: false, code: 'unknown_key' });
  });

  it('sees a top-up made by another connection at once', async () => {
    const { ledger, id } = await setup(3);
    expect((await ledger.hold(id, 10)).ok).toBe(false);
    await ledger.topUp(id, 7);
    const hold = await held(ledger, id, 10);
    expect(await ledger.charge(hold, 'simulate')).toEqual({ ok: true, remaining: 0 }); // 3 + 7 − 10
  });

  it('charges work done at once without a hold, by the conditional update alone', async () => {
    const { ledger, id } = await setup(12);
    const hold = await held(ledger, id, 10); // a simulation in flight holds 10
    // remaining: the balance, not what the simulation holds
    expect(await ledger.chargeUnheld(id, 1, 'deals')).toEqual({ ok: true, remaining: 11 });
    expect(await ledger.chargeUnheld(id, 5, 'wallets')).toEqual({ ok: true, remaining: 6 });
    const short = { ok: false, code: 'insufficient_credits', remaining: 6 };
    expect(await ledger.chargeUnheld(id, 7, 'wallets')).toEqual(short);
    expect(await ledger.charge(hold, 'simulate')).toEqual(short);
    expect((await ledger.ledger(id)).filter((r) => r.kind === 'charge').map((r) => r.delta)).toEqual([-1, -5]);
  });

  it('charges several holds at once, each checked on its own, and the countdown has no gap', async () => {
    const { ledger, id } = await setup(25);
    const holds = [await held(ledger, id, 10), await held(ledger, id, 10), await held(ledger, id, 5)];
    await ledger.topUp(id, 1); // 26 now: charges take the balance at commit, the holds only guard it
    const results = await Promise.all(holds.map((h) => ledger.charge(h, 'simulate')));
    const remaining = results.map((r) => (r.ok ? r.remaining : -1)).sort((a, b) => b - a);
    expect(remaining).toEqual([16, 6, 1]); // 26 − 10 = 16, − 10 = 6, − 5 = 1
    const rows = (await ledger.ledger(id)).filter((r) => r.kind === 'charge');
    expect(rows.map((r) => r.balanceAfter).sort((a, b) => b - a)).toEqual([16, 6, 1]);
  });

  it('charges of several keys at once are each checked against what the ones before them left', async () => {
    const { ledger, id: a } = await setup(6);
    const b = (await ledger.create({ credits: 3 })).record.id;
    const off = (await ledger.create({ credits: 3 })).record.id;
    await ledger.setDisabled(off, true);
    const charges: Array<[number, number]> = [
      [a, 5],
      [b, 1],
      [a, 5], // 1 left: short
      [a, 1], // a smaller one after it still fits
      [b, 5],
      [off, 1],
      [off + 1, 1],
    ];
    // In one turn: one batch (one transaction).
    const results = await Promise.all(charges.map(([id, cost]) => ledger.chargeUnheld(id, cost, 'wallets')));
    expect(results).toEqual([
      { ok: true, remaining: 1 },
      { ok: true, remaining: 2 },
      { ok: false, code: 'insufficient_credits', remaining: 1 },
      { ok: true, remaining: 0 },
      { ok: false, code: 'insufficient_credits', remaining: 2 },
      { ok: false, code: 'key_disabled' },
      { ok: false, code: 'unknown_key' },
    ]);
    const charged = async (id: number) =>
      (await ledger.ledger(id)).filter((r) => r.kind === 'charge').map((r) => [r.delta, r.balanceAfter]);
    expect(await charged(a)).toEqual([
      [-5, 1],
      [-1, 0],
    ]);
    expect(await charged(b)).toEqual([[-1, 2]]);
    expect(await charged(off)).toEqual([]);
    expect([(await ledger.get(a))!.credits, (await ledger.get(b))!.credits]).toEqual([0, 2]);
  });

  it("gives a key's status for a request, fresh after this ledger's own changes", async () => {
    const { ledger, id } = await setup(5);
    const { key } = await ledger.create({ credits: 1, rate: { perSecond: 3, perMinute: null } });
    expect(await ledger.recentKey(key)).toEqual({
      id: id + 1,
      disabled: false,
      rate: { perSecond: 3, perMinute: null },
    });
    await ledger.setDisabled(id + 1, true);
    await ledger.setRate(id + 1, null);
    expect(await ledger.recentKey(key)).toMatchObject({ id: id + 1, disabled: true, rate: null });
    expect(await ledger.recentKey(`${key}x`)).toBeUndefined();
  });
});

describe.skipIf(!HAS_POSTGRES)('the PostgreSQL ledger', () => {
  it("keeps a key's status at most a second: another instance's disable reaches it by then", async () => {
    const db = await postgresDatabase();
    const [one, other] = [await testLedger(db), await testLedger(db)];
    opened.push(one, other);
    const { key, record } = await one.create({ credits: 5 });
    expect(await one.recentKey(key)).toMatchObject({ disabled: false });
    const keptUntil = Date.now() + KEY_STATUS_MAX_AGE_MS;
    await other.setDisabled(record.id, true);
    const kept = await one.recentKey(key);
    if (Date.now() < keptUntil) expect(kept).toMatchObject({ disabled: false }); // what it read a moment ago
    // Its charges read the database: a disabled key is charged nothing.
    expect(await one.chargeUnheld(record.id, 1, 'deals')).toEqual({ ok: false, code: 'key_disabled' });
    await new Promise((resolve) => setTimeout(resolve, KEY_STATUS_MAX_AGE_MS + 50));
    expect(await one.recentKey(key)).toMatchObject({ disabled: true });
  });

  it('charges nothing under a claim another request took over (its lease ran out)', async () => {
    const db = await postgresDatabase();
    const first = await openLedger(db, { now: () => 1_700_000_000, leaseSeconds: 1 });
    const second = await testLedger(db);
    opened.push(first, second);
    const { record } = await first.create({ credits: 5 });
    const lost = await first.claim(record.id, 'run-1', 'same request');
    if (lost.state !== 'claimed') throw new Error(lost.state);
    await first.close(); // its instance dies: no one renews the claim's lease
    expect(await second.claim(record.id, 'run-1', 'same request')).toEqual({ state: 'running' });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const taken = await second.claim(record.id, 'run-1', 'same request');
    if (taken.state !== 'claimed') throw new Error(taken.state);
    const answer = (claim: AnswerToStore['claim']): AnswerToStore => ({ claim, body: '{}', headers: {} });
    const [late, now] = await Promise.all([
      second.chargeUnheld(record.id, 1, 'deals', answer(lost.claim)),
      second.chargeUnheld(record.id, 1, 'deals', answer(taken.claim)),
    ]);
    expect(late).toEqual({ ok: false, code: 'claim_lost' });
    expect(now).toEqual({ ok: true, remaining: 4 });
    expect((await second.ledger(record.id)).filter((r) => r.kind === 'charge')).toHaveLength(1);
  });
});

describe('the SQLite ledger', () => {
  it('commits the charges of one turn together, in order (group commit)', async () => {
    const ledger = SqliteLedger.open(':memory:', { now: () => 1_700_000_000 });
    opened.push(ledger);
    const { record } = await ledger.create({ credits: 25 });
    const holds = await Promise.all(
      [10, 10, 5].map(async (cost) => {
        const outcome = await ledger.hold(record.id, cost);
        if (!outcome.ok) throw new Error(outcome.code);
        return outcome.hold;
      }),
    );
    expect(ledger.totalHeld).toBe(25);
    const commits = vi.spyOn(ledger.store, 'chargeAll');
    const results = await Promise.all(holds.map((h) => ledger.charge(h, 'simulate')));
    expect(commits).toHaveBeenCalledTimes(1); // one transaction for the three
    expect(results).toEqual([
      { ok: true, remaining: 15 },
      { ok: true, remaining: 5 },
      { ok: true, remaining: 0 },
    ]);
    expect(ledger.totalHeld).toBe(0);
  });
});
