import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { startQueueWorker } from '../distributed/worker.js';
import { shownUrl } from '../distributed/redis.js';
import { EXIT_OK, type CliIo } from './io.js';
import { giveThreadsReplayFlags } from './node-flags.js';
import { UsageError } from './usage.js';

export const WORKER_HELP = `copysim worker --queue redis://HOST:PORT [--threads N] [--lock-seconds S]

Takes jobs from the queue that "copysim sweep|rank --queue URL" fills, and runs them until stopped
(Ctrl-C or SIGTERM: the jobs under way finish first). Start one on every machine that should
help; each reads a job's tape at the path the job names (shared storage) and refuses a tape
whose SHA-256 is not the producer's.

  --queue URL        Redis: redis://[USER:PASSWORD@]HOST:PORT[/DB], rediss://… or unix:///PATH
  --threads N        jobs run at once, each on a worker thread (default: the cores, ${availableParallelism()})
  --lock-seconds S   how long a job stays claimed by a worker that stops answering (killed,
                     machine down) before another worker takes it over (default 30)

Exit codes: 0 stopped by a signal; 1 Redis does not answer or a flag is wrong (a message on
standard error).`;

function parsePositive(flag: string, text: string | undefined, whole: boolean): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!(n > 0) || !Number.isFinite(n) || (whole && !Number.isInteger(n))) {
    throw new UsageError(`--${flag} must be a ${whole ? 'whole ' : ''}number > 0, not "${text}"`);
  }
  return n;
}

export async function workerCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      queue: { type: 'string' },
      threads: { type: 'string' },
      'lock-seconds': { type: 'string' },
    },
    strict: true,
  });
  if (values.queue === undefined) throw new UsageError('worker needs --queue URL');
  const threads = parsePositive('threads', values.threads, true) ?? availableParallelism();
  const lockSeconds = parsePositive('lock-seconds', values['lock-seconds'], false) ?? 30;
  const url = values.queue;
  // The jobs run on worker threads, which take the replay flags as they start: no second node.
  giveThreadsReplayFlags();
  const worker = await startQueueWorker({
    url,
    threads,
    lockSeconds,
    log: (line) => io.err(`copysim worker: ${line}\n`),
  });
  io.err(
    `copysim worker: waiting for jobs on ${shownUrl(url)}, ${threads} thread${threads === 1 ? '' : 's'}` +
      ` (Ctrl-C to stop)\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      io.err(`copysim worker: ${signal}: finishing the jobs under way\n`);
      // A second signal ends the process at once (the jobs under way go back to the queue). Not
      // one within a second of the first: a terminal's Ctrl-C reaches this process twice when a
      // parent passes it on too (npx, or a node that started this one).
      const first = Date.now();
      const force = (): void => {
        if (Date.now() - first >= 1_000) process.exit(130);
      };
      process.on('SIGINT', force);
      process.on('SIGTERM', force);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await worker.close();
  io.err('copysim worker: stopped\n');
  return EXIT_OK;
}
