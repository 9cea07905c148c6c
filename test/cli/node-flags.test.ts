/**
 * `copysim simulate` and `copysim sweep` run in a node started with the replay flags: the
 * command starts node again when they are missing, and the child's exit code and output are
 * the command's. `sweep --queue` replays nothing and `copysim worker` replays on threads that
 * take the flags as they start: neither starts a second node.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { needsReplayFlags, REPLAY_NODE_FLAGS } from '../../src/cli/node-flags.js';
import { ensureBuild } from '../server/support/build.js';

describe('needsReplayFlags', () => {
  const flags = [...REPLAY_NODE_FLAGS];
  it('asks for a restart only for the replay commands, and only without the flags', () => {
    expect(needsReplayFlags(['simulate', '--tape', 't.json'], [])).toBe(true);
    expect(needsReplayFlags(['sweep'], ['--inspect'])).toBe(true);
    expect(needsReplayFlags(['simulate'], flags)).toBe(false);
    expect(needsReplayFlags(['simulate'], [], ` --trace-warnings ${flags.join(' ')}`)).toBe(false); // NODE_OPTIONS
    for (const other of [[], ['example'], ['serve'], ['wallets'], ['--help']])
      expect(needsReplayFlags(other, [])).toBe(false);
  });

  it('asks for none for a sweep on the queue or a queue worker; a rank on the queue still replays here', () => {
    expect(needsReplayFlags(['sweep', '--tape', 't.json', '--queue', 'redis://h:1'], [])).toBe(false);
    expect(needsReplayFlags(['sweep', '--queue=redis://h:1', '--tape', 't.json'], [])).toBe(false);
    expect(needsReplayFlags(['worker', '--queue', 'redis://h:1'], [])).toBe(false);
    expect(needsReplayFlags(['rank', '--tape', 't.json', '--queue', 'redis://h:1'], [])).toBe(true);
  });
});

describe('giveThreadsReplayFlags', () => {
  it('gives threads started after it gc, a young generation past the default, no background compiling', async () => {
    const { main } = await ensureBuild();
    const flags = pathToFileURL(join(main, '..', 'node-flags.js')).href;
    // A thread that reports what it got; V8 traces each function it queues for a background compiler.
    const thread = `
      const { parentPort } = require('node:worker_threads');
      const v8 = require('node:v8');
      function f(a, b) { return a * b + a; }
      let s = 0;
      for (let i = 0; i < 1e7; i++) s += f(i, 2);
      let keep = [];
      for (let i = 0; i < 3e6; i++) { keep.push({ i }); if (keep.length > 2e5) keep = []; }
      const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
      parentPort.postMessage(typeof gc + ' ' + young.space_size);`;
    const script = `
      import { setFlagsFromString } from 'node:v8';
      import { Worker } from 'node:worker_threads';
      const { giveThreadsReplayFlags } = await import(${JSON.stringify(flags)});
      giveThreadsReplayFlags();
      setFlagsFromString('--trace-concurrent-recompilation');
      const w = new Worker(${JSON.stringify(thread)}, { eval: true, execArgv: [] });
      w.on('message', (m) => { process.stdout.write(m + '\\n'); void w.terminate(); });`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.stdout).not.toContain('concurrent');
    const [gc, youngBytes] = child.stdout.trim().split(' ');
    expect(gc).toBe('function');
    // Two semi-spaces, grown as the young generation fills: node's default lets them reach 16 MB each.
    expect(Number(youngBytes)).toBeGreaterThan(2 * 16 * 1024 * 1024);
  });
});

describe('the restarted command', () => {
  it('prints what the command prints and exits with its code', async () => {
    const { main } = await ensureBuild();
    const run = (args: string[]) => spawnSync(process.execPath, [main, ...args], { encoding: 'utf8' });

    const ok = run([
      'simulate',
      '--tape',
      'fixtures/example/tape-sol.json',
      '--request',
      'fixtures/example/request-sol.json',
    ]);
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout).summary.pnl_total).toBeCloseTo(5446.038195624699, 9);

    const missing = run(['simulate', '--tape', 'no-such-tape.json', '--request', 'fixtures/example/request-sol.json']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('no-such-tape.json: no such file');

    // Already started with the flags: no second node, the same answer.
    const direct = spawnSync(
      process.execPath,
      [
        ...REPLAY_NODE_FLAGS,
        main,
        'simulate',
        '--tape',
        'fixtures/example/tape-sol.json',
        '--request',
        'fixtures/example/request-sol.json',
      ],
      {
        encoding: 'utf8',
      },
    );
    expect(direct.stdout).toBe(ok.stdout);
  });
});
