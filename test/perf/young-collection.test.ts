/**
 * A sweep collects the young generation between walks of the tape when node runs with the
 * replay flags (`--expose-gc` among them), and does nothing without them.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPLAY_NODE_FLAGS } from '../../src/cli/node-flags.js';
import { ensureBuild } from '../server/support/build.js';

/** Minor collections seen by a node with `flags` across one collectYoungGeneration() call. */
async function minorCollections(flags: readonly string[]): Promise<{ status: number | null; minors: number }> {
  const { main } = await ensureBuild();
  const module = pathToFileURL(join(dirname(main), '..', 'sweep', 'young-collection.js')).href;
  const script = `
    const { constants, PerformanceObserver } = await import('node:perf_hooks');
    const { collectYoungGeneration } = await import(${JSON.stringify(module)});
    let minors = 0;
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MINOR) minors++;
    });
    observer.observe({ entryTypes: ['gc'] });
    await new Promise((r) => setTimeout(r, 50));
    minors = 0;
    collectYoungGeneration();
    await new Promise((r) => setTimeout(r, 50));
    console.log(minors);`;
  const run = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script], { encoding: 'utf8' });
  return { status: run.status, minors: Number(run.stdout.trim()) };
}

describe('collectYoungGeneration', () => {
  it('is one minor collection under the replay flags, and nothing without them', async () => {
    expect(REPLAY_NODE_FLAGS).toContain('--expose-gc');
    expect(await minorCollections(REPLAY_NODE_FLAGS)).toEqual({ status: 0, minors: 1 });
    expect(await minorCollections([])).toEqual({ status: 0, minors: 0 });
  });
});
