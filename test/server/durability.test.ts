import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { LEDGERS, testLedger, usePostgres } from './support/ledgers.js';
import { cli } from '../support/cli.js';
import { ensureBuild } from './support/build.js';
import { call } from './support/http.js';
import { ledgerWorkspace, serve, type Workspace } from './support/serve.js';
import { SOL_REQUEST } from './support/tapes.js';

usePostgres();

describe.each(LEDGERS)('%s ledger', (kind) => {
  const SIM = '/v1/wallets/simulator';
  let ws: Workspace | undefined;

  afterEach(() => {
    ws?.remove();
    ws = undefined;
  });

  describe('the key database across server lifetimes', () => {
    it('keeps balances across a restart', async () => {
      const build = await ensureBuild();
      ws = await ledgerWorkspace(kind);
      const created = await cli('keys', 'create', '--credits', '100', '--db', ws.db);
      const key = created.out.trimEnd().split('\n').at(-1)!;
      expect(key).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);

      const first = await serve(build, ws);
      for (const expected of ['90', '80', '70']) {
        const a = await call(first.url, 'POST', SIM, { key, body: SOL_REQUEST });
        expect(a.headers.get('x-credits-remaining')).toBe(expected);
      }
      expect(await first.stop()).toBe(0);

      const second = await serve(build, ws);
      const a = await call(second.url, 'POST', SIM, { key, body: SOL_REQUEST });
      expect(a.headers.get('x-credits-remaining')).toBe('60'); // 100 − 4 × 10
      expect(await second.stop()).toBe(0);
      const list = await cli('keys', 'list', '--json', '--db', ws.db);
      expect(JSON.parse(list.out)).toMatchObject([{ id: 1, credits: 60, spent: 40, disabled: false }]);
    });

    it('loses no ledger row and charges no failed request when killed mid-load', async () => {
      const build = await ensureBuild();
      ws = await ledgerWorkspace(kind);
      const initial = 1_000_000;
      const store = await testLedger(ws.db);
      const { key, record } = await store.create({ credits: initial });
      await store.close();
      const server = await serve(build, ws);

      // 12 clients in a loop; every fourth request is invalid (a 400, never charged).
      const received: number[] = [];
      let invalid = 0;
      let failed = 0;
      let stop = false;
      const client = async (c: number) => {
        for (let i = 0; !stop; i++) {
          const bad = (c + i) % 4 === 0;
          try {
            const a = await call(server.url, 'POST', SIM, {
              key,
              body: bad ? { ...SOL_REQUEST, bribe: -1 } : SOL_REQUEST,
            });
            if (a.status === 200) received.push(Number(a.headers.get('x-credits-remaining')));
            else if (a.status === 400) invalid++;
          } catch {
            failed++; // the connection died with the server
          }
        }
      };
      const clients = Array.from({ length: 12 }, (_, c) => client(c));
      const deadline = Date.now() + 60_000;
      while (received.length < 60 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      await server.kill();
      stop = true;
      await Promise.all(clients);
      expect(received.length).toBeGreaterThanOrEqual(60); // the load was running when it was killed
      expect(invalid).toBeGreaterThan(0);

      if (kind === 'sqlite') {
        const db = new Database(ws.db, { readonly: true });
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        db.close();
      }
      const reopened = await testLedger(ws.db);
      const ledger = await reopened.ledger(record.id);
      const charges = ledger.filter((r) => r.kind === 'charge');
      const balance = (await reopened.get(record.id))!.credits;
      await reopened.close();

      // Every answered charge is in the ledger; a charge without an answer is a request whose
      // connection died with the server (at most the 12 in flight).
      const charged = new Set(charges.map((r) => r.balanceAfter));
      expect(received.filter((r) => !charged.has(r))).toEqual([]);
      expect(charges.length).toBeGreaterThanOrEqual(received.length);
      expect(charges.length - received.length).toBeLessThanOrEqual(Math.min(failed, 12));
      // Only valid simulations were charged, 10 each, and the ledger sums to the balance.
      expect(charges.every((r) => r.delta === -10 && r.operation === 'simulate')).toBe(true);
      expect(balance).toBe(initial - 10 * charges.length);
      expect(ledger.reduce((sum, r) => sum + r.delta, 0)).toBe(balance);
    });
  });
});
