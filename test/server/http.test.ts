import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulate, type Ledger } from './support/api.js';
import { cli } from '../support/cli.js';
import { ensureBuild } from './support/build.js';
import { call } from './support/http.js';
import { LEDGERS, testLedger, usePostgres } from './support/ledgers.js';
import { ledgerWorkspace, serve, type ServeProcess, type Workspace } from './support/serve.js';
import { ETH_LEADER, ETH_TAPE, SOL_REQUEST, SOL_TAPE } from './support/tapes.js';

usePostgres();

describe.each(LEDGERS)('%s ledger', (kind) => {
  const SIM = '/v1/wallets/simulator';

  let ws: Workspace;
  let server: ServeProcess;
  let ledger: Ledger;
  const keys: Record<'rich' | 'broke' | 'disabled', string> = { rich: '', broke: '', disabled: '' };

  beforeAll(async () => {
    const build = await ensureBuild();
    ws = await ledgerWorkspace(kind);
    server = await serve(build, ws);
    ledger = await testLedger(ws.db);
    keys.rich = (await ledger.create({ credits: 1000, label: 'rich' })).key;
    keys.broke = (await ledger.create({ credits: 5, label: 'broke' })).key;
    const disabled = await ledger.create({ credits: 1000, label: 'disabled' });
    await ledger.setDisabled(disabled.record.id, true);
    keys.disabled = disabled.key;
  });

  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
    await ledger?.close();
    ws?.remove();
  });

  describe('POST /v1/wallets/simulator', () => {
    it("answers the engine's response byte for byte, 10 credits in the headers", async () => {
      const before = (await ledger.authenticate(keys.rich))!.credits;
      const answer = await call(server.url, 'POST', SIM, { key: keys.rich, body: SOL_REQUEST });
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(JSON.stringify(simulate(SOL_TAPE, SOL_REQUEST)));
      expect(answer.json.deals).toHaveLength(1);
      expect(answer.headers.get('x-credits-spent')).toBe('10');
      expect(answer.headers.get('x-credits-remaining')).toBe(String(before - 10));
    });

    it('serves each network from its own tape', async () => {
      const request = { ...SOL_REQUEST, network: 'eth', wallets: [ETH_LEADER.toUpperCase().replace('0X', '0x')] };
      const answer = await call(server.url, 'POST', SIM, { key: keys.rich, body: request });
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(JSON.stringify(simulate(ETH_TAPE, request)));
      expect(answer.json.deals[0].status).toBe('open');
    });

    it('gives the same bytes for the same request', async () => {
      const a = await call(server.url, 'POST', SIM, { key: keys.rich, body: SOL_REQUEST });
      const b = await call(server.url, 'POST', SIM, { key: keys.rich, body: SOL_REQUEST });
      expect(a.text).toBe(b.text);
      expect(Number(a.headers.get('x-credits-remaining')) - 10).toBe(Number(b.headers.get('x-credits-remaining')));
    });
  });

  // Each row: what is sent, and the status and code expected. Nothing of these is charged.
  const STATUS_CASES: ReadonlyArray<{
    name: string;
    method: string;
    path: string;
    key?: keyof typeof keys | 'unknown';
    body?: unknown;
    raw?: string;
    contentType?: string;
    status: number;
    code: string;
  }> = [
    { name: 'no key', method: 'POST', path: SIM, body: SOL_REQUEST, status: 401, code: 'unauthorized' },
    {
      name: 'an unknown key',
      method: 'POST',
      path: SIM,
      key: 'unknown',
      body: SOL_REQUEST,
      status: 401,
      code: 'unauthorized',
    },
    {
      name: 'a disabled key',
      method: 'POST',
      path: SIM,
      key: 'disabled',
      body: SOL_REQUEST,
      status: 403,
      code: 'key_disabled',
    },
    {
      name: 'a disabled key and a bad body (key first)',
      method: 'POST',
      path: SIM,
      key: 'disabled',
      body: {},
      status: 403,
      code: 'key_disabled',
    },
    {
      name: '5 credits for a 10-credit operation',
      method: 'POST',
      path: SIM,
      key: 'broke',
      body: SOL_REQUEST,
      status: 403,
      code: 'insufficient_credits',
    },
    {
      name: 'too few credits and a bad body (input first)',
      method: 'POST',
      path: SIM,
      key: 'broke',
      body: {},
      status: 400,
      code: 'validation_error',
    },
    {
      name: 'an empty object',
      method: 'POST',
      path: SIM,
      key: 'rich',
      body: {},
      status: 400,
      code: 'validation_error',
    },
    { name: 'no body at all', method: 'POST', path: SIM, key: 'rich', status: 400, code: 'validation_error' },
    {
      name: 'from_date after to_date',
      method: 'POST',
      path: SIM,
      key: 'rich',
      body: { ...SOL_REQUEST, from_date: '2024-03-11', to_date: '2024-03-10' },
      status: 400,
      code: 'invalid_date_range',
    },
    {
      name: 'no such calendar day',
      method: 'POST',
      path: SIM,
      key: 'rich',
      body: { ...SOL_REQUEST, to_date: '2024-02-30' },
      status: 400,
      code: 'invalid_date_range',
    },
    {
      name: 'bad JSON',
      method: 'POST',
      path: SIM,
      key: 'rich',
      raw: '{"wallets": [',
      status: 400,
      code: 'validation_error',
    },
    {
      name: 'a text/plain body',
      method: 'POST',
      path: SIM,
      key: 'rich',
      raw: '{}',
      contentType: 'text/plain',
      status: 415,
      code: 'unsupported_media_type',
    },
    {
      name: 'a body over 64 KiB',
      method: 'POST',
      path: SIM,
      key: 'rich',
      raw: JSON.stringify({ ...SOL_REQUEST, pad: 'x'.repeat(70_000) }),
      status: 413,
      code: 'body_too_large',
    },
    { name: 'an unknown route', method: 'GET', path: '/v1/nothing', key: 'rich', status: 404, code: 'not_found' },
    {
      name: 'a known path with the wrong method',
      method: 'GET',
      path: SIM,
      key: 'rich',
      status: 405,
      code: 'method_not_allowed',
    },
    {
      name: 'HEAD of a read (never charged for a body it does not get)',
      method: 'HEAD',
      path: '/v1/wallets/x/indicators?network=sol',
      key: 'rich',
      status: 405,
      code: 'method_not_allowed',
    },
    {
      name: 'a path outside /v1',
      method: 'POST',
      path: '/wallets/simulator',
      key: 'rich',
      body: SOL_REQUEST,
      status: 404,
      code: 'not_found',
    },
  ];

  describe('statuses', () => {
    it.each(STATUS_CASES)('$name → $status $code', async (c) => {
      const before = (await ledger.list()).map((k) => k.credits);
      const key = c.key === undefined ? undefined : c.key === 'unknown' ? 'cs_not-a-key' : keys[c.key];
      const answer = await call(server.url, c.method, c.path, {
        ...(key !== undefined ? { key } : {}),
        ...(c.body !== undefined ? { body: c.body } : {}),
        ...(c.raw !== undefined ? { raw: c.raw } : {}),
        ...(c.contentType !== undefined ? { contentType: c.contentType } : {}),
      });
      expect(answer.status).toBe(c.status);
      if (c.method !== 'HEAD') expect(answer.json.code).toBe(c.code); // a HEAD answer has no body
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await ledger.list()).map((k) => k.credits)).toEqual(before);
    });

    it('names the problem and its path in a 400', async () => {
      const answer = await call(server.url, 'POST', SIM, { key: keys.rich, body: { ...SOL_REQUEST, wallets: [] } });
      expect(answer.json).toEqual({
        code: 'validation_error',
        detail: [{ path: 'wallets', message: 'Too small: expected array to have >=1 items' }],
      });
      const bad = await call(server.url, 'POST', SIM, { key: keys.rich, raw: '{"wallets": [' });
      expect(bad.json.detail[0].path).toBe('');
      expect(bad.json.detail[0].message).toMatch(/^the body is not valid JSON/);
    });

    it('validates the strategy member with the same schema: a 400 with its path, not charged', async () => {
      const before = (await ledger.list()).map((k) => k.credits);
      const levels = [
        { roi: 50, sell_percent: 50 },
        { roi: 50, sell_percent: 100 },
      ];
      const answer = await call(server.url, 'POST', SIM, {
        key: keys.rich,
        body: { ...SOL_REQUEST, strategy: { take_profit: levels } },
      });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({
        code: 'validation_error',
        detail: [
          {
            path: 'strategy.take_profit[1].roi',
            message: "must be greater than the previous level's roi (strictly increasing)",
          },
        ],
      });
      const misspelt = await call(server.url, 'POST', SIM, {
        key: keys.rich,
        body: { ...SOL_REQUEST, strategy: { stop_loss: 20 } },
      });
      expect(misspelt.json.detail).toEqual([
        { path: 'strategy.stop_loss', message: 'unknown member "stop_loss": did you mean "stop_loss_percent"?' },
      ]);
      expect((await ledger.list()).map((k) => k.credits)).toEqual(before);
    });

    it('answers a request with a strategy as the engine does, skipped copies included', async () => {
      const body = {
        ...SOL_REQUEST,
        strategy: { copy_delay_seconds: 30, stop_loss_percent: 20, report_skipped: true },
      };
      const answer = await call(server.url, 'POST', SIM, { key: keys.rich, body });
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(JSON.stringify(simulate(SOL_TAPE, body)));
      expect(Array.isArray(answer.json.skipped_copies)).toBe(true);
    });

    it('says how many credits were required and remain', async () => {
      const answer = await call(server.url, 'POST', SIM, { key: keys.broke, body: SOL_REQUEST });
      expect(answer.json).toEqual({ code: 'insufficient_credits', detail: { required: 10, remaining: 5 } });
    });
  });

  describe('credits', () => {
    it('charges only successes, one ledger row each, and sees top-ups at once', async () => {
      const { key, record } = await ledger.create({ credits: 23, label: 'arithmetic' });
      const sim = (body: unknown = SOL_REQUEST) => call(server.url, 'POST', SIM, { key, body });
      const remaining = async (body?: unknown) => {
        const a = await sim(body);
        return [a.status, a.headers.get('x-credits-remaining') ?? a.json.code] as const;
      };
      expect(await remaining()).toEqual([200, '13']); // 23 − 10
      expect(await remaining()).toEqual([200, '3']); // 13 − 10
      expect(await remaining({ ...SOL_REQUEST, bribe: -1 })).toEqual([400, 'validation_error']); // free
      expect(await remaining()).toEqual([403, 'insufficient_credits']); // 3 < 10
      const topUp = await cli('keys', 'top-up', '--id', String(record.id), '--credits', '7', '--db', ws.db);
      expect(topUp).toMatchObject({ code: 0, out: `key ${record.id}: 10 credits\n` }); // 3 + 7
      expect(await remaining()).toEqual([200, '0']); // 10 − 10
      expect((await ledger.ledger(record.id)).map((r) => [r.kind, r.operation, r.delta, r.balanceAfter])).toEqual([
        ['grant', null, 23, 23],
        ['charge', 'simulate', -10, 13],
        ['charge', 'simulate', -10, 3],
        ['top_up', null, 7, 10],
        ['charge', 'simulate', -10, 0],
      ]);
    });

    it('refuses a key disabled while the server runs, and accepts it again once enabled', async () => {
      const { key, record } = await ledger.create({ credits: 20 });
      expect((await call(server.url, 'POST', SIM, { key, body: SOL_REQUEST })).status).toBe(200);
      expect((await cli('keys', 'disable', '--id', String(record.id), '--db', ws.db)).code).toBe(0);
      expect((await call(server.url, 'POST', SIM, { key, body: SOL_REQUEST })).json.code).toBe('key_disabled');
      expect((await cli('keys', 'enable', '--id', String(record.id), '--db', ws.db)).code).toBe(0);
      const again = await call(server.url, 'POST', SIM, { key, body: SOL_REQUEST });
      expect(again.headers.get('x-credits-remaining')).toBe('0'); // 20 − 10 − 10
    });
  });

  describe('GET /v1/openapi.json', () => {
    it('describes the six operations, their prices and the key header, without a key', async () => {
      const answer = await call(server.url, 'GET', '/v1/openapi.json');
      expect(answer.status).toBe(200);
      const doc = answer.json;
      expect(doc.openapi).toBe('3.1.0');
      const prices = Object.entries(doc.paths as Record<string, Record<string, { 'x-credits-cost': number }>>).flatMap(
        ([path, ops]) =>
          Object.entries(ops).map(([method, op]) => `${method.toUpperCase()} ${path} ${op['x-credits-cost']}`),
      );
      expect(prices.sort()).toEqual([
        'GET /health 0',
        'GET /v1/wallets/{address}/charts/investment_amount 1',
        'GET /v1/wallets/{address}/charts/pnl 1',
        'GET /v1/wallets/{address}/deals 1',
        'GET /v1/wallets/{address}/indicators 1',
        'POST /v1/wallets 5',
        'POST /v1/wallets/simulator 10',
      ]);
      expect(doc.components.securitySchemes.ApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    });
  });
});
