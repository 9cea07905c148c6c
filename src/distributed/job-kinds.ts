/**
 * The kinds of job a worker can run, by name. A kind says what a worker does with a tape, the
 * run's settings and one input; the job layer does the rest (chunks, tape checks, threads,
 * retries, gathering in input order). To add one: write a `JobKind` (job.ts) and list it in
 * {@link JOB_KINDS}; its producer calls `runOnQueue` with the kind's name.
 */
import { InputError } from '../model/errors.js';
import type { ItemResult, JobItem, JobKind } from './job.js';
import { rankKind } from './rank-kind.js';
import { sweepKind } from './sweep-kind.js';

/** Every kind, by name. */
export const JOB_KINDS: ReadonlyMap<string, JobKind> = new Map<string, JobKind>(
  [sweepKind as JobKind, rankKind as JobKind].map((kind) => [kind.name, kind]),
);

/** Runs a chunk's inputs, together when the kind can (`runAll`), else one by one; results in input order. */
export function runItems(kind: JobKind, context: unknown, items: readonly JobItem[]): ItemResult[] {
  const failed = (index: number, e: unknown): ItemResult => {
    if (e instanceof InputError) return { index, failure: e.message };
    throw e;
  };
  if (kind.runAll !== undefined) {
    const outcomes = kind.runAll(
      context,
      items.map((item) => item.input),
    );
    return outcomes.map((outcome, k) => ('output' in outcome ? { index: items[k]!.index, output: outcome.output } : failed(items[k]!.index, outcome.thrown)));
  }
  return items.map(({ index, input }) => {
    try {
      return { index, output: kind.run(context, input) };
    } catch (e) {
      return failed(index, e);
    }
  });
}

