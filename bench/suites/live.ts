import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TapeGenerator } from '../tape-generator.js';
import { row, type Row } from './row.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const LATENESS = 2;
/** Swaps a POST, and POSTs in flight at once. */
const BATCH = 500;
const CONNECTIONS = 4;

/** A swap's JSON cut at its time: `before + time + after`, so a batch is made without a stringify. */
interface SwapText {
  readonly before: string;
  readonly after: string;
}

/** The generator's swaps as text with the time left out, and the request following its leaders today. */
function feedMaterial(): { swaps: SwapText[]; request: object } {
  const generator = new TapeGenerator({ swaps: 20_000, leaders: 50, tokens: 200, marketWallets: 2_000, days: 1 });
  const swaps = [...generator.swaps()].map((swap) => {
    const [before, after] = JSON.stringify({ ...swap, time: 0 }).split('"time":0');
    return { before: `${before}"time":`, after: after! };
  });
  // A window around the wall clock, which the feed's times follow.
  const year = new Date().getUTCFullYear();
  const request = {
    ...generator.request(),
    wallets: generator.leaders.slice(0, 50),
    from_date: `${year - 1}-01-01`,
    to_date: `${year + 1}-12-31`,
  };
  return { swaps, request };
}

/** Starts `copysim follow` on a fresh log with ticks at the wall clock; its URL once it listens. */
async function startFollow(dir: string, requestFile: string): Promise<{ child: ChildProcess; url: string }> {
  const args = [
    CLI,
    'follow',
    '--request',
    requestFile,
    '--log',
    join(dir, 'run'),
    '--listen',
    '127.0.0.1:0',
    '--lateness',
    String(LATENESS),
    '--tick',
    '0.02',
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match !== null) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`copysim follow exited (${code}) before listening:\n${out}`)));
  });
  return { child, url };
}

async function status(url: string): Promise<{
  applied_swaps: number;
  inputs: { swaps: number };
  latency_ms: { p50: number; p99: number; max: number; count: number };
}> {
  return (await fetch(`${url}/status`)).json() as never;
}

/**
 * Posts batches of swaps stamped with the wall clock's second, `CONNECTIONS` at a time, for
 * `seconds`; gives the swaps acknowledged (each batch on disk: 202).
 */
async function load(url: string, swaps: readonly SwapText[], seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let next = 0;
  let acknowledged = 0;
  const worker = async (): Promise<void> => {
    while (performance.now() < until) {
      const time = Math.floor(Date.now() / 1000);
      const parts: string[] = [];
      for (let i = 0; i < BATCH; i++, next++) {
        const s = swaps[next % swaps.length]!;
        parts.push(`${s.before}${time}${s.after}`);
      }
      const answer = await fetch(`${url}/feed`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `[${parts.join(',')}]`,
      });
      if (answer.status !== 202) throw new Error(`POST /feed: ${answer.status} ${await answer.text()}`);
      await answer.arrayBuffer();
      acknowledged += BATCH;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return acknowledged;
}

/**
 * `copysim follow` taking a feed at full speed, its times the wall clock's (ticks every 20 ms,
 * as `--tick` gives them): swaps acknowledged (on disk, fdatasync'd) and applied a second, and
 * the wait from acknowledgement to applied, p99, against the lateness plus 50 ms.
 */
export async function liveSuite(seconds: number, targets = true): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'copysim-bench-live-'));
  const { swaps, request } = feedMaterial();
  const requestFile = join(dir, 'request.json');
  writeFileSync(requestFile, JSON.stringify(request));
  const { child, url } = await startFollow(dir, requestFile);
  try {
    const native = await fetch(`${url}/feed/native-prices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([[Math.floor(Date.now() / 1000) - 3600, 150]]),
    });
    if (native.status !== 202) throw new Error(`POST /feed/native-prices: ${native.status} ${await native.text()}`);
    const started = performance.now();
    const acknowledged = await load(url, swaps, seconds);
    // Every swap is applied once the clock passes its time by the lateness.
    let now = await status(url);
    while (now.applied_swaps < acknowledged) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      now = await status(url);
    }
    const elapsed = (performance.now() - started) / 1000;
    const { p50, max, count } = now.latency_ms;
    const swapsSent = acknowledged.toLocaleString('en-US');
    const note = `${swapsSent} swaps in ${seconds} s of load, ${CONNECTIONS} connections × ${BATCH} swaps a POST`;
    return [
      row('live', 'swaps/s acknowledged (log flushed)', acknowledged / seconds, 'swaps/s', {
        ...(targets ? { atLeast: 20_000 } : {}),
        note,
      }),
      row('live', 'last swap applied after the load', elapsed - seconds, 's', {
        note: `the lateness holds the last swaps back ${LATENESS} s`,
      }),
      row('live', 'acknowledged → applied, p99', now.latency_ms.p99, 'ms', {
        ...(targets ? { atMost: LATENESS * 1000 + 50 } : {}),
        note: `lateness ${LATENESS} s; p50 ${p50} ms, max ${max} ms, ${count} swaps`,
      }),
    ];
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}
