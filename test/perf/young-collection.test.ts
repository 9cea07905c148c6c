/**
 * What keeps a sweep's collector work small: its hosts (src/threads/) collect the young
 * generation between walks of the tape when node runs with the replay flags (`--expose-gc` among
 * them) and the young generation holds a few MB, and do nothing otherwise. Checked by counting
 * V8's minor collections in a child node. A regression here changes no result, only the speed,
 * so no other test would notice it.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPLAY_NODE_FLAGS } from '../../src/cli/node-flags.js';
import { WORTH_COLLECTING } from '../../src/threads/young-collection.js';
import { ensureBuild } from '../server/support/build.js';

/**
 * Minor collections a node with `flags` (and a 16 MB young generation from the start) makes
 * across one collectYoungGeneration() call, with `fill` bytes of objects in its young generation.
 */
async function minorCollections(
  flags: readonly string[],
  fill: number,
): Promise<{ status: number | null; minors: number; stderr: string }> {
  const { main } = await ensureBuild();
  const module = pathToFileURL(join(dirname(main), '..', 'threads', 'young-collection.js')).href;
  // Only collections that start at the call are counted: an earlier one's entry may be
  // delivered late on a slow machine.
  const script = `
    const { constants, performance, PerformanceObserver } = await import('node:perf_hooks');
    const { collectYoungGeneration, youngBytes } = await import(${JSON.stringify(module)});
    let from = Infinity;
    let minors = 0;
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MINOR && e.startTime >= from) minors++;
    });
    observer.observe({ entryTypes: ['gc'] });
    globalThis.gc?.({ type: 'minor' });
    const junk = [];
    while (youngBytes() < ${fill}) junk.push({ junk: junk.length });
    from = performance.now();
    collectYoungGeneration();
    await new Promise((r) => setTimeout(r, 200));
    console.log(minors);`;
  const run = spawnSync(process.execPath, [...flags, '--min-semi-space-size=16', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  return { status: run.status, minors: Number(run.stdout.trim()), stderr: run.stderr };
}

const MB = 1024 * 1024;

describe('collectYoungGeneration', () => {
  it('is one minor collection under the replay flags once the young generation holds 4 MB', async () => {
    expect(REPLAY_NODE_FLAGS).toContain('--expose-gc');
    expect(WORTH_COLLECTING).toBe(4 * MB);
    expect(await minorCollections(REPLAY_NODE_FLAGS, 5 * MB)).toEqual({ status: 0, minors: 1, stderr: '' });
  });

  it('does nothing below that, or without the flags', async () => {
    expect(await minorCollections(REPLAY_NODE_FLAGS, 3 * MB)).toEqual({ status: 0, minors: 0, stderr: '' });
    expect(await minorCollections([], 5 * MB)).toEqual({ status: 0, minors: 0, stderr: '' });
  });
});
