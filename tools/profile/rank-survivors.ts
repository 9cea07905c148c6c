/**
 * Where the objects that outlive V8's young generation in a rank come from: a sampling heap
 * profile (the inspector's `HeapProfiler.startSampling`) that leaves out the objects a scavenge
 * collects and keeps those a mark-compact collects later, so that it counts what the
 * scavenges promote, by allocation site (the last three frames):
 *
 *   node --max-semi-space-size=64 --expose-gc dist/tools/profile/rank-survivors.js TAPE.json REQUEST.json [TOP] [--all]
 *
 * With `--all` it keeps the objects scavenges collect too: everything the rank allocates. The
 * tape is read and indexed before the profile starts; the rank runs in this thread.
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { readTapeFile } from '../../src/io/read-tape.js';
import { rankWallets } from '../../src/rank/pipeline.js';
import { isMain } from '../is-main.js';
import { runScript } from '../script-args.js';
import { UsageError } from '../../src/cli/usage.js';

const USAGE = 'usage: node dist/tools/profile/rank-survivors.js TAPE.json REQUEST.json [TOP] [--all]';

interface SampleNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly SampleNode[];
}

/** Bytes sampled by allocation site, largest first. */
function bySite(head: SampleNode): [string, number][] {
  const sites = new Map<string, number>();
  const visit = (node: SampleNode, frames: readonly string[]): void => {
    const { functionName, url, lineNumber } = node.callFrame;
    const here = [...frames, `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}`];
    if (node.selfSize > 0) {
      const site = here.slice(-3).join(' < ');
      sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
    }
    for (const child of node.children) visit(child, here);
  };
  visit(head, []);
  return [...sites].sort((a, b) => b[1] - a[1]);
}

async function main(argv: readonly string[]): Promise<void> {
  const all = argv.includes('--all');
  const [tapePath, requestPath, top = '25'] = argv.filter((arg) => arg !== '--all');
  if (tapePath === undefined || requestPath === undefined) throw new UsageError('give a tape and a request');
  const tape = readTapeFile(tapePath);
  const request: unknown = JSON.parse(readFileSync(requestPath, 'utf8'));
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 1 << 16,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: all,
  });
  const rows = rankWallets(tape, request);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: SampleNode } };
  session.disconnect();
  const sites = bySite(profile.head);
  const total = sites.reduce((sum, [, bytes]) => sum + bytes, 0);
  const what = all ? 'allocated' : 'outliving a scavenge';
  process.stdout.write(`${rows.length} wallets ranked; ${(total / 1e6).toFixed(0)} MB sampled ${what}\n`);
  for (const [site, bytes] of sites.slice(0, Number(top))) {
    process.stdout.write(`${(bytes / 1e6).toFixed(1).padStart(8)} MB  ${site}\n`);
  }
}

if (isMain(import.meta.url)) runScript('rank-survivors', USAGE, main);
