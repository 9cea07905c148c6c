import type { z } from 'zod';
import { SimulatorRequestSchema } from '../model/request.js';
import { SimulatorResponseSchema } from '../model/response.js';
import { ANALYTICS, type AnalyticsOperationId } from './analytics-binding.js';

/** The six operations of the interface. */
export type OperationId = 'simulate' | AnalyticsOperationId;

/** One operation of the interface: its route, price and schemas. */
export interface OperationSpec {
  readonly id: OperationId;
  readonly method: 'GET' | 'POST';
  /** The path as the interface writes it (`{address}`). */
  readonly path: string;
  /** Credits charged when it succeeds (interface section 1). */
  readonly cost: number;
  /**
   * True when its credits are held while it runs, so that a key cannot start more than it can
   * pay for: work that takes a while (the simulator, on a worker thread). A read, computed at
   * once on the request thread, is charged by the conditional update alone (a hold would cost
   * the ledger more than the read).
   */
  readonly holdsCredits: boolean;
  readonly summary: string;
  /** True when the result travels in `{result, credits}`; the simulator uses headers instead. */
  readonly envelope: boolean;
  /** Where the input travels. */
  readonly input: 'query' | 'body';
  /** Validates the input (and documents it). */
  readonly inputSchema: z.ZodType;
  /** The 200 body (simulator) or the envelope's `result`. */
  readonly resultSchema: z.ZodType;
}

function analyticsSpec(
  id: AnalyticsOperationId,
  method: 'GET' | 'POST',
  path: string,
  cost: number,
  summary: string,
): OperationSpec {
  const bound = ANALYTICS.operations[id];
  return {
    id,
    method,
    path,
    cost,
    holdsCredits: false,
    summary,
    envelope: true,
    input: method === 'GET' ? 'query' : 'body',
    inputSchema: bound.input,
    resultSchema: bound.result,
  };
}

/** The route table: the single source of the routes, their prices and the OpenAPI document. */
export const OPERATIONS: readonly OperationSpec[] = [
  {
    id: 'simulate',
    method: 'POST',
    path: '/v1/wallets/simulator',
    cost: 10,
    holdsCredits: true,
    summary: 'Copy-trade simulator: replays the followed wallets over the served tape',
    envelope: false,
    input: 'body',
    inputSchema: SimulatorRequestSchema,
    resultSchema: SimulatorResponseSchema,
  },
  analyticsSpec('indicators', 'GET', '/v1/wallets/{address}/indicators', 1, 'Wallet indicators by period'),
  analyticsSpec('pnl_chart', 'GET', '/v1/wallets/{address}/charts/pnl', 1, 'Wallet realized PnL chart'),
  analyticsSpec(
    'investment_chart',
    'GET',
    '/v1/wallets/{address}/charts/investment_amount',
    1,
    'Wallet investment amount chart',
  ),
  analyticsSpec('deals', 'GET', '/v1/wallets/{address}/deals', 1, 'Wallet deals, paged and searchable'),
  analyticsSpec('wallets', 'POST', '/v1/wallets', 5, 'The list of wallets with their indicators, paged'),
];

/** The fastify form of an interface path: `{address}` becomes `:address`. */
export function routePath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
