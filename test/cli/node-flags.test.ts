/**
 * `copysim simulate` and `copysim sweep` run in a node started with the replay flags: the
 * command starts node again when they are missing, and the child's exit code and output are
 * the command's.
 */
import { spawnSync } from 'node:child_process';
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
