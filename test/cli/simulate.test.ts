/**
 * `copysim simulate` (model section 8), run in-process: exit 0 with the 200 body on standard
 * output, exit 2 with the 400 body on standard output, exit 1 with a clear message on standard
 * error for a tape or options file that cannot be used.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SIMULATE_HELP } from '../../src/cli/simulate-command.js';
import * as analyticsLayer from '../../src/analytics/index.js';
import * as rankLayer from '../../src/rank/index.js';
import * as library from '../../src/index.js';
import * as importEntry from '../../src/import.js';
import * as analyticsEntry from '../../src/analytics.js';
import * as tapeEntry from '../../src/tape.js';
import * as importLayer from '../../src/io/import/index.js';
import * as sweepLayer from '../../src/sweep/index.js';
import { simulate, SimulatorResponseSchema } from '../../src/index.js';
import { InputError, RequestError } from '../../src/model/errors.js';
import { parseSimulatorRequest } from '../../src/model/request.js';
import { ErrorBodySchema } from '../../src/model/response.js';
import { simulate as simulateModule } from '../../src/simulate.js';
import { indexTape } from '../../src/engine/tape-index.js';
import { cli } from '../support/cli.js';
import { at, buy, FLAT_OPTIONS, LEADER_A, MARKET, request, sell, tape, TOKEN_X } from '../support/scenario.js';

const dir = mkdtempSync(join(tmpdir(), 'copysim-cli-simulate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `content` (JSON unless a string) to a temporary file and returns its path. */
function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const swaps = [
  buy(MARKET, TOKEN_X, at(50), 5, 1),
  buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
  buy(MARKET, TOKEN_X, at(150), 5, 2),
  sell(LEADER_A, TOKEN_X, at(200), 500, 2),
];
const goodTape = file('tape.json', tape(swaps));
const goodRequest = file('request.json', request());
const goodOptions = file('options.json', FLAT_OPTIONS);

describe('copysim simulate: exit 0', () => {
  it('prints the response, the same as the library gives', async () => {
    const { code, out, err } = await cli(
      'simulate',
      '--tape',
      goodTape,
      '--request',
      goodRequest,
      '--options',
      goodOptions,
    );
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toBe(`${JSON.stringify(simulate(tape(swaps), request(), FLAT_OPTIONS))}\n`);
    expect(SimulatorResponseSchema.safeParse(JSON.parse(out)).success).toBe(true);
  });

  it('takes the default options without --options', async () => {
    const { code, out } = await cli('simulate', '--tape', goodTape, '--request', goodRequest);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual(simulate(tape(swaps), request()));
  });

  it('--pretty indents the same response', async () => {
    const compact = await cli('simulate', '--tape', goodTape, '--request', goodRequest);
    const pretty = await cli('simulate', '--tape', goodTape, '--request', goodRequest, '--pretty');
    expect(pretty.code).toBe(0);
    expect(pretty.out).toMatch(/^\{\n {2}"summary": \{\n {4}"pnl_total": /);
    expect(JSON.parse(pretty.out)).toEqual(JSON.parse(compact.out));
  });
});

describe('copysim simulate: exit 2, the 400 body on standard output and a line on standard error', () => {
  it.each([
    {
      name: 'buy_percentage 0',
      body: request({ buy_percentage: 0 }),
      code: 'validation_error',
      says: 'buy_percentage: ',
    },
    {
      name: 'from_date after to_date',
      body: request({ from_date: '2024-03-11' }),
      code: 'invalid_date_range',
      says: 'from_date',
    },
    // a request file that is no JSON is treated as a body that fails validation
    {
      name: 'a request that is not JSON',
      body: '{"wallets": [',
      code: 'validation_error',
      says: '(request): the request is not valid JSON',
    },
  ])('$name → $code', async ({ body, code, says }) => {
    const path = file('bad-request.json', body);
    const result = await cli('simulate', '--tape', goodTape, '--request', path);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.out)).toMatchObject({ code });
    // One line, so that `simulate … > out.json` does not fail in silence.
    const line = expect.stringContaining(`copysim simulate: the request ${path} is refused (${code}): `);
    expect(result.err.split('\n')).toEqual([line, '']);
    expect(result.err).toContain(says);
    expect(result.err).toContain('the 400 body is on standard output');
  });

  it('names the offending field', async () => {
    const result = await cli(
      'simulate',
      '--tape',
      goodTape,
      '--request',
      file('bad-request.json', request({ buy_percentage: 0 })),
    );
    expect(JSON.parse(result.out)).toEqual({
      code: 'validation_error',
      detail: [{ path: 'buy_percentage', message: expect.any(String) }],
    });
  });
});

