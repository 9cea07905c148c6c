import { Bench } from 'tinybench';
import { Decimal } from '../../src/model/decimal.js';
import { row, type Row } from './row.js';

/**
 * What one operation of the project's decimal type (decimal.js, 40 significant digits) costs
 * on this machine: the unit every follower trade is paid in (a trade takes some twenty of them,
 * three of which divisions, plus three or so for each open deal re-valued for the PnL chart).
 */
export async function decimalSuite(): Promise<Row[]> {
  const a = new Decimal(1234.5678).div(3);
  const b = new Decimal('0.00012345').div(7);
  let sink: unknown;
  const bench = new Bench({ time: 300, warmupTime: 50 });
  bench
    .add('parse "1.9950556e-7"', () => void (sink = new Decimal('1.9950556e-7')))
    .add('plus', () => void (sink = a.plus(b)))
    .add('times', () => void (sink = a.times(b)))
    .add('div', () => void (sink = a.div(b)))
    .add('toNumber', () => void (sink = a.toNumber()));
  await bench.run();
  void sink;
  return bench.tasks.map((task) => {
    const latency = task.result?.latency;
    if (latency === undefined) throw new Error(`no result for ${task.name}`);
    return row('decimal', `ns per ${task.name}`, (latency.p50 ?? latency.mean) * 1e6, 'ns', { note: 'median' });
  });
}
