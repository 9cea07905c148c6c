import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, OPERATIONS } from './support/api.js';

const doc = buildOpenApiDocument(OPERATIONS) as any;

/** Every `$ref` in the document, with the path where it appears. */
function refs(value: unknown, path = '#'): Array<[string, string]> {
  if (Array.isArray(value)) return value.flatMap((v, i) => refs(v, `${path}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) =>
    k === '$ref' ? [[path, v as string] as [string, string]] : refs(v, `${path}/${k}`),
  );
}

describe('the OpenAPI 3.1 document', () => {
  it('takes the simulator request from the zod schema that validates it', () => {
    const body = doc.paths['/v1/wallets/simulator'].post.requestBody.content['application/json'].schema;
    expect(body.properties.wallets).toMatchObject({ type: 'array', minItems: 1, maxItems: 100 });
    expect(body.properties.inactivity_time_fix.anyOf[0].properties.hours).toMatchObject({ minimum: 1, maximum: 192 });
    expect(body.required).toEqual([
      'wallets',
      'network',
      'from_date',
      'to_date',
      'buy_percentage',
      'max_buy_amount',
      'max_position_amount',
      'priority_fee',
      'bribe',
      'max_dupe_buy_times',
    ]);
  });

  it('documents the strategy member from the same schema, with its limits', () => {
    const body = doc.paths['/v1/wallets/simulator'].post.requestBody.content['application/json'].schema;
    const strategy = body.properties.strategy.anyOf[0];
    expect(Object.keys(strategy.properties)).toEqual([
      'copy_delay_seconds',
      'fixed_buy_amount',
      'min_leader_buy_usd',
      'min_liquidity_usd',
      'max_token_age_hours',
      'take_profit',
      'stop_loss_percent',
      'trailing_stop_percent',
      'max_hold_hours',
      'report_skipped',
      'starting_balance_usd',
      'reserve_usd',
      'max_open_deals',
      'slippage_tolerance_percent',
      'failed_transaction_percent',
      'retries',
      'retry_delay_seconds',
      'sandwich_percent',
      'random_seed',
      'report_wallet',
      'report_leaders',
    ]);
    expect(strategy.properties.retries).toMatchObject({ minimum: 0, maximum: 5 });
    expect(strategy.additionalProperties).toBe(false);
    expect(strategy.properties.copy_delay_seconds).toMatchObject({ minimum: 0, maximum: 86_400 });
    expect(strategy.properties.take_profit).toMatchObject({ type: 'array', maxItems: 10 });
    expect(body.additionalProperties).toBe(false);
    const response = doc.paths['/v1/wallets/simulator'].post.responses['200'].content['application/json'].schema;
    expect(Object.keys(response.properties)).toEqual(expect.arrayContaining(['skipped_copies', 'leaders', 'copier']));
  });

  it('lists the query parameters of the reads, with their limits', () => {
    const params = doc.paths['/v1/wallets/{address}/deals'].get.parameters as Array<{
      name: string;
      in: string;
      required: boolean;
    }>;
    expect(params.map((p) => `${p.in}:${p.name}${p.required ? '!' : ''}`)).toEqual([
      'path:address!',
      'query:network!',
      'query:page',
      'query:per_page',
      'query:search',
      'query:from_time',
      'query:to_time',
      'header:Idempotency-Key',
    ]);
  });

  it('wraps the reads in the credits envelope and puts the simulator credits in headers', () => {
    const indicators =
      doc.paths['/v1/wallets/{address}/indicators'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(indicators.properties)).toEqual(['result', 'credits']);
    const simulator = doc.paths['/v1/wallets/simulator'].post.responses['200'];
    expect(Object.keys(simulator.headers)).toEqual([
      'X-Credits-Spent',
      'X-Credits-Remaining',
      'X-Copysim-Warnings',
      'Idempotent-Replayed',
      'RateLimit',
      'RateLimit-Policy',
    ]);
    expect(Object.keys(simulator.content['application/json'].schema.properties)).toContain(
      'cumulative_pnl_and_fee_chart',
    );
    const read = doc.paths['/v1/wallets/{address}/indicators'].get.responses['200'];
    expect(Object.keys(read.headers)).toEqual(['Idempotent-Replayed', 'RateLimit', 'RateLimit-Policy']);
  });

  it('documents safe retries and rate limits on every paid operation, and the health check', () => {
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(ops)) {
        if (path === '/health') continue;
        const where = `${method} ${path}`;
        expect(
          op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`),
          where,
        ).toContain('header:Idempotency-Key');
        expect(Object.keys(op.responses), where).toEqual(expect.arrayContaining(['409', '422', '429', '503']));
        expect(Object.keys(op.responses['429'].headers), where).toEqual([
          'RateLimit',
          'RateLimit-Policy',
          'Retry-After',
        ]);
      }
    }
    expect(Object.keys(doc.paths['/health'].get.responses)).toEqual(['200', '503']);
    expect(doc.components.schemas.Health.required).toEqual(['status', 'database', 'tapes']);
  });

  it('resolves every $ref inside the document', () => {
    const broken = refs(doc).filter(([, ref]) => {
      const target = ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((node: any, key) => node?.[key], doc);
      return target === undefined;
    });
    expect(broken).toEqual([]);
  });

  it('is the same bytes every time', () => {
    expect(JSON.stringify(buildOpenApiDocument(OPERATIONS))).toBe(JSON.stringify(doc));
  });
});
