/**
 * Times the phases of `copysim simulate` on a JSON tape in one process, then the replay again on
 * copies of the indexed tape, to tell the cost of compiling the engine from that of the tape's
 * memo (the decimals a tape's later replays read instead of making):
 *
 *   node --max-semi-space-size=64 --expose-gc --no-concurrent-recompilation \
 *     dist/tools/profile/simulate-phases.js bench/data/heavy-1m/tape.json bench/data/heavy-1m/request.json
 *
 * The phases: reading, parsing, validating and indexing the tape; the replay with the chart
 * and the trade records (as `simulate` runs it); the warnings; writing the response (to a sink
 * that counts its characters), against building the response whole and `JSON.stringify`-ing
 * it at once (what the writer streams instead, for memory). Then the replay on a shallow copy
 * of the indexed tape (its own, empty memo; the code compiled), twice more on that copy (the
 * second fills the memo, the third reads it).
 */
import { diagnose } from '../../src/diagnose/index.js';
import { replay } from '../../src/engine/replay.js';
import type { IndexedTape } from '../../src/engine/tape-index.js';
import { writeResponseParts } from '../../src/io/json-stream.js';
import { resolveEngineOptions } from '../../src/model/options.js';
import { assembleResponse } from '../../src/report/response.js';
import { simulateParts } from '../../src/simulate.js';
import { isMain } from '../is-main.js';
import { readReplayInput, replayMode } from './replay-input.js';
import { runScript } from '../script-args.js';
import { UsageError } from '../../src/cli/usage.js';

const USAGE = 'usage: node dist/tools/profile/simulate-phases.js TAPE.json REQUEST.json';

/** Runs `work` and prints its wall time after `label`; gives its result. */
function timed<T>(label: string, work: () => T): T {
  const start = performance.now();
  const result = work();
  process.stdout.write(`${label.padEnd(44)} ${(performance.now() - start).toFixed(0).padStart(6)} ms\n`);
  return result;
}

function main(argv: readonly string[]): void {
  const [tapePath, requestPath] = argv;
  if (tapePath === undefined || requestPath === undefined) throw new UsageError('give a tape and a request');
  const { tape: indexed, request } = timed('read, parse, validate and index the tape', () =>
    readReplayInput(tapePath, requestPath, 'npm run bench -- --only heavy'),
  );
  const parts = timed('replay (chart and trades, as simulate)', () => simulateParts(indexed, request));
  timed('warnings', () => diagnose(indexed, request, { response: parts }));
  let characters = 0;
  timed('write the response', () =>
    writeResponseParts(parts, (text) => {
      characters += text.length;
    }),
  );
  process.stdout.write(`(${(characters / 1e6).toFixed(1)} MB of response)\n`);
  // The writer against the whole response built as objects and given to JSON.stringify at once.
  const whole = timed('the response built whole, as objects', () => assembleResponse(parts));
  const text = timed('  and JSON.stringify-ed at once', () => JSON.stringify(whole));
  if (text.length !== characters) throw new Error('the writer and JSON.stringify gave texts of different lengths');
  const options = resolveEngineOptions({});
  const control = replayMode('full');
  const copy: IndexedTape = { ...indexed };
  timed('replay on a copy: code compiled, memo empty', () => replay(copy, request, options, control));
  timed('again on the copy: the memo filled', () => replay(copy, request, options, control));
  timed('again on the copy: the memo read', () => replay(copy, request, options, control));
}

if (isMain(import.meta.url)) runScript('simulate-phases', USAGE, main);
