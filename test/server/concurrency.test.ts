import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from './support/api.js';
import { ensureBuild } from './support/build.js';
import { call } from './support/http.js';
import { LEDGERS, testLedger, usePostgres } from './support/ledgers.js';
import { ledgerWorkspace, serve, type ServeProcess, type Workspace } from './support/serve.js';
import { SOL_LEADER, SOL_REQUEST } from './support/tapes.js';

usePostgres();

describe.each(LEDGERS)('%s ledger', (kind) => {
  let ws: Workspace;
  let server: ServeProcess;
  let ledger: Ledger;

  beforeAll(async () => {
    const build = await ensureBuild();
    ws = await ledgerWorkspace(kind);
    server = await serve(build, ws);
    ledger = await testLedger(ws.db);
  });

  afterAll(async () => {
    await server?.stop();
    await ledger?.close();
    ws?.remove();
  });

  const credits = async (id: number): Promise<number> => (await ledger.get(id))!.credits;

  describe('200 concurrent requests on a key that can pay for 37', () => {
    it('simulator: exactly 37 succeed and their remaining counts down 360, 350, …, 0', async () => {
      const { key, record } = await ledger.create({ credits: 370 }); // 37 × 10
      const answers = await Promise.all(
        Array.from({ length: 200 }, () =>
          call(server.url, 'POST', '/v1/wallets/simulator', { key, body: SOL_REQUEST }),
        ),
      );
      const ok = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status !== 200);
      expect(ok).toHaveLength(37);
      expect(refused).toHaveLength(163);
      for (const a of refused) {
        expect(a.status).toBe(403);
        expect(a.json.code).toBe('insufficient_credits');
        expect(a.json.detail.required).toBe(10);
      }
      const remaining = ok.map((a) => Number(a.headers.get('x-credits-remaining'))).sort((x, y) => y - x);
      expect(remaining).toEqual(Array.from({ length: 37 }, (_, i) => 360 - 10 * i));
      expect(await credits(record.id)).toBe(0);
      const charges = (await ledger.ledger(record.id)).filter((r) => r.kind === 'charge');
      expect(charges).toHaveLength(37);
      expect(charges.map((r) => r.balanceAfter)).toEqual(remaining);
    });

    it('indicators: exactly 37 succeed and their envelopes count down 36, 35, …, 0', async () => {
      const { key, record } = await ledger.create({ credits: 37 });
      const path = `/v1/wallets/${SOL_LEADER}/indicators?network=sol`;
      const answers = await Promise.all(Array.from({ length: 200 }, () => call(server.url, 'GET', path, { key })));
      const ok = answers.filter((a) => a.status === 200);
      expect(ok).toHaveLength(37);
      expect(answers.filter((a) => a.status === 403 && a.json.code === 'insufficient_credits')).toHaveLength(163);
      const remaining = ok.map((a) => a.json.credits.remaining as number).sort((x, y) => y - x);
      expect(remaining).toEqual(Array.from({ length: 37 }, (_, i) => 36 - i));
      expect(ok.every((a) => a.json.credits.spent === 1)).toBe(true);
      expect(await credits(record.id)).toBe(0);
    });

    it('keys do not share credits: two keys drained at once each stop at their own balance', async () => {
      const a = await ledger.create({ credits: 30 }); // 3 simulations
      const b = await ledger.create({ credits: 50 }); // 5 simulations
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          call(server.url, 'POST', '/v1/wallets/simulator', { key: i % 2 === 0 ? a.key : b.key, body: SOL_REQUEST }),
        ),
      );
      const okOf = (parity: number) => answers.filter((x, i) => i % 2 === parity && x.status === 200).length;
      expect([okOf(0), okOf(1)]).toEqual([3, 5]);
      expect([await credits(a.record.id), await credits(b.record.id)]).toEqual([0, 0]);
    });
  });
});
