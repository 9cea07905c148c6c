/**
 * A fuzz test of the service driven by its own OpenAPI document (docs/errors.md): for every
 * operation, json-schema-faker generates inputs from the document's schemas, and fast-check
 * mutates them (a member dropped, replaced by any JSON, an unknown member, a strange address,
 * a body cut short, a missing key…). Each request goes to a `copysim serve` on loopback, one at a
 * time, and every answer must:
 * - have a status the document lists for the operation, and never a 5xx;
 * - have a JSON body that validates against the document's schema for that status (ajv);
 * - carry a valid warnings header when it carries one;
 * - charge the operation's price for a 200 and nothing otherwise;
 * and at the end the key's ledger must sum to its balance, one charge row per 200.
 *
 * Fixed seed, COPYSIM_FUZZ_RUNS requests per operation (default 150); set it higher for a
 * longer run (COPYSIM_FUZZ_SEED picks another seed).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { generateSync } from 'json-schema-faker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from './support/api.js';
import { ensureBuild } from './support/build.js';
import { LEDGERS, testLedger, usePostgres } from './support/ledgers.js';
import { ledgerWorkspace, serve, type ServeProcess, type Workspace } from './support/serve.js';
import { ETH_LEADER, SOL_LEADER } from './support/tapes.js';

const RUNS = Number(process.env.COPYSIM_FUZZ_RUNS ?? 150);
const SEED = Number(process.env.COPYSIM_FUZZ_SEED ?? 20_261_125);

type Json = Record<string, any>;

interface Operation {
  readonly id: string;
  readonly method: string;
  readonly path: string;
  readonly cost: number;
  readonly responses: Json;
  /** The query (and path) parameters, as one object schema; null for a body operation. */
  readonly paramsSchema: Json | null;
  readonly bodySchema: Json | null;
}

usePostgres();