describe('copysim simulate: exit 1, a message on standard error', () => {
  const badSwaps = swaps.map((s, i) => (i === 3 ? { ...s, usd_price: -1 } : s));
  it.each([
    {
      name: 'a bad swap field',
      flags: () => ['--tape', file('bad-tape.json', tape(badSwaps))],
      message: /swaps\[3\]\.usd_price/,
    },
    {
      name: 'a swap without a wallet',
      flags: () => ['--tape', file('bad-tape.json', tape([{ ...swaps[0]!, wallet: '' }]))],
      message: /swaps\[0\]\.wallet/,
    },
    {
      name: 'a tape that is not JSON',
      flags: () => ['--tape', file('broken-tape.json', '{"network": "sol", ')],
      message: /broken-tape\.json.*not valid JSON/,
    },
    {
      name: 'a missing tape file',
      flags: () => ['--tape', join(dir, 'nowhere.json')],
      message: /nowhere\.json.*no such file/,
    },
    {
      name: 'a missing options file',
      flags: () => ['--tape', goodTape, '--options', join(dir, 'no-options.json')],
      message: /no-options\.json.*no such file/,
    },
    {
      name: 'options that are not JSON',
      flags: () => ['--tape', goodTape, '--options', file('broken-options.json', '{')],
      message: /broken-options\.json.*not valid JSON/,
    },
    {
      name: 'a negative option',
      flags: () => ['--tape', goodTape, '--options', file('bad-options.json', { bot_fee_percent: -1 })],
      message: /bot_fee_percent/,
    },
    {
      name: 'an unknown option',
      flags: () => ['--tape', goodTape, '--options', file('bad-options.json', { slippage: 1 })],
      message: /options/,
    },
    {
      name: 'a network mismatch',
      flags: () => ['--tape', file('eth-tape.json', tape(swaps, { network: 'eth' }))],
      message: /network "eth".*"sol"/,
    },
    { name: 'no --tape flag', flags: () => [], message: /--tape/ },
  ])('$name', async ({ flags, message }) => {
    const args = flags();
    const withRequest = args.includes('--request') ? args : [...args, '--request', goodRequest];
    const result = await cli('simulate', ...withRequest);
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toMatch(message);
    expect(result.err).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe('the public API', () => {
  it('exports the very functions the other tests import from their modules', () => {
    // the rule tests import src/simulate.ts and src/model/* directly to load faster
    expect(library.simulate).toBe(simulateModule);
    expect(library.parseSimulatorRequest).toBe(parseSimulatorRequest);
    expect(library.indexTape).toBe(indexTape);
    expect(library.InputError).toBe(InputError);
    expect(library.RequestError).toBe(RequestError);
    expect(library.ErrorBodySchema).toBe(ErrorBodySchema);
  });

  it('serves each layer from its entry: sweep and rank from copysim, importers, tapes and analytics from subpaths', () => {
    for (const name of ['sweep', 'sweepEach', 'latencyCurve', 'rankWallets', 'outOfSample'] as const) {
      expect(library, name).toHaveProperty(name, { ...sweepLayer, ...rankLayer }[name]);
    }
    for (const [entry, layer] of [
      [importEntry, importLayer],
      [analyticsEntry, analyticsLayer],
    ] as const) {
      for (const [name, value] of Object.entries(layer)) expect(entry, name).toHaveProperty(name, value);
    }
    expect(tapeEntry.convertTapeFile).toBeTypeOf('function');
    // the main entry stays curated: no importer, no analytics read, no internal type such as Decimal40
    for (const name of ['importDune', 'buildAnalyticsIndex', 'WETH', 'PERIOD_SECONDS', 'Decimal40'])
      expect(library).not.toHaveProperty(name);
  });
});

describe('help', () => {
  it('simulate --help prints the command’s help', async () => {
    const result = await cli('simulate', '--help');
    expect(result).toEqual({ code: 0, out: `${SIMULATE_HELP}\n`, err: '' });
    expect(SIMULATE_HELP).toMatch(/--tape.*--request.*--options/s);
  });

  it.each([['--help'], ['-h'], []])('the top level (%s) lists the simulate command', async (...argv) => {
    const result = await cli(...argv);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^\s+simulate\s+\S/m);
  });

  it('help simulate prints the command’s help', async () => {
    expect((await cli('help', 'simulate')).out).toBe(`${SIMULATE_HELP}\n`);
  });
});

describe('mistyped commands and flags', () => {
  it('a mistyped command gets the closest one', async () => {
    const result = await cli('simulat');
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^copysim: unknown command "simulat": did you mean "simulate"\?\n/);
  });

  it('a mistyped flag gets the closest flag of the command, and the command refuses it', async () => {
    const result = await cli('simulate', '--tape', 't.json', '--request', 'r.json', '--htm', 'x.html');
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toMatch(/^copysim simulate: Unknown option '--htm'.*: did you mean "--html"\?\n/);
  });
});
