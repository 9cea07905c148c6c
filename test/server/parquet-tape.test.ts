/**
 * The service on Parquet tapes: a data folder of the bundled example converted to Parquet
 * answers every analytics route and the simulator with the bodies the JSON folder gives, byte
 * for byte, and so does a sol tape another program wrote, its header given by serve's flags; a
 * truncated Parquet tape stops it from starting, naming the file.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertTapeFile } from '../../src/tape.js';
import { cli } from '../support/cli.js';
import { writeForeignParquet } from '../support/foreign-parquet.js';
import { PROJECT_ROOT } from '../support/paths.js';
import { KeyStore } from './support/api.js';
import { ensureBuild } from './support/build.js';
import { call } from './support/http.js';
import { serve, workspace, type ServeProcess, type Workspace } from './support/serve.js';

const EXAMPLE = join(PROJECT_ROOT, 'fixtures', 'example');
const requestOf = (network: string): unknown =>
  JSON.parse(readFileSync(join(EXAMPLE, `request-${network}.json`), 'utf8'));
/** The first leader of each example request. */
const SOL_LEADER = (requestOf('sol') as { wallets: string[] }).wallets[0]!;
const ETH_LEADER = (requestOf('eth') as { wallets: string[] }).wallets[0]!;

/** A running service on one form of the example tapes, with a key of its own. */
interface Served {
  readonly ws: Workspace;
  readonly server: ServeProcess;
  readonly key: string;
}

const served: Served[] = [];

async function start(form: 'json' | 'parquet' | 'foreign'): Promise<Served> {
  const ws = workspace([]);
  let flags: string[] = [];
  for (const network of ['sol', 'eth']) {
    const tape = join(EXAMPLE, `tape-${network}.json`);
    if (form === 'json') copyFileSync(tape, join(ws.data, `tape-${network}.json`));
    else if (form === 'parquet') convertTapeFile(tape, join(ws.data, `tape-${network}.parquet`));
    // Another program's file holds no header: the flags give it (one network, then).
    else if (network === 'sol')
      flags = writeForeignParquet(tape, join(ws.data, 'tape-sol.parquet'), join(ws.dir, 'sol'));
  }
  const server = await serve(await ensureBuild(), ws, flags);
  const store = KeyStore.open(ws.db, { now: () => 1_700_000_000 });
  const { key } = store.create({ credits: 1000 });
  store.close();
  const one = { ws, server, key };
  served.push(one);
  return one;
}

let json: Served;
let parquet: Served;
let foreign: Served;

beforeAll(async () => {
  [json, parquet, foreign] = [await start('json'), await start('parquet'), await start('foreign')];
}, 90_000);

afterAll(async () => {
  for (const { server, ws } of served) {
    await server.stop();
    ws.remove();
  }
});

const ROUTES: ReadonlyArray<{ name: string; method: string; path: string; body?: unknown }> = [
  { name: 'indicators', method: 'GET', path: `/v1/wallets/${SOL_LEADER}/indicators?network=sol` },
  { name: 'pnl chart', method: 'GET', path: `/v1/wallets/${SOL_LEADER}/charts/pnl?network=sol&period=7d` },
  {
    name: 'investment chart',
    method: 'GET',
    path: `/v1/wallets/${SOL_LEADER}/charts/investment_amount?network=sol&period=24h`,
  },
  { name: 'deals', method: 'GET', path: `/v1/wallets/${SOL_LEADER}/deals?network=sol&per_page=10` },
  { name: 'eth deals', method: 'GET', path: `/v1/wallets/${ETH_LEADER}/deals?network=eth` },
  { name: 'wallet list', method: 'POST', path: '/v1/wallets', body: { network: 'sol' } },
  { name: 'sol simulator', method: 'POST', path: '/v1/wallets/simulator', body: requestOf('sol') },
  { name: 'eth simulator', method: 'POST', path: '/v1/wallets/simulator', body: requestOf('eth') },
];

describe('the service on Parquet tapes', () => {
  it('loads the *.parquet files of the data folder as its tapes', () => {
    expect(parquet.server.output()).toMatch(/sol tape \S+tape-sol\.parquet \(2574 swaps\)/);
    expect(parquet.server.output()).toMatch(/eth tape \S+tape-eth\.parquet \(\d+ swaps\)/);
  });

  // Both keys start with the same credits and pay the same, so whole bodies compare.
  it.each(ROUTES)('$name: the body on the JSON tape, byte for byte', async (route) => {
    const options = (key: string) => ({ key, ...(route.body !== undefined ? { body: route.body } : {}) });
    const fromJson = await call(json.server.url, route.method, route.path, options(json.key));
    const fromParquet = await call(parquet.server.url, route.method, route.path, options(parquet.key));
    expect(fromJson.status, fromJson.text).toBe(200);
    expect(fromJson.text.length).toBeGreaterThan(50);
    expect(fromParquet.status).toBe(200);
    expect(fromParquet.text).toBe(fromJson.text);
  });

  it.each(ROUTES.filter((r) => !r.name.startsWith('eth')))(
    "$name: from another program's Parquet file, with --network, --tokens and --native-prices: the JSON tape's body",
    async (route) => {
      const options = (key: string) => ({ key, ...(route.body !== undefined ? { body: route.body } : {}) });
      const fromJson = await call(json.server.url, route.method, route.path, options(json.key));
      const fromForeign = await call(foreign.server.url, route.method, route.path, options(foreign.key));
      expect(fromForeign.status, fromForeign.text).toBe(200);
      // This key has paid for fewer calls: the bodies compare but for the credits left (analytics routes).
      const withoutCredits = (text: string): string => text.replace(/,"credits":\{[^}]*\}\}$/, '}');
      expect(withoutCredits(fromForeign.text)).toBe(withoutCredits(fromJson.text));
    },
  );

  it('a truncated Parquet tape stops the service from starting: exit 1, the file named', async () => {
    const ws = workspace([]);
    try {
      convertTapeFile(join(EXAMPLE, 'tape-sol.json'), join(ws.dir, 'full.parquet'));
      const bytes = readFileSync(join(ws.dir, 'full.parquet'));
      writeFileSync(join(ws.data, 'tape-sol.parquet'), bytes.subarray(0, bytes.length - 40));
      const { code, out, err } = await cli('serve', '--data', ws.data, '--db', ws.db, '--port', '0');
      expect(code).toBe(1);
      expect(out).toBe('');
      const named = `copysim serve: ${join(ws.data, 'tape-sol.parquet')}: not a Parquet file (it does not end with "PAR1"): truncated`;
      expect(err.slice(0, named.length)).toBe(named);
      expect(err.split('\n')).toHaveLength(2); // one line, no stack
    } finally {
      ws.remove();
    }
  });
});
