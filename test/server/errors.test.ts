/**
 * The service names every mistake in its `{code, detail}` body (docs/errors.md): an address that
 * cannot exist (400 invalid_address, not charged), a wrong method (405 with Allow), a body over
 * the limit (413 naming it), a path parameter too long (414), a badly encoded URL; the warnings
 * of a simulation travel in the X-Copysim-Warnings header; GET /health needs no key; a busy port
 * is one line naming it.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WarningSchema, type Ledger } from './support/api.js';
import { ensureBuild, type Build } from './support/build.js';
import { call } from './support/http.js';
import { LEDGERS, testLedger, usePostgres } from './support/ledgers.js';
import { ledgerWorkspace, serve, workspace, type ServeProcess, type Workspace } from './support/serve.js';
import { ETH_LEADER, SOL_LEADER, SOL_REQUEST } from './support/tapes.js';

usePostgres();

describe.each(LEDGERS)('%s ledger', (kind) => {
  let build: Build;
  let ws: Workspace;
  let server: ServeProcess;
  let ledger: Ledger;
  let key = '';

  beforeAll(async () => {
    build = await ensureBuild();
    ws = await ledgerWorkspace(kind);
    server = await serve(build, ws);
    ledger = await testLedger(ws.db);
    key = (await ledger.create({ credits: 1000, label: 'errors' })).key;
  });

  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
    await ledger?.close();
    ws?.remove();
  });

  const credits = async (): Promise<number> => (await ledger.authenticate(key))!.credits;

  describe('addresses of the analytics reads', () => {
    it.each([
      { name: 'a path climbing out', address: '..%2F..', shown: '"../.."' },
      { name: 'an emoji', address: encodeURIComponent('🚀'), shown: '"🚀"' },
      { name: 'too short', address: 'abc', shown: '"abc"' },
      { name: 'a 0 (not base58)', address: `0${SOL_LEADER.slice(1)}`, shown: `"0${SOL_LEADER.slice(1)}"` },
      { name: 'an eth address on sol', address: ETH_LEADER, shown: `"${ETH_LEADER}"` },
    ])('sol, $name → 400 invalid_address, not charged', async ({ address, shown }) => {
      const before = await credits();
      const answer = await call(server.url, 'GET', `/v1/wallets/${address}/indicators?network=sol`, { key });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({
        code: 'invalid_address',
        detail: `${shown} cannot be a sol address: expected base58 of 32 to 44 characters (digits 1-9 and letters but 0, O, I and l)`,
      });
      expect(await credits()).toBe(before);
    });

    it('eth: 0x and 40 hex digits; a sol address is refused there', async () => {
      const answer = await call(server.url, 'GET', `/v1/wallets/${SOL_LEADER}/deals?network=eth`, { key });
      expect(answer.json).toEqual({
        code: 'invalid_address',
        detail: `"${SOL_LEADER}" cannot be a eth address: expected 0x and 40 hex digits`,
      });
      const upper = await call(
        server.url,
        'GET',
        `/v1/wallets/${ETH_LEADER.toUpperCase().replace('0X', '0x')}/deals?network=eth`,
        { key },
      );
      expect(upper.status).toBe(200);
    });

    it('a well-formed address with no swaps answers as before, and is charged', async () => {
      const before = await credits();
      const answer = await call(
        server.url,
        'GET',
        '/v1/wallets/Nobody1111111111111111111111111111111111/deals?network=sol',
        { key },
      );
      expect(answer.status).toBe(200);
      expect(answer.json.result.deals).toEqual([]);
      expect(await credits()).toBe(before - 1);
    });
  });

  describe('framework errors in {code, detail}', () => {
    it('a 5,000-character address: 414 uri_too_long', async () => {
      const answer = await call(server.url, 'GET', `/v1/wallets/${'a'.repeat(5000)}/indicators?network=sol`, { key });
      expect(answer.status).toBe(414);
      expect(answer.json).toEqual({
        code: 'uri_too_long',
        detail: 'a path parameter is over 100 characters; a wallet address has at most 44',
      });
    });

    it('a % not followed by two hex digits: 400 bad_url', async () => {
      const answer = await call(server.url, 'GET', '/v1/wallets/%E0%A4%A/indicators?network=sol', { key });
      expect(answer.status).toBe(400);
      expect(answer.json.code).toBe('bad_url');
    });

    it('a body over the limit: 413 naming the limit', async () => {
      const answer = await call(server.url, 'POST', '/v1/wallets/simulator', {
        key,
        raw: JSON.stringify({ ...SOL_REQUEST, pad: 'x'.repeat(70_000) }),
      });
      expect(answer.status).toBe(413);
      expect(answer.json).toEqual({
        code: 'body_too_large',
        detail: 'the body is over the limit of 65536 bytes (64 KiB); a simulator request of 100 wallets is about 6 KiB',
      });
    });

    it('a wrong method on a known route: 405 with Allow; an unknown route: 404', async () => {
      const wrong = await call(server.url, 'DELETE', '/v1/wallets/simulator', { key });
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toBe('POST');
      expect(wrong.json).toEqual({
        code: 'method_not_allowed',
        detail: '/v1/wallets/simulator answers POST, not DELETE',
      });
      const read = await call(server.url, 'POST', `/v1/wallets/${SOL_LEADER}/deals`, { key });
      expect([read.status, read.headers.get('allow')]).toEqual([405, 'GET']);
      const unknown = await call(server.url, 'GET', '/v1/wallet', { key });
      expect(unknown.status).toBe(404);
      expect(unknown.json).toEqual({
        code: 'not_found',
        detail: 'no route GET /v1/wallet; the routes are listed at /v1/openapi.json',
      });
    });

    it('GET /health needs no key and costs nothing, and names the days each served tape spans', async () => {
      const answer = await call(server.url, 'GET', '/health');
      // The sol tape's 3 swaps and the eth tape's 1 are all on 2024-03-10.
      const day = { first_day: '2024-03-10', last_day: '2024-03-10' };
      const tapes = { eth: { swaps: 1, ...day }, sol: { swaps: 3, ...day } };
      expect([answer.status, answer.json]).toEqual([200, { status: 'ok', database: 'ok', tapes }]);
    });
  });

  describe('the warnings header of the simulator', () => {
    it('names a followed wallet with no swap; the body is the same as without it', async () => {
      const typo = SOL_LEADER.replace('Leader', 'Leaber');
      const answer = await call(server.url, 'POST', '/v1/wallets/simulator', {
        key,
        body: { ...SOL_REQUEST, wallets: [SOL_LEADER, typo] },
      });
      expect(answer.status).toBe(200);
      const warnings = JSON.parse(answer.headers.get('x-copysim-warnings')!) as unknown[];
      expect(warnings).toEqual([
        {
          code: 'wallet_not_in_tape',
          message: `wallets[1] "${typo}" has no swap in the tape: check the address`,
          wallets: [typo],
        },
      ]);
      expect(warnings.every((w) => WarningSchema.safeParse(w).success)).toBe(true);
      expect(answer.json.deals).toHaveLength(1); // the leader's deal is still copied
    });

    it('is absent when nothing looks wrong, and carries other characters escaped', async () => {
      const fine = await call(server.url, 'POST', '/v1/wallets/simulator', { key, body: SOL_REQUEST });
      expect(fine.headers.get('x-copysim-warnings')).toBeNull();
      const emoji = await call(server.url, 'POST', '/v1/wallets/simulator', {
        key,
        body: { ...SOL_REQUEST, wallets: ['🚀'] },
      });
      expect(emoji.status).toBe(200);
      expect(emoji.headers.get('x-copysim-warnings')).toContain('\\ud83d\\ude80');
      expect(JSON.parse(emoji.headers.get('x-copysim-warnings')!)[0].wallets).toEqual(['🚀']);
    });
  });

  describe('copysim serve on a busy port', () => {
    it('says so in one line naming the port, exit 1, no stack trace', () => {
      const port = new URL(server.url).port;
      const other = workspace();
      try {
        const result = spawnSync(
          process.execPath,
          [build.main, 'serve', '--data', other.data, '--db', other.db, '--port', port, '--workers', '1'],
          {
            encoding: 'utf8',
            timeout: 30_000,
          },
        );
        expect(result.status).toBe(1);
        expect(result.stderr).toBe(
          `copysim serve: port ${port} is already in use on 127.0.0.1: stop the program using it or choose another with --port (0 picks a free one)\n`,
        );
      } finally {
        other.remove();
      }
    });
  });
});
