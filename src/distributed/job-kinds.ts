/**
 * The kinds of job a worker can run, by name. A kind says how a worker checks one input and runs
 * a chunk's accepted inputs over a tape with the run's settings; the job layer does the rest (chunks, tape checks,
 * threads, retries, gathering in input order). To add one: write a `JobKind` (job.ts) and list it in {@link JOB_KINDS};
 * its producer calls `runOnQueue` with the kind's name.
 */
import { InputError } from '../model/errors.js';
import type { ItemResult, JobItem, JobKind } from './job.js';
import { rankKind } from './rank-kind.js';
import { simulateKind } from './simulate-kind.js';
import { sweepKind } from './sweep-kind.js';

/** Every kind, by name. */
export const JOB_KINDS: ReadonlyMap<string, JobKind> = new Map<string, JobKind>(
  [sweepKind as JobKind, rankKind as JobKind, simulateKind as JobKind].map((kind) => [kind.name, kind]),
);

/**
 * Runs a chunk: each input checked by the kind, those accepted run together (`runAll`, with the
 * host's `afterWalk`); results in input order.
 */
export function runItems(
  kind: JobKind,
  context: unknown,
  items: readonly JobItem[],
  afterWalk?: () => void,
): ItemResult[] {
  const failed = (index: number, e: unknown): ItemResult => {
    if (e instanceof InputError) return { index, failure: e.message };
    throw e;
  };
  const results: ItemResult[] = [];
  const accepted: unknown[] = [];
  const slots: number[] = [];
  items.forEach(({ index, input }, k) => {
    try {
      const checked = kind.accept(context, input);
      if ('output' in checked) results[k] = { index, output: checked.output };
      else {
        accepted.push(checked.accepted);
        slots.push(k);
      }
    } catch (e) {
      results[k] = failed(index, e);
    }
  });
  kind.runAll(context, accepted, afterWalk).forEach((outcome, j) => {
    const k = slots[j]!;
    results[k] =
      'output' in outcome
        ? { index: items[k]!.index, output: outcome.output }
        : failed(items[k]!.index, outcome.thrown);
  });
  return results;
}
