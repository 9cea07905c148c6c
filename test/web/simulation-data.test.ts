/**
 * A simulation's report data, built by one module on both sides: a report file's in Node from
 * the engine's response (with the tape's prices), the service page's in the browser from the
 * simulator's JSON answer. The same response must give the same data, whatever order a deal's
 * keys arrive in and whether or not it has deals.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexTape, parseSimulatorRequest, simulate, type SimulatorResponse } from '../../src/index.js';
import { SimulatedDealSchema, SimulatedTradeSchema } from '../../src/model/response.js';
import { simulationReportData } from '../../src/report/html/index.js';
import { PROJECT_ROOT } from '../support/paths.js';
import { CHART_SERIES, DEAL_COLUMNS, simulationData, TRADE_COLUMNS } from '../../web/report/simulation-data.js';

const EXAMPLE = join(PROJECT_ROOT, 'fixtures', 'example');
const tape = indexTape(JSON.parse(readFileSync(join(EXAMPLE, 'tape-sol.json'), 'utf8')));
const parsed = parseSimulatorRequest({
  ...JSON.parse(readFileSync(join(EXAMPLE, 'request-sol.json'), 'utf8')),
  strategy: { min_liquidity_usd: 20_000, report_skipped: true },
});
if (!parsed.success) throw new Error(JSON.stringify(parsed.error));
const request = parsed.data;
const response = simulate(tape, request);
/** The response as the service's page receives it: the simulator's answer is its JSON, byte for byte. */
const answer = (value: SimulatorResponse): SimulatorResponse => JSON.parse(JSON.stringify(value));

/** Each deal's keys in reverse order: another serializer's answer, with the same values. */
function reordered(value: SimulatorResponse): SimulatorResponse {
  const reverse = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).reverse()) as T;
  return { ...value, deals: value.deals.map((deal) => reverse({ ...deal, trades: deal.trades.map(reverse) })) };
}

describe('the report data of a simulation', () => {
  it("are the same in the service's page as in a report file, for the same response", () => {
    expect(new Set(response.deals.map((d) => d.token.address)).size).toBeGreaterThan(1);
    expect(response.skipped_copies!.length).toBeGreaterThan(0);
    const title = 'sol example';
    const page = simulationData({ title, request, response: answer(response), prices: null });
    expect(page).toEqual(simulationReportData({ title, response, request, tape: null }));
    const withTape = simulationReportData({ title, response, request, tape });
    expect(withTape.prices).toHaveLength(response.deals.length);
    expect({ ...page, prices: withTape.prices }).toEqual(withTape);
  });

  it("name the response's deal and trade fields as the schema orders them, trades apart", () => {
    expect(DEAL_COLUMNS).toEqual(Object.keys(SimulatedDealSchema.shape).filter((name) => name !== 'trades'));
    expect(TRADE_COLUMNS).toEqual(Object.keys(SimulatedTradeSchema.shape));
  });

  it("take their columns from that list, not from a deal's keys", () => {
    const data = simulationData({ title: 't', request, response: reordered(response), prices: null });
    expect(data).toEqual(simulationData({ title: 't', request, response, prices: null }));
    const empty = simulationData({ title: 't', request, response: { ...response, deals: [] }, prices: null });
    expect(empty.deal_columns).toEqual(DEAL_COLUMNS);
    expect(empty.trade_columns).toEqual(TRADE_COLUMNS);
    expect(empty.deals).toEqual([]);
  });

  it('carry only the PnL and fee series the charts draw', () => {
    const { chart } = simulationData({ title: 't', request, response: answer(response), prices: null });
    expect(Object.keys(chart)).toEqual(['timestamps', 'pnl_total', 'pnl_realized', 'fee_sum', 'bot_fee']);
    // The series the page's simulation report reads (`chart.NAME` in web/report/report.js).
    const page = readFileSync(join(PROJECT_ROOT, 'web', 'report', 'report.js'), 'utf8');
    const drawn = new Set([...page.matchAll(/\bchart\.(\w+)/g)].map((m) => m[1]));
    expect([...drawn].sort()).toEqual([...CHART_SERIES].sort());
    for (const name of CHART_SERIES) expect(chart[name]).toEqual(response.cumulative_pnl_and_fee_chart[name]);
  });

  it('count the skipped copies by reason, and give null without a skip log', () => {
    const copy = { time: 0, wallet: 'w', token: 't', type: 'buy' } as const;
    const skipped_copies = (['dupe_limit', 'no_lot', 'dupe_limit'] as const).map((reason) => ({ ...copy, reason }));
    const data = simulationData({ title: 't', request, response: { ...response, skipped_copies }, prices: null });
    expect(data.skipped).toEqual({ dupe_limit: 2, no_lot: 1 });
    const noSkips = { ...response, skipped_copies: [] };
    expect(simulationData({ title: 't', request, response: noSkips, prices: null }).skipped).toEqual({});
    const { skipped_copies: _, ...withoutLog } = response;
    expect(simulationData({ title: 't', request, response: withoutLog, prices: null }).skipped).toBeNull();
  });
});
