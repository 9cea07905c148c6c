import { Bench } from 'tinybench';
import { Decimal, DecimalJs40 } from '../../src/numeric/decimal.js';
import { row, type Row } from './row.js';

/** The operations measured, as both types spell them. */
interface Operations {
  plus(x: Operations): Operations;
  times(x: Operations): Operations;
  div(x: Operations): Operations;
  toNumber(): number;
}

/**
 * What one operation of the engine's decimal type (Decimal40) costs on this machine, beside the
 * same operation in decimal.js at the same settings, whose results it reproduces: the unit
 * every follower trade is paid in (a trade takes some twenty of them, two or three of which
 * divisions, plus three or so for each open deal re-valued for the PnL chart).
 */
export async function decimalSuite(): Promise<Row[]> {
  const rows: Row[] = [];
  const types: [string, (x: string | number) => Operations][] = [
    ['Decimal40', (x) => new Decimal(x) as unknown as Operations],
    ['decimal.js', (x) => new DecimalJs40(x) as unknown as Operations],
  ];
  for (const [label, make] of types) {
    // 40-digit operands, as after a division: the common case inside a replay.
    const a = make(1234.5678).div(make(3));
    const b = make('0.00012345').div(make(7));
    let sink: unknown;
    const bench = new Bench({ time: 300, warmupTime: 50 });
    bench
      .add('parse "1.9950556e-7"', () => void (sink = make('1.9950556e-7')))
      .add('plus', () => void (sink = a.plus(b)))
      .add('times', () => void (sink = a.times(b)))
      .add('div', () => void (sink = a.div(b)))
      .add('toNumber', () => void (sink = a.toNumber()));
    await bench.run();
    void sink;
    for (const task of bench.tasks) {
      const latency = task.result?.latency;
      if (latency === undefined) throw new Error(`no result for ${task.name}`);
      rows.push(
        row('decimal', `ns per ${task.name}, ${label}`, (latency.p50 ?? latency.mean) * 1e6, 'ns', { note: 'median' }),
      );
    }
  }
  return rows;
}
