import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildAnalyticsIndex,
  listWallets,
  walletDeals,
  walletIndicators,
  walletInvestmentChart,
  walletPnlChart,
  type Ledger,
} from './support/api.js';
import { ensureBuild } from './support/build.js';
import { call } from './support/http.js';
import { LEDGERS, testLedger, usePostgres } from './support/ledgers.js';
import { ledgerWorkspace, serve, type ServeProcess, type Workspace } from './support/serve.js';
import { DAY, ETH_LEADER, ETH_TAPE, SOL_LEADER, SOL_MARKET, SOL_TAPE } from './support/tapes.js';

usePostgres();

describe.each(LEDGERS)('%s ledger', (kind) => {
  let ws: Workspace;
  let server: ServeProcess;
  let ledger: Ledger;
  let key: string;
  const sol = buildAnalyticsIndex(SOL_TAPE);
  const eth = buildAnalyticsIndex(ETH_TAPE);

  beforeAll(async () => {
    const build = await ensureBuild();
    ws = await ledgerWorkspace(kind);
    server = await serve(build, ws);
    ledger = await testLedger(ws.db);
    key = (await ledger.create({ credits: 1000 })).key;
  });

  afterAll(async () => {
    await server?.stop();
    await ledger?.close();
    ws?.remove();
  });

  const wallet = `/v1/wallets/${SOL_LEADER}`;

  // Each row: a request, its price, and the library call whose result the envelope must carry.
  const OPERATIONS: ReadonlyArray<{
    name: string;
    method: string;
    path: string;
    body?: unknown;
    cost: number;
    expected: () => unknown;
  }> = [
    {
      name: 'indicators',
      method: 'GET',
      path: `${wallet}/indicators?network=sol`,
      cost: 1,
      expected: () => walletIndicators(sol, SOL_LEADER, { network: 'sol' }),
    },
    {
      name: 'indicators over a range',
      method: 'GET',
      path: `${wallet}/indicators?network=sol&from_time=${DAY}&to_time=${DAY + 7200}`,
      cost: 1,
      expected: () =>
        walletIndicators(sol, SOL_LEADER, { network: 'sol', from_time: String(DAY), to_time: String(DAY + 7200) }),
    },
    {
      name: 'pnl chart',
      method: 'GET',
      path: `${wallet}/charts/pnl?network=sol&period=24h`,
      cost: 1,
      expected: () => walletPnlChart(sol, SOL_LEADER, { network: 'sol', period: '24h' }),
    },
    {
      name: 'investment chart',
      method: 'GET',
      path: `${wallet}/charts/investment_amount?network=sol&period=12h`,
      cost: 1,
      expected: () => walletInvestmentChart(sol, SOL_LEADER, { network: 'sol', period: '12h' }),
    },
    {
      name: 'deals',
      method: 'GET',
      path: `${wallet}/deals?network=sol&per_page=5`,
      cost: 1,
      expected: () => walletDeals(sol, SOL_LEADER, { network: 'sol', per_page: '5' }),
    },
    {
      name: 'deals of a wallet without deals',
      method: 'GET',
      path: '/v1/wallets/Nobody1111111111111111111111111111111111/deals?network=sol',
      cost: 1,
      expected: () => ({ deals: [], page: { current: 1, per_page: 30 } }),
    },
    {
      name: 'eth indicators',
      method: 'GET',
      path: `/v1/wallets/${ETH_LEADER}/indicators?network=eth`,
      cost: 1,
      expected: () => walletIndicators(eth, ETH_LEADER, { network: 'eth' }),
    },
    {
      name: 'wallet list, {}',
      method: 'POST',
      path: '/v1/wallets',
      body: {},
      cost: 5,
      expected: () => listWallets(sol, {}),
    },
    {
      name: 'wallet list, no body',
      method: 'POST',
      path: '/v1/wallets',
      cost: 5,
      expected: () => listWallets(sol, {}),
    },
    {
      name: 'wallet list of eth',
      method: 'POST',
      path: '/v1/wallets',
      body: { network: 'eth' },
      cost: 5,
      expected: () => listWallets(eth, { network: 'eth' }),
    },
    {
      name: "wallet list by the follower's ROI over all",
      method: 'POST',
      path: '/v1/wallets',
      body: { sort_by: { indicator: 'roi_total', period: 'all', value: 'following' } },
      cost: 5,
      expected: () => listWallets(sol, { sort_by: { indicator: 'roi_total', period: 'all', value: 'following' } }),
    },
  ];

  describe('the wallet analytics routes', () => {
    it.each(OPERATIONS)('$name: the library result in the envelope, $cost credit(s)', async (op) => {
      const before = (await ledger.authenticate(key))!.credits;
      const answer = await call(server.url, op.method, op.path, {
        key,
        ...(op.body !== undefined ? { body: op.body } : {}),
      });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ result: op.expected(), credits: { spent: op.cost, remaining: before - op.cost } });
      expect((await ledger.authenticate(key))!.credits).toBe(before - op.cost);
    });

    it('lists the wallets by pnl_total, best first', async () => {
      const answer = await call(server.url, 'POST', '/v1/wallets', { key, body: { page: 1 } });
      // Leader: 1000 × (0.15 − 0.10) = 50 realized; Market: 500 × (0.15 − 0.12) = 15 unrealized.
      expect(answer.json.result.wallets.map((w: { address: string }) => w.address)).toEqual([SOL_LEADER, SOL_MARKET]);
      expect(answer.json.result.wallets[0].indicators.pnl_total.all.initial).toBeCloseTo(50, 9);
    });
  });

  const INVALID: ReadonlyArray<{
    name: string;
    method: string;
    path: string;
    body?: unknown;
    code: string;
    path400: string | null;
  }> = [
    { name: 'no network', method: 'GET', path: `${wallet}/indicators`, code: 'validation_error', path400: 'network' },
    {
      name: 'an unknown parameter',
      method: 'GET',
      path: `${wallet}/indicators?network=sol&colour=red`,
      code: 'validation_error',
      path400: 'colour',
    },
    {
      name: 'from_time 0',
      method: 'GET',
      path: `${wallet}/deals?network=sol&from_time=0`,
      code: 'validation_error',
      path400: 'from_time',
    },
    {
      name: 'per_page 151',
      method: 'GET',
      path: `${wallet}/deals?network=sol&per_page=151`,
      code: 'validation_error',
      path400: 'per_page',
    },
    {
      name: 'a chart without period or range',
      method: 'GET',
      path: `${wallet}/charts/pnl?network=sol`,
      code: 'period_required',
      path400: null,
    },
    {
      name: 'page 0 of the wallet list',
      method: 'POST',
      path: '/v1/wallets',
      body: { page: 0 },
      code: 'validation_error',
      path400: 'page',
    },
  ];

  describe('invalid analytics input', () => {
    it.each(INVALID)('$name → 400 $code, nothing charged', async (c) => {
      const before = (await ledger.authenticate(key))!.credits;
      const answer = await call(server.url, c.method, c.path, {
        key,
        ...(c.body !== undefined ? { body: c.body } : {}),
      });
      expect(answer.status).toBe(400);
      expect(answer.json.code).toBe(c.code);
      if (c.path400 !== null) expect(answer.json.detail[0].path).toBe(c.path400);
      expect((await ledger.authenticate(key))!.credits).toBe(before);
    });
  });

  describe('a server with only a sol tape', () => {
    it('answers a 400 on network for eth, for reads and simulations alike', async () => {
      const build = await ensureBuild();
      const solOnly = await ledgerWorkspace(kind, ['sol']);
      const only = await serve(build, solOnly);
      try {
        const own = await testLedger(solOnly.db);
        const k = (await own.create({ credits: 100 })).key;
        const read = await call(only.url, 'GET', `/v1/wallets/${ETH_LEADER}/indicators?network=eth`, { key: k });
        expect(read.status).toBe(400);
        expect(read.json.detail).toEqual([{ path: 'network', message: 'no eth tape is served here (served: sol)' }]);
        const list = await call(only.url, 'POST', '/v1/wallets', { key: k, body: {} });
        expect(list.status).toBe(200);
        expect((await own.get(1))!.credits).toBe(95); // 100 − 5 for the list; the 400 is free
        await own.close();
      } finally {
        await only.stop();
        solOnly.remove();
      }
    });
  });
});
