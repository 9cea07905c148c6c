import { z } from 'zod';
import { WARNINGS_HEADER, WarningSchema } from '../diagnose/warning.js';
import { ErrorBodySchema } from '../model/response.js';
import type { OperationSpec } from './operations.js';
import {
  AddressParamSchema,
  envelopeOf,
  ForbiddenBodySchema,
  HealthSchema,
  HttpErrorBodySchema,
  IdempotencyKeyErrorBodySchema,
  PathErrorBodySchema,
} from './schemas.js';

type JsonSchema = Record<string, unknown>;

/** The OpenAPI 3.1 document as plain JSON. */
export type OpenApiDocument = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12 (the dialect of OpenAPI 3.1), its `$defs` hoisted. */
function toSchema(schema: z.ZodType, io: 'input' | 'output', components: Record<string, JsonSchema>): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  const defs = json.$defs as Record<string, JsonSchema> | undefined;
  delete json.$defs;
  // Refs inside an embedded schema would resolve against the document root: point them there.
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', '#/components/schemas/') : rewrite(v);
    }
    return out;
  };
  for (const [name, def] of Object.entries(defs ?? {})) components[name] = rewrite(def) as JsonSchema;
  return rewrite(json) as JsonSchema;
}

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** The request header of safe retries (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). */
const IDEMPOTENCY_KEY_PARAMETER: JsonSchema = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the first answer of a key (per API key, kept 24 h) is answered again to a retry of the ' +
    'same request, with Idempotent-Replayed: true, and charged once; the key with another request is a 422, and ' +
    'while its first request runs a 409. A string of 1 to 255 printable ASCII characters, such as a UUID.',
  schema: { type: 'string', minLength: 1, maxLength: 257 },
};

/** The headers of a rate-limited key's answers (IETF httpapi draft "RateLimit header fields for HTTP"). */
const RATE_LIMIT_HEADERS: JsonSchema = {
  RateLimit: {
    description:
      'what is left of each quota of the key, and in how many seconds it resets: "second";r=9;t=1, "minute";r=587;t=42',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'the quotas of the key: "second";q=10;w=1, "minute";q=600;w=60',
    schema: { type: 'string' },
  },
};
const jsonContent = (schema: JsonSchema): JsonSchema => ({ content: { 'application/json': { schema } } });

/** The query parameters of a GET operation: one per property of its query schema. */
function queryParameters(schema: JsonSchema): JsonSchema[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: property,
  }));
}

