/**
 * `copysim simulate` starts the thread that will parse a JSON tape before the command's modules
 * load, and only where the tape will stream on it; the thread that prints a large response
 * while the replay runs, and stops it when the response has no use for it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSimulateThreads } from '../../src/cli/early-threads.js';
import { waitingThreads } from '../../src/io/reading-thread.js';
import { cli } from '../support/cli.js';
import { PROJECT_ROOT } from '../support/paths.js';

describe('the reading thread started ahead', () => {
  it('starts none for help, a JSONL or Parquet tape, --html, or no tape', async () => {
    expect((await cli('simulate', '--tape', 'tape.json', '--help')).code).toBe(0);
    startSimulateThreads(['--tape', 'tape.jsonl', '--request', 'r.json']);
    startSimulateThreads(['--tape=tape.PARQUET', '--request', 'r.json']);
    startSimulateThreads(['--tape', 'tape.json', '--html', 'report.html']);
    startSimulateThreads(['--request', 'r.json']);
    startSimulateThreads(['--tape']);
    expect(waitingThreads()).toEqual([]);
  });

  it('leaves none waiting after a run: the thread that prints a large response is stopped when unused', async () => {
    const example = join(PROJECT_ROOT, 'fixtures', 'example');
    const args = ['--tape', join(example, 'tape-sol.json'), '--request', join(example, 'request-sol.json')];
    expect((await cli('simulate', ...args)).code).toBe(0); // too few trades for the thread
    expect(waitingThreads()).toEqual([]);
  });

  it('starts one for a JSON tape, however the flag is written, and no second one', () => {
    startSimulateThreads(['--request', 'r.json', '--tape=tape.json']);
    startSimulateThreads(['--tape', 'other.json']);
    expect(waitingThreads()).toEqual(['io/json-tape/block-thread.js']);
  });
});
