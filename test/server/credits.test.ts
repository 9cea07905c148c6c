import { describe, expect, it, vi } from 'vitest';
import { CreditMeter, HttpError, KeyStore } from './support/api.js';

function setup(credits: number) {
  const store = KeyStore.open(':memory:', { now: () => 1_700_000_000 });
  const { record } = store.create({ credits });
  return { store, id: record.id, meter: new CreditMeter(store) };
}

async function refusal(run: () => unknown): Promise<{ status: number; body: unknown }> {
  try {
    await run();
  } catch (e) {
    if (e instanceof HttpError) return { status: e.statusCode, body: e.body };
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('CreditMeter', () => {
  it('holds credits of requests in flight, so a key cannot start more than it can pay for', async () => {
    const { meter, id } = setup(15);
    const first = meter.hold(id, 10);
    // 15 − 10 held = 5 available, less than 10.
    expect(await refusal(() => meter.hold(id, 10))).toEqual({
      status: 403,
      body: { code: 'insufficient_credits', detail: { required: 10, remaining: 5 } },
    });
    const small = meter.hold(id, 5); // exactly the 5 left
    expect(meter.totalHeld).toBe(15);
    first.release();
    small.release();
    expect(meter.totalHeld).toBe(0);
    expect(meter.hold(id, 10)).toBeDefined(); // the released 10 are available again
  });

  it('charges on success: one ledger row, the hold let go', async () => {
    const { meter, store, id } = setup(15);
    const hold = meter.hold(id, 10);
    expect(await hold.charge('simulate')).toEqual({ spent: 10, remaining: 5 }); // 15 − 10
    hold.release(); // a second release is harmless
    expect(meter.totalHeld).toBe(0);
    expect(store.ledger(id).filter((r) => r.kind === 'charge')).toHaveLength(1);
  });

  it('refuses the charge of a key disabled while its request ran, charging nothing', async () => {
    const { meter, store, id } = setup(15);
    const hold = meter.hold(id, 1);
    store.setDisabled(id, true);
    expect(await refusal(() => hold.charge('deals'))).toEqual({ status: 403, body: { code: 'key_disabled', detail: 'this API key is disabled' } });
    expect(store.get(id)!.credits).toBe(15);
    expect(meter.totalHeld).toBe(0);
  });

  it('refuses a hold on a disabled key', async () => {
    const { meter, store, id } = setup(15);
    store.setDisabled(id, true);
    expect((await refusal(() => meter.hold(id, 1))).status).toBe(403);
  });

  it('commits the charges of one turn together, in order, each checked on its own', async () => {
    const { meter, store, id } = setup(25);
    const holds = [meter.hold(id, 10), meter.hold(id, 10), meter.hold(id, 5)];
    store.topUp(id, 1); // 26 now: charges take the balance at commit, the holds only guard it
    const commits = vi.spyOn(store, 'chargeAll');
    const results = await Promise.all(holds.map((h) => h.charge('simulate')));
    expect(commits).toHaveBeenCalledTimes(1); // one transaction for the three
    // 26 − 10 = 16, − 10 = 6, − 5 = 1: the countdown of one transaction.
    expect(results.map((r) => r.remaining)).toEqual([16, 6, 1]);
    expect(store.ledger(id).filter((r) => r.kind === 'charge').map((r) => r.balanceAfter)).toEqual([16, 6, 1]);
    expect(meter.totalHeld).toBe(0);
  });

  it('sees a top-up made by another connection at once', async () => {
    const { meter, store, id } = setup(3);
    expect((await refusal(() => meter.hold(id, 10))).status).toBe(403);
    store.topUp(id, 7);
    expect(await meter.hold(id, 10).charge('simulate')).toEqual({ spent: 10, remaining: 0 }); // 3 + 7 − 10
  });
});