describe.each(LEDGERS)('%s ledger', (kind) => {
  let ws: Workspace;
  let server: ServeProcess;
  let ledger: Ledger;
  let key = '';
  let keyId = 0;
  let doc: Json;
  let operations: Operation[] = [];
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  const validators = new Map<string, ValidateFunction>();
  /** Over the whole run: the 200 answers and the credits they cost. */
  const charged = { answers: 0, credits: 0 };
  const INITIAL_CREDITS = 1_000_000_000;

  beforeAll(async () => {
    const build = await ensureBuild();
    ws = await ledgerWorkspace(kind);
    server = await serve(build, ws);
    ledger = await testLedger(ws.db);
    const created = await ledger.create({ credits: INITIAL_CREDITS, label: 'fuzz' });
    key = created.key;
    keyId = created.record.id;
    doc = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as Json;
    operations = Object.entries(doc.paths as Json).flatMap(([path, ops]) =>
      Object.entries(ops as Json).map(([method, op]) => operationOf(path, method, op as Json)),
    );
  }, 60_000);

  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
    await ledger?.close();
    ws?.remove();
  });

  function operationOf(path: string, method: string, op: Json): Operation {
    // The path and query parameters; the Idempotency-Key header is the idempotency test's.
    const params = ((op.parameters ?? []) as Json[]).filter((p) => p.in !== 'header');
    const bodySchema = (op.requestBody?.content?.['application/json']?.schema ?? null) as Json | null;
    return {
      id: op.operationId as string,
      method: method.toUpperCase(),
      path,
      cost: (op['x-credits-cost'] as number | undefined) ?? 0,
      responses: op.responses as Json,
      paramsSchema:
        params.length === 0
          ? null
          : {
              type: 'object',
              properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
              required: params.filter((p) => p.required).map((p) => p.name),
            },
      bodySchema,
    };
  }

  /** A schema of the document made whole: its `#/components/...` references resolve against the document's. */
  const rooted = (schema: Json): Json => ({ ...schema, components: doc.components });

  function validatorFor(name: string, schema: Json): ValidateFunction {
    let v = validators.get(name);
    if (v === undefined) validators.set(name, (v = ajv.compile(rooted(schema))));
    return v;
  }

  /** How a generated input is changed before it is sent. */
  type Mutation =
    | { kind: 'none' }
    | { kind: 'realistic' }
    | { kind: 'drop'; pick: number }
    | { kind: 'replace'; pick: number; value: unknown }
    | { kind: 'unknown'; name: string; value: unknown }
    | { kind: 'address'; value: string }
    | { kind: 'whole'; value: unknown }
    | { kind: 'raw'; text: string }
    | { kind: 'truncate'; at: number }
    | { kind: 'key'; which: 'none' | 'unknown' };

  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    { weight: 2, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 3, arbitrary: fc.constant({ kind: 'realistic' as const }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('replace' as const),
        pick: fc.nat(),
        value: fc.jsonValue({ maxDepth: 2 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('unknown' as const),
        name: fc.string({ maxLength: 12 }),
        value: fc.jsonValue({ maxDepth: 1 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('address' as const),
        value: fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 60 }),
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.constantFrom('..%2F..', '🚀', '', ' ', '%', '0x', SOL_LEADER.toLowerCase()),
        ),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('whole' as const), value: fc.jsonValue({ maxDepth: 2 }) }) },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('raw' as const), text: fc.string({ unit: 'binary', maxLength: 80 }) }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('key' as const),
        which: fc.constantFrom('none' as const, 'unknown' as const),
      }),
    },
  );

  /** One request as sent: method, path with its query, headers and body text. */
  interface Sent {
    readonly method: string;
    readonly url: string;
    readonly headers: Record<string, string>;
    readonly body?: string;
  }

  function mutateObject(value: unknown, m: Mutation): unknown {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const out: Json = { ...(value as Json) };
    const keys = Object.keys(out).filter((k) => k !== 'address');
    if (m.kind === 'drop' && keys.length > 0) delete out[keys[m.pick % keys.length]!];
    if (m.kind === 'replace' && keys.length > 0) out[keys[m.pick % keys.length]!] = m.value;
    if (m.kind === 'unknown' && m.name !== '' && m.name !== 'address') out[m.name] = m.value;
    return out;
  }

  /** A generated input nudged toward the served tapes, so that many requests reach a 200. */
  function realistic(op: Operation, params: Json, body: unknown): { params: Json; body: unknown } {
    const network = params.network === 'eth' || (body as Json | undefined)?.network === 'eth' ? 'eth' : 'sol';
    const leader = network === 'eth' ? ETH_LEADER : SOL_LEADER;
    if (op.id === 'simulate' && body !== null && typeof body === 'object') {
      return {
        params,
        body: { ...(body as Json), network, wallets: [leader], from_date: '2024-03-10', to_date: '2024-03-10' },
      };
    }
    const { from_time: _f, to_time: _t, ...rest } = params;
    return { params: { ...rest, ...(params.address !== undefined ? { address: leader } : {}) }, body };
  }

  function queryString(params: Json): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) {
      if (name === 'address' || value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) {
        search.append(name, typeof one === 'object' && one !== null ? JSON.stringify(one) : String(one));
      }
    }
    const text = search.toString();
    return text === '' ? '' : `?${text}`;
  }

  function requestOf(op: Operation, seed: number, m: Mutation): Sent {
    let params = (op.paramsSchema === null ? {} : generateSync(rooted(op.paramsSchema), { seed })) as Json;
    let body: unknown = op.bodySchema === null ? undefined : generateSync(rooted(op.bodySchema), { seed });
    if (m.kind === 'realistic') ({ params, body } = realistic(op, params, body));
    if (op.bodySchema !== null) body = m.kind === 'whole' ? m.value : mutateObject(body, m);
    else
      params =
        m.kind === 'whole' && typeof m.value === 'object' && m.value !== null && !Array.isArray(m.value)
          ? { address: params.address, ...(m.value as Json) }
          : (mutateObject(params, m) as Json);
    const address = m.kind === 'address' ? m.value : (params.address as string | undefined);

    let path = op.path;
    if (address !== undefined)
      path = path.replace(
        '{address}',
        m.kind === 'address' && m.value.includes('%') ? m.value : encodeURIComponent(address),
      );
    let query = queryString(params);
    if (m.kind === 'raw' && op.bodySchema === null) query = `?${m.text}`;

    const headers: Record<string, string> = {};
    if (m.kind !== 'key') headers['x-api-key'] = key;
    else if (m.which === 'unknown') headers['x-api-key'] = 'cs_not-a-key';
    let text: string | undefined;
    if (op.bodySchema !== null) {
      text = m.kind === 'raw' ? m.text : body === undefined ? undefined : JSON.stringify(body);
      if (m.kind === 'truncate' && text !== undefined) text = text.slice(0, m.at % (text.length + 1));
      if (text !== undefined) headers['content-type'] = 'application/json';
    }
    return {
      method: op.method,
      url: `${server.url}${path}${query}`,
      headers,
      ...(text !== undefined ? { body: text } : {}),
    };
  }

  /** Sends one request and checks everything an answer must be. */
  async function check(op: Operation, sent: Sent): Promise<number> {
    const before = (await ledger.get(keyId))!.credits;
    const response = await fetch(sent.url, {
      method: sent.method,
      headers: sent.headers,
      ...(sent.body !== undefined ? { body: sent.body } : {}),
    });
    const text = await response.text();
    const status = response.status;
    const context = `${sent.method} ${sent.url.slice(0, 300)} ${sent.body?.slice(0, 300) ?? ''} → ${status} ${text.slice(0, 300)}`;

    // The charge first: a later failure still leaves the run's count of charges right.
    const after = (await ledger.get(keyId))!.credits;
    if (status === 200 && op.cost > 0) {
      expect(before - after, `a 200 of ${op.id} costs ${op.cost}: ${context}`).toBe(op.cost);
      charged.answers++;
      charged.credits += op.cost;
    } else {
      expect(after, `a ${status} is not charged: ${context}`).toBe(before);
    }
    expect(status, context).toBeLessThan(500);
    const documented = op.responses[String(status)] as Json | undefined;
    expect(documented, `status ${status} is not documented for ${op.id}: ${context}`).toBeDefined();
    expect(response.headers.get('content-type'), context).toMatch(/^application\/json/);
    const body = JSON.parse(text) as unknown;
    const schema = documented!.content?.['application/json']?.schema as Json | undefined;
    if (schema !== undefined) {
      const validate = validatorFor(`${op.id} ${status}`, schema);
      expect(validate(body), `${ajv.errorsText(validate.errors)}: ${context}`).toBe(true);
    }
    const warnings = response.headers.get('x-copysim-warnings');
    if (warnings !== null) {
      const header = documented!.headers?.['X-Copysim-Warnings']?.content?.['application/json']?.schema as Json;
      const validate = validatorFor(`${op.id} warnings`, header);
      expect(validate(JSON.parse(warnings)), `${ajv.errorsText(validate.errors)}: ${warnings}`).toBe(true);
    }

    return status;
  }

  describe(`the service against its OpenAPI document (${RUNS} requests an operation, seed ${SEED})`, () => {
    const ids = ['simulate', 'indicators', 'pnl_chart', 'investment_chart', 'deals', 'wallets', 'health'];
    it.each(ids)(
      '%s: generated and mutated requests get documented answers, charged only on success',
      async (id) => {
        const op = operations.find((o) => o.id === id);
        expect(op, `operation ${id} in the document`).toBeDefined();
        const statuses = new Map<number, number>();
        await fc.assert(
          fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), mutation, async (seed, m) => {
            const status = await check(op!, requestOf(op!, seed, m));
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }),
          { seed: SEED, numRuns: RUNS, endOnFailure: true },
        );
        // The generation reaches the operation's success as well as its refusals.
        expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
        if (process.env.COPYSIM_FUZZ_RUNS !== undefined) {
          const counts = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
          process.stderr.write(`openapi fuzz: ${id}: ${counts.join(' ')}\n`);
        }
      },
      600_000,
    );

    it('the ledger sums to the balance, with one charge row a 200', async () => {
      const rows = await ledger.ledger(keyId);
      const balance = (await ledger.get(keyId))!.credits;
      expect(rows.reduce((sum, r) => sum + r.delta, 0)).toBe(balance);
      const charges = rows.filter((r) => r.kind === 'charge');
      expect(charges).toHaveLength(charged.answers);
      expect(-charges.reduce((sum, r) => sum + r.delta, 0)).toBe(charged.credits);
      expect(balance).toBe(INITIAL_CREDITS - charged.credits);
      expect(charged.answers).toBeGreaterThan(0);
    });
  });
});
