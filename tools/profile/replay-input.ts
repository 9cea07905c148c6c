import { existsSync, readFileSync } from 'node:fs';
import type { ReplayControl } from '../../src/engine/replay.js';
import type { IndexedTape } from '../../src/engine/tape-index.js';
import { readTapeFile } from '../../src/io/read-tape.js';
import { parseSimulatorRequest, type SimulatorRequest } from '../../src/model/request.js';

/**
 * What a replay keeps, by name, for the scripts that replay a tape by hand (`replay-runs.js`,
 * `profile-modes.js`): `chart` the PnL chart's points, `trades` the trade records, `full` both
 * (as `simulate`), `summary` neither (as a sweep).
 */
export const REPLAY_MODES: Readonly<Record<string, ReplayControl>> = {
  chart: { chart: true, trades: false },
  summary: { chart: false, trades: false },
  trades: { chart: false, trades: true },
  full: { chart: true, trades: true },
};

/** The replay mode named `name`; an error listing the modes for any other name. */
export function replayMode(name: string): ReplayControl {
  const control = Object.hasOwn(REPLAY_MODES, name) ? REPLAY_MODES[name] : undefined;
  if (control === undefined) throw new Error(`the mode is one of ${Object.keys(REPLAY_MODES).join(', ')}, not ${name}`);
  return control;
}

/**
 * The tape at `tapePath`, indexed, and the request at `requestPath` (default: the tape's own,
 * `tape-N.request.json`). `generatedBy` is the command that makes a missing default file.
 */
export function readReplayInput(
  tapePath: string,
  requestPath: string | undefined,
  generatedBy: string,
): { tape: IndexedTape; request: SimulatorRequest } {
  const requestFile = requestPath ?? tapePath.replace(/\.jsonl?$/, '.request.json');
  for (const path of [tapePath, requestFile]) {
    if (!existsSync(path))
      throw new Error(`${path} is missing: \`${generatedBy}\` generates the default tape and request`);
  }
  const parsed = parseSimulatorRequest(JSON.parse(readFileSync(requestFile, 'utf8')));
  if (!parsed.success) throw new Error(`${requestFile} is not a valid request`);
  return { tape: readTapeFile(tapePath), request: parsed.data };
}

/**
 * The requests of a JSONL file of requests (one a line), parsed; an error naming the file when
 * it holds fewer than `atLeast` or one is not valid.
 */
export function readRequestLines(path: string, atLeast: number): SimulatorRequest[] {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  if (lines.length < atLeast) throw new Error(`${path} holds ${lines.length} requests; ${atLeast} are needed`);
  return lines.map((line, index) => {
    const parsed = parseSimulatorRequest(JSON.parse(line));
    if (!parsed.success) throw new Error(`${path}: request ${index} is not valid`);
    return parsed.data;
  });
}
