/**
 * The warnings about the follower's own trades reach the service's callers: the simulation
 * worker runs `diagnose` with the served tape in memory and the service's engine options, and
 * the simulator route sends what it finds in the X-Copysim-Warnings header (errors.test.ts
 * checks the header itself).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SimulationPool, WarningSchema } from './support/api.js';
import { ensureBuild } from './support/build.js';
import { at, buy, request, sell, tape, TOKEN_X, LEADER_A, MARKET } from '../support/scenario.js';

const dir = mkdtempSync(join(tmpdir(), 'copysim-trade-warnings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The market trades X at 1 USD every 10 s; a dust print at 0.01 USD at at(103) is what a copy
// 5 s late buys at; no swap gives the pool's liquidity.
const swaps = [
  ...Array.from({ length: 41 }, (_, k) => buy(MARKET, TOKEN_X, at(10 * k), 5, 1)),
  buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
  sell(LEADER_A, TOKEN_X, at(300), 1000, 1),
  sell('Junk1111111111111111111111111111111111111111', TOKEN_X, at(103), 0.01, 0.01, { usd_amount: 0.0001 }),
];

describe("the service's simulation worker", () => {
  it('warns of a fill at a junk print and of trades into pools of unknown liquidity', async () => {
    await ensureBuild();
    const file = join(dir, 'tape-sol.json');
    writeFileSync(file, JSON.stringify(tape(swaps)));
    const pool = await SimulationPool.start({ tapes: [{ network: 'sol', file }], size: 1 });
    try {
      const { warnings } = await pool.run('sol', request({ strategy: { copy_delay_seconds: 5 } }));
      expect(warnings.map((w) => w.code)).toEqual(['price_far_from_market', 'unknown_liquidity']);
      expect(warnings[0]!.swaps).toEqual([43]);
      expect(warnings.every((w) => WarningSchema.safeParse(w).success)).toBe(true);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
