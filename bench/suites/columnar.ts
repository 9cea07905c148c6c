import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { convertTapeFile } from '../../src/io/convert-tape.js';
import { importDune } from '../../src/io/import/dune.js';
import { importFlipside } from '../../src/io/import/flipside.js';
import { readExportFile } from '../../src/io/import/export-rows.js';
import { validateTape } from '../../src/engine/tape-check.js';
import type { TapeInput } from '../../src/model/tape.js';
import { duneExportOf, flipsideExportOf } from '../../scripts/make-export.js';
import { cliNodeFlags, measure, type Measurement } from '../measure.js';
import { row, type Row } from './row.js';

function best(runs: readonly Measurement[]): Measurement {
  return runs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
}

/** The Parquet form of a JSON tape beside it (converted on first use). */
export function parquetOf(tape: string): string {
  const out = tape.replace(/\.(jsonl?|parquet)$/, '.parquet');
  if (!existsSync(out)) {
    process.stderr.write(`converting ${tape} to ${out} …\n`);
    convertTapeFile(tape, out);
  }
  return out;
}

/** SHA-256 of what `copysim simulate` prints for a tape and a request. */
function responseHash(tape: string, request: string): string {
  const main = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
  const out = execFileSync(
    process.execPath,
    [...cliNodeFlags(), main, 'simulate', '--tape', tape, '--request', request],
    // The warnings of `diagnose` stay out of the table's way; a failure still shows them in its error.
    { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return createHash('sha256').update(out).digest('hex');
}

/**
 * The columnar tape against JSON, side by side in turns, the best of `rounds` each:
 * `copysim simulate` on the Parquet form against reading and `JSON.parse`-ing the JSON form
 * (target: at most `targets.ratio`), the same response byte for byte, and the files' sizes
 * (target: at most `targets.size`).
 */
export function columnarSuite(
  tape: string,
  request: string,
  swaps: number,
  rounds: number,
  targets: { readonly ratio?: number; readonly size?: number } = {},
  suite = 'columnar',
): Row[] {
  const parquet = parquetOf(tape);
  const floors: Measurement[] = [];
  const sims: Measurement[] = [];
  for (let i = 0; i < rounds; i++) {
    floors.push(measure(['floor', tape]));
    sims.push(measure(['cli', 'simulate', '--tape', parquet, '--request', request]));
  }
  if (sims.some((m) => m.exitCode !== 0)) throw new Error('copysim simulate on the Parquet tape failed');
  const same = responseHash(tape, request) === responseHash(parquet, request);
  const floor = best(floors);
  const sim = best(sims);
  const note = `${swaps.toLocaleString('en-US')} swaps, best of ${rounds} side by side`;
  const jsonMb = statSync(tape).size / 1e6;
  const parquetMb = statSync(parquet).size / 1e6;
  return [
    row(suite, 'read + JSON.parse of the JSON tape', floor.wallMs, 'ms', { note }),
    row(suite, 'copysim simulate, Parquet tape', sim.wallMs, 'ms', { note: `${note}, output to /dev/null` }),
    row(suite, 'ratio to the JSON.parse floor', sim.wallMs / floor.wallMs, '×', {
      ...(targets.ratio !== undefined ? { atMost: targets.ratio } : {}),
      note: 'wall time',
    }),
    row(suite, 'ratio, CPU time', sim.cpuMs / floor.cpuMs, '×', { note: 'all threads, GC included' }),
    row(suite, "response identical to the JSON tape's", same ? 1 : 0, '(1 = yes)', {
      atLeast: 1,
      note: 'SHA-256 of both outputs',
    }),
    row(suite, 'Parquet size / JSON size', parquetMb / jsonMb, '×', {
      ...(targets.size !== undefined ? { atMost: targets.size } : {}),
      note: `${parquetMb.toFixed(1)} MB against ${jsonMb.toFixed(1)} MB`,
    }),
    row(suite, 'simulate peak RSS', sim.peakRssMb, 'MiB', {
      note: `the floor: ${Math.round(floor.peakRssMb)} MiB`,
    }),
  ];
}

/** `copysim simulate` on a large Parquet tape: a row group at a time, peak memory bounded. */
export function columnarStreamSuite(tape: string, request: string, swaps: number, targets = true): Row[] {
  const parquet = parquetOf(tape);
  const run = measure(['cli', 'simulate', '--tape', parquet, '--request', request]);
  if (run.exitCode !== 0) throw new Error('copysim simulate on the large Parquet tape failed');
  const note = `${swaps.toLocaleString('en-US')} swaps from Parquet, ${run.outputMb.toFixed(0)} MB of response`;
  return [
    row('columnar stream', 'peak RSS', run.peakRssMb, 'MiB', { ...(targets ? { atMost: 1024 } : {}), note }),
    row('columnar stream', 'swaps/s', swaps / (run.wallMs / 1000), 'swaps/s', {
      note: `${Math.round(run.wallMs / 1000)} s wall`,
    }),
  ];
}

/** The CSV exports the importer suite reads: each made once from the tape, beside it. */
const CSV_EXPORTS = [
  { provider: 'dune', schema: 'Dune dex_solana.trades', exportOf: duneExportOf, importOf: importDune },
  {
    provider: 'flipside',
    schema: 'Flipside ez_dex_swaps (Solana)',
    exportOf: flipsideExportOf,
    importOf: importFlipside,
  },
] as const;

/**
 * The importers' rows/s on a CSV export: the tape as a Dune `dex_solana.trades` CSV and as a
 * Flipside `ez_dex_swaps` CSV (each made once beside it), read and imported in this process, the
 * best of `rounds` each, the two taking turns round by round. Target: 200,000 rows/s.
 */
export function importerSuite(tape: string, rounds: number, targets = true): Row[] {
  let parsed: TapeInput | undefined;
  const runs = CSV_EXPORTS.map((csv) => {
    const path = tape.replace(/\.json$/, `.${csv.provider}.csv`);
    if (!existsSync(path))
      writeFileSync(path, csv.exportOf((parsed ??= validateTape(JSON.parse(readFileSync(tape, 'utf8'))))));
    return { ...csv, path, file: `${csv.provider}.csv`, bestMs: Infinity, rows: 0 };
  });
  for (let i = 0; i < rounds; i++) {
    for (const run of runs) {
      const start = performance.now();
      // Read as `copysim import` reads an export.
      const { report } = run.importOf(readExportFile(run.path, run.file, run.provider), run.file);
      run.bestMs = Math.min(run.bestMs, performance.now() - start);
      run.rows = report.rows;
    }
  }
  return runs.map((run) =>
    row('importer', `import ${run.provider}, rows/s`, run.rows / (run.bestMs / 1000), 'rows/s', {
      ...(targets ? { atLeast: 200_000 } : {}),
      note: `${run.rows.toLocaleString('en-US')} rows of a ${run.schema} CSV (${(statSync(run.path).size / 1e6).toFixed(0)} MB), read and imported, best of ${rounds}`,
    }),
  );
}
