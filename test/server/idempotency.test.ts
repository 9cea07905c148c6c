/**
 * `Idempotency-Key` on the charging operations (IETF httpapi draft): the first answer of a key is
 * stored with its charge for 24 hours; a retry of the same request gets it again, marked
 * `Idempotent-Replayed: true`, and is not charged; the key with another request is a 422; a retry
 * while the first still runs is a 409. Keys are per API key. On both ledgers, in-process (a
 * simulation held open at will, a clock that jumps a day).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger, simulate, type Ledger } from './support/api.js';
import type { Answer } from './support/http.js';
import { GatedSimulator, inProcessService, send } from './support/in-process.js';
import { LEDGERS, postgresDatabase, usePostgres } from './support/ledgers.js';
import { SOL_LEADER, SOL_REQUEST, SOL_TAPE } from './support/tapes.js';

usePostgres();

const SIM = '/v1/wallets/simulator';
const READ = `/v1/wallets/${SOL_LEADER}/indicators?network=sol`;
const opened: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

describe.each(LEDGERS)('Idempotency-Key, %s ledger', (kind) => {
  const clock = { now: 1_700_000_000 };

  async function setup(credits = 1000) {
    const db = kind === 'sqlite' ? ':memory:' : await postgresDatabase();
    const ledger: Ledger = await openLedger(db, { now: () => clock.now });
    opened.push(ledger);
    const simulator = new GatedSimulator();
    const app = inProcessService({ ledger, simulator });
    opened.push(app);
    const { key, record } = await ledger.create({ credits });
    const charges = async () => (await ledger.ledger(record.id)).filter((r) => r.kind === 'charge');
    return { ledger, simulator, app, key, id: record.id, charges };
  }

  const withKey = (value: string) => ({ 'idempotency-key': value });
  const replayed = (answer: Answer) => answer.headers.get('idempotent-replayed');

  it('a retry of the same request gets the first answer, marked replayed, charged once', async () => {
    const { app, key, ledger, id, charges, simulator } = await setup();
    const first = await send(app, 'POST', SIM, { key, body: SOL_REQUEST, headers: withKey('"sim-1"') });
    expect(first.status).toBe(200);
    expect(first.text).toBe(JSON.stringify(simulate(SOL_TAPE, SOL_REQUEST)));
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(first.headers.get('x-credits-remaining')).toBe('990');
    // The bare form of the same key (as many clients send it) is the same key.
    const again = await send(app, 'POST', SIM, { key, body: SOL_REQUEST, headers: withKey('sim-1') });
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect([again.headers.get('x-credits-spent'), again.headers.get('x-credits-remaining')]).toEqual(['10', '990']);
    expect(simulator.runs).toBe(1); // not run again
    expect((await ledger.get(id))!.credits).toBe(990);
    const rows = (await charges()).map((r) => [r.operation, r.delta, r.idempotencyKey]);
    expect(rows).toEqual([['simulate', -10, 'sim-1']]);

    // A read in the envelope: the same bytes, the same credits.
    const read = await send(app, 'GET', READ, { key, headers: withKey('read-1') });
    const reread = await send(app, 'GET', READ, { key, headers: withKey('read-1') });
    expect(read.json.credits).toEqual({ spent: 1, remaining: 989 });
    expect([reread.status, reread.text, reread.headers.get('idempotent-replayed')]).toEqual([200, read.text, 'true']);
    expect((await ledger.get(id))!.credits).toBe(989);
  });

  it('the same key with another request is a 422, and charges nothing', async () => {
    const { app, key, ledger, id } = await setup();
    expect((await send(app, 'POST', SIM, { key, body: SOL_REQUEST, headers: withKey('k') })).status).toBe(200);
    const other = await send(app, 'POST', SIM, { key, body: { ...SOL_REQUEST, bribe: 0.01 }, headers: withKey('k') });
    expect(other.status).toBe(422);
    expect(other.json.code).toBe('idempotency_key_reused');
    const elsewhere = await send(app, 'GET', READ, { key, headers: withKey('k') });
    expect(elsewhere.status).toBe(422);
    expect((await ledger.get(id))!.credits).toBe(990);
  });

  it('a retry while the first request runs is a 409 with Retry-After; once it is done, a replay', async () => {
    const { app, key, simulator, charges } = await setup();
    const open = simulator.close();
    const first = send(app, 'POST', SIM, { key, body: SOL_REQUEST, headers: withKey('slow') });
    while (simulator.runs === 0) await new Promise((r) => setTimeout(r, 5));
    const during = await send(app, 'POST', SIM, { key, body: SOL_REQUEST, headers: withKey('slow') });
    expect(during.status).toBe(409);
    expect(during.json.code).toBe('idempotency_key_in_use');
    expect(during.headers.get('retry-after')).toBe('1');
    // Another request under the running key is still the 422 it is.
    const otherBody = { ...SOL_REQUEST, bribe: 0.01 };
    const other = await send(app, 'POST', SIM, { key, body: otherBody, headers: withKey('slow') });
    expect(other.status).toBe(422);
    open();
    expect((await first).status).toBe(200);
    const after = await send(app, 'POST', SIM, { key, body: SOL_REQUEST, headers: withKey('slow') });
    expect([after.status, after.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(await charges()).toHaveLength(1);
  });

  it('keys are per API key: the same Idempotency-Key of another API key is its own request', async () => {
    const { app, key, ledger } = await setup();
    const other = await ledger.create({ credits: 100 });
    expect((await send(app, 'POST', SIM, { key, body: SOL_REQUEST, headers: withKey('shared') })).status).toBe(200);
    const theirs = await send(app, 'POST', SIM, { key: other.key, body: SOL_REQUEST, headers: withKey('shared') });
    expect([theirs.status, replayed(theirs), theirs.headers.get('x-credits-remaining')]).toEqual([200, null, '90']);
  });

  it('stores no failure: a request refused for credits runs anew after a top-up; a replay needs none', async () => {
    const { app, key, ledger, id } = await setup(5);
    const refused = await send(app, 'POST', SIM, { key, body: SOL_REQUEST, headers: withKey('later') });
    expect([refused.status, refused.json.code]).toEqual([403, 'insufficient_credits']);
    await ledger.topUp(id, 5);
    const ran = await send(app, 'POST', SIM, { key, body: SOL_REQUEST, headers: withKey('later') });
    expect([ran.status, ran.headers.get('x-credits-remaining')]).toEqual([200, '0']);
    const replay = await send(app, 'POST', SIM, { key, body: SOL_REQUEST, headers: withKey('later') });
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']); // with 0 credits left
  });

  it('keeps a stored answer 24 hours: after that the key runs, and is charged, again', async () => {
    const { app, key, charges } = await setup();
    await send(app, 'POST', SIM, { key, body: SOL_REQUEST, headers: withKey('day') });
    clock.now += 24 * 3600 - 1;
    const sameDay = await send(app, 'POST', SIM, { key, body: SOL_REQUEST, headers: withKey('day') });
    expect(replayed(sameDay)).toBe('true');
    clock.now += 1;
    const fresh = await send(app, 'POST', SIM, { key, body: SOL_REQUEST, headers: withKey('day') });
    expect([fresh.status, replayed(fresh), fresh.headers.get('x-credits-remaining')]).toEqual([200, null, '980']);
    expect(await charges()).toHaveLength(2);
  });

  it.each([
    ['empty', ''],
    ['an empty quoted string', '""'],
    ['not ASCII', 'é'],
    ['256 characters', 'x'.repeat(256)],
  ])('an Idempotency-Key %s is a 400, before anything runs', async (_name, value) => {
    const { app, key, simulator } = await setup();
    const answer = await send(app, 'POST', SIM, { key, body: SOL_REQUEST, headers: withKey(value) });
    expect([answer.status, answer.json.code]).toEqual([400, 'invalid_idempotency_key']);
    expect(simulator.runs).toBe(0);
  });
});
