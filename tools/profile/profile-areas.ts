/**
 * Where a CPU profile's time goes by part of the code: the self time of its samples grouped by
 * the directory under `src/` their function lies in (`src/engine`, `src/numeric`, ...), with
 * V8's garbage collector, node's own code and the rest apart. It says how much a change of one
 * part could win at most: a part's share is the whole run's gain were it free.
 *
 *   node --max-semi-space-size=64 --expose-gc --no-concurrent-recompilation --cpu-prof \
 *     --cpu-prof-dir=/tmp/prof dist/src/cli/main.js rank --tape TAPE --request REQUEST --threads 1
 *   node dist/tools/profile/profile-areas.js /tmp/prof/CPU.*.cpuprofile
 */
import { readFileSync } from 'node:fs';
import { isMain } from '../is-main.js';
import { runScript } from '../script-args.js';
import { UsageError } from '../../src/cli/usage.js';

const USAGE = 'usage: node dist/tools/profile/profile-areas.js FILE.cpuprofile';

/** What this tool reads of a `.cpuprofile` (Chrome's format, written by `node --cpu-prof`). */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string };
  }[];
  readonly samples: readonly number[];
  /** Microseconds before each sample. */
  readonly timeDeltas: readonly number[];
}

/** A part of the code and the self time of its samples. */
export interface Area {
  readonly area: string;
  readonly ms: number;
  /** Of the whole profile, 0 to 1. */
  readonly share: number;
}

/** The part of the code a profile node lies in. */
export function areaOf(functionName: string, url: string): string {
  if (functionName === '(garbage collector)') return 'garbage collector';
  if (functionName === '(idle)' || functionName === '(program)') return functionName.slice(1, -1);
  const dependency = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (dependency !== null) return `node_modules/${dependency[1]}`;
  // The first directory under src/, however deep the file (src/io/parquet/read.js: src/io).
  const at = url.lastIndexOf('/src/');
  if (at >= 0) {
    const [first, ...rest] = url.slice(at + '/src/'.length).split('/');
    return rest.length === 0 ? 'src' : `src/${first}`;
  }
  if (url.startsWith('node:') || url === '') return 'node and native code';
  return 'other';
}

/** The profile's self time by area, largest first (ties by name). */
export function areasOf(profile: CpuProfile): Area[] {
  const areaOfNode = new Map(profile.nodes.map((n) => [n.id, areaOf(n.callFrame.functionName, n.callFrame.url)]));
  const micros = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, k) => {
    const area = areaOfNode.get(id);
    if (area === undefined) throw new Error(`sample ${k} names node ${id}, which the profile does not have`);
    const delta = profile.timeDeltas[k] ?? 0;
    micros.set(area, (micros.get(area) ?? 0) + delta);
    total += delta;
  });
  return [...micros]
    .map(([area, us]) => ({ area, ms: us / 1000, share: total === 0 ? 0 : us / total }))
    .sort((a, b) => b.ms - a.ms || (a.area < b.area ? -1 : 1));
}

function main(argv: readonly string[]): void {
  const [file] = argv;
  if (file === undefined) throw new UsageError('give the profile file');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const areas = areasOf(profile);
  const total = areas.reduce((sum, a) => sum + a.ms, 0);
  const lines = areas.map(
    ({ area, ms, share }) => `${ms.toFixed(0).padStart(8)} ms ${(100 * share).toFixed(1).padStart(5)} %  ${area}\n`,
  );
  process.stdout.write(`${total.toFixed(0)} ms sampled\n${lines.join('')}`);
}

if (isMain(import.meta.url)) runScript('profile-areas', USAGE, main);