function operationObject(spec: OperationSpec, components: Record<string, JsonSchema>): JsonSchema {
  const parameters: JsonSchema[] = [];
  const hasAddress = spec.path.includes('{address}');
  if (hasAddress) {
    parameters.push({
      name: 'address',
      in: 'path',
      required: true,
      schema: toSchema(AddressParamSchema, 'input', components),
    });
  }
  const operation: JsonSchema = {
    operationId: spec.id,
    summary: spec.summary,
    description: `Costs ${spec.cost} credit${spec.cost === 1 ? '' : 's'}, charged only when it succeeds.`,
    'x-credits-cost': spec.cost,
  };
  const input = toSchema(spec.inputSchema, 'input', components);
  if (spec.input === 'query') parameters.push(...queryParameters(input));
  else operation.requestBody = { required: spec.id === 'simulate', ...jsonContent(input) };
  parameters.push(IDEMPOTENCY_KEY_PARAMETER);
  operation.parameters = parameters;

  const body = spec.envelope ? envelopeOf(spec.resultSchema) : spec.resultSchema;
  const ok: JsonSchema = { description: 'Success', ...jsonContent(toSchema(body, 'output', components)) };
  ok.headers = {
    ...(spec.envelope
      ? {}
      : {
          'X-Credits-Spent': { description: 'credits spent by this request', schema: { type: 'integer' } },
          'X-Credits-Remaining': { description: 'credits left on the key', schema: { type: 'integer' } },
          [WARNINGS_HEADER]: {
            description:
              'Present when the answer is probably not what was meant (a followed wallet with no swap in the tape, ' +
              'none in the window, a window beside the tape, no follower trade, a follower trade filled far from the ' +
              'market, trades into pools of unknown liquidity): a JSON array of warnings, in ASCII',
            content: { 'application/json': { schema: { type: 'array', items: ref('Warning') } } },
          },
        }),
    'Idempotent-Replayed': {
      description: '"true" when this is the stored answer of the request\'s Idempotency-Key (not charged again)',
      schema: { const: 'true' },
    },
    ...RATE_LIMIT_HEADERS,
  };
  const badInput = [
    ref('RequestErrorBody'),
    ...(hasAddress ? [ref('PathErrorBody')] : []),
    ref('IdempotencyKeyErrorBody'),
  ];
  const responses: JsonSchema = {
    '200': ok,
    '400': { description: 'Invalid input, or a malformed Idempotency-Key', ...jsonContent({ anyOf: badInput }) },
    '401': { description: 'Missing or unknown API key', ...jsonContent(ref('ErrorBody')) },
    '403': { description: 'Disabled key, or too few credits', ...jsonContent(ref('ForbiddenBody')) },
    '409': {
      description: 'The first request of this Idempotency-Key is still running (Retry-After)',
      ...jsonContent(ref('ErrorBody')),
    },
    '422': { description: 'This Idempotency-Key was sent with another request', ...jsonContent(ref('ErrorBody')) },
    '429': {
      description: 'The key sends faster than its rate limit (Retry-After); nothing is charged',
      headers: {
        ...RATE_LIMIT_HEADERS,
        'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } },
      },
      ...jsonContent(ref('ErrorBody')),
    },
    '503': {
      description:
        spec.id === 'simulate'
          ? 'Too many simulations waiting, or the key database does not answer'
          : 'The key database does not answer',
      ...jsonContent(ref('ErrorBody')),
    },
  };
  if (hasAddress)
    responses['414'] = { description: 'A path parameter over 100 characters', ...jsonContent(ref('ErrorBody')) };
  if (spec.method === 'POST') {
    responses['413'] = { description: 'Body too large', ...jsonContent(ref('ErrorBody')) };
    responses['415'] = { description: 'Body not application/json', ...jsonContent(ref('ErrorBody')) };
  }
  operation.responses = responses;
  return operation;
}

/**
 * The OpenAPI 3.1 document of the service, generated from the route table and its zod schemas
 * (the same schemas that validate the requests).
 *
 * @example
 * buildOpenApiDocument(OPERATIONS).paths['/v1/wallets/simulator'].post.operationId; // "simulate"
 */
export function buildOpenApiDocument(operations: readonly OperationSpec[]): OpenApiDocument {
  const components: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const spec of operations) {
    (paths[spec.path] ??= {})[spec.method.toLowerCase()] = operationObject(spec, components);
  }
  components.ErrorBody = toSchema(HttpErrorBodySchema, 'output', components);
  components.RequestErrorBody = toSchema(ErrorBodySchema, 'output', components);
  components.ForbiddenBody = toSchema(ForbiddenBodySchema, 'output', components);
  components.PathErrorBody = toSchema(PathErrorBodySchema, 'output', components);
  components.IdempotencyKeyErrorBody = toSchema(IdempotencyKeyErrorBodySchema, 'output', components);
  components.Health = toSchema(HealthSchema, 'output', components);
  components.Warning = toSchema(WarningSchema, 'output', components);
  return {
    openapi: '3.1.0',
    info: {
      title: 'copysim wallet analytics and copy-trade simulator',
      version: '1.0.4',
      description: 'Every operation needs an API key in X-API-Key and costs credits, charged only when it succeeds.',
    },
    servers: [{ url: '/' }],
    security: [{ ApiKey: [] }],
    paths: {
      ...paths,
      '/health': {
        get: {
          operationId: 'health',
          summary:
            'Whether the service can serve (its key database and Redis answer), ' +
            'and which days its tapes span: free, no key needed',
          security: [],
          'x-credits-cost': 0,
          responses: {
            '200': { description: 'Every server the service depends on answers', ...jsonContent(ref('Health')) },
            '503': { description: 'A server the service depends on does not answer', ...jsonContent(ref('Health')) },
          },
        },
      },
    },
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    },
  };
}
