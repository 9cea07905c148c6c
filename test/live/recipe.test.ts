/**
 * The recipes of docs/live.md, run as written (bash, curl) in a folder laid out as a clone after
 * `npm run build`: a recorded feed replayed into `copysim follow` equals the backtest, and a
 * Helius webhook's posts give the response `simulate` gives on the log. The service's port is
 * the recipe's 8787 made a free one.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/paths.js';
import { ensureBuild } from '../server/support/build.js';

const tools = ['bash', 'curl', 'cmp', 'sed'].filter((tool) => spawnSync('which', [tool]).status !== 0);
if (tools.length > 0) console.warn(`the docs/live.md recipes test skipped: ${tools.join(', ')} not installed`);

/** The shell blocks of the section "Recipes" of docs/live.md, in order. */
function recipes(): string[] {
  const text = readFileSync(join(PROJECT_ROOT, 'docs', 'live.md'), 'utf8');
  const section = text.split('## Recipes')[1]!.split('\n## ')[0]!;
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
      .on('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
  });
}

describe.skipIf(tools.length > 0)('the recipes of docs/live.md', () => {
  let clone: string;
  beforeAll(async () => {
    const build = await ensureBuild();
    clone = mkdtempSync(join(tmpdir(), 'copysim-live-recipe-'));
    symlinkSync(join(build.dir, 'dist'), join(clone, 'dist'));
    for (const name of ['fixtures', 'web', 'node_modules', 'package.json'])
      symlinkSync(join(PROJECT_ROOT, name), join(clone, name));
  });
  afterAll(() => rmSync(clone, { recursive: true, force: true }));

  it('has the two recipes', () => {
    expect(recipes()).toHaveLength(2);
  });

  it('a recorded feed replayed into it equals the backtest, and runs again with other settings', () => {
    execFileSync('bash', ['-e', '-c', recipes()[0]!], { cwd: clone, stdio: 'pipe', timeout: 120_000 });
    expect(readFileSync(join(clone, 'live.json'), 'utf8')).toBe(readFileSync(join(clone, 'backtest.json'), 'utf8'));
  });

  it("a Helius webhook's posts end in the response simulate gives on the log", async () => {
    const port = String(await freePort());
    const script = recipes()[1]!.replaceAll('8787', port);
    // The service the recipe starts is stopped by its pid however the script ends.
    const guarded = `trap 'kill $(jobs -p) 2> /dev/null || true' EXIT\n${script}\nwait`;
    const out = execFileSync('bash', ['-e', '-c', guarded], { cwd: clone, encoding: 'utf8', timeout: 120_000 });
    expect(out).toMatch(/"accepted":2,"feed_time":1719913527/);
    expect(out).toMatch(/the feed passed window_end/);
    const response = JSON.parse(readFileSync(join(clone, 'run-h', 'response.json'), 'utf8'));
    expect(response.deals).toHaveLength(1);
    expect(response.deals[0].status).toBe('closed');
  });
});
