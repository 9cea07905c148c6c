import { parseArgs } from 'node:util';
import { readJson, readText } from '../io/files.js';
import { parseSimulatorRequest } from '../model/request.js';
import { LiveRun, partsText } from '../live/live-run.js';
import { feedStream } from '../live/stdin-feed.js';
import { EXIT_OK, EXIT_REQUEST, formatJson, type CliIo } from './io.js';
import { UsageError } from './usage.js';

export const FOLLOW_HELP = `copysim follow --request REQUEST.json --log DIR [--options OPTIONS.json]
               [--listen HOST:PORT] [--stdin] [--lateness SECONDS] [--tick SECONDS]

Paper trading on a live feed: runs the simulator request on swaps as they come, and keeps its
state in DIR. Every input is appended to DIR/feed.jsonl and flushed to disk before it is
acknowledged; started again on the same DIR (after a crash too), it reads the log back and goes
on. When the feed's time passes the request's window_end (plus the lateness), the run ends and
DIR/response.json holds its response: byte for byte what "copysim simulate --tape
DIR/feed.jsonl --request REQUEST.json" prints.

  --request FILE      the request body (interface 4.1) as JSON
  --log DIR           the run's folder: feed.jsonl (the log), response.json once ended
  --options FILE      engine options as JSON (as for "copysim simulate")
  --listen HOST:PORT  serve the feed over HTTP (default 127.0.0.1:8787; port 0 picks a free one):
                        POST /feed                swaps (a JSON array, or JSONL), 202 once logged
                        POST /feed/tokens         the tape's tokens map
                        POST /feed/native-prices  [[time, usd], …] of the native coin
                        POST /feed/tick           {"time": T}: the feed's clock moves on
                        POST /feed/helius         a Helius enhanced-transaction webhook's list
                        GET /state                the response so far (the final one once ended)
                        GET /status               where the feed stands; GET /events: both, live
                        GET /                     the live page
  --stdin             read inputs as JSONL from standard input (a JSONL tape, or another run's
                      feed.jsonl, replays as it is); without --listen, print the response at
                      the end of the input (the run closed there if it has not ended) and exit
  --lateness SECONDS  how long inputs are held back for inputs that come a little out of
                      order (default 2; a log keeps the lateness it was begun with); an input
                      older than the feed's latest time less this is refused (409)
  --tick SECONDS      every SECONDS of wall time, a tick at the wall clock's time, from the
                      feed's first swap on (for a feed whose times are the wall clock's:
                      time-fixes, max-hold exits and delayed copies fire on time)

Prints "listening on URL" once ready; stops cleanly on SIGINT or SIGTERM. See docs/live.md.

Exit codes: 0 stopped (or the input ended); 2 the request fails validation (the 400 body on
standard output); 1 the log, options or address cannot be used.`;

const DEFAULT_LISTEN = '127.0.0.1:8787';

interface FollowFlags {
  readonly request: string;
  readonly log: string;
  readonly options?: string;
  readonly listen: { readonly host: string; readonly port: number } | null;
  readonly stdin: boolean;
  readonly lateness?: number;
  readonly tick?: number;
}

function seconds(flag: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined;
  const n = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (!(n >= min && n <= 86_400)) throw new UsageError(`${flag} must be seconds from ${min} to 86400, not "${text}"`);
  return n;
}

function address(text: string): { host: string; port: number } {
  const match = /^(.+):(\d+)$/.exec(text);
  const port = match === null ? NaN : Number(match[2]);
  if (match === null || !(port >= 0 && port <= 65535))
    throw new UsageError(`--listen must be HOST:PORT (e.g. 127.0.0.1:8787), not "${text}"`);
  return { host: match[1]!.replace(/^\[(.*)\]$/, '$1'), port };
}

function parseFollowFlags(args: string[]): FollowFlags {
  const { values } = parseArgs({
    args,
    options: {
      request: { type: 'string' },
      log: { type: 'string' },
      options: { type: 'string' },
      listen: { type: 'string' },
      stdin: { type: 'boolean', default: false },
      lateness: { type: 'string' },
      tick: { type: 'string' },
    },
    strict: true,
  });
  if (values.request === undefined) throw new UsageError('follow needs --request FILE');
  if (values.log === undefined) throw new UsageError('follow needs --log DIR');
  const listen = values.listen !== undefined ? address(values.listen) : values.stdin ? null : address(DEFAULT_LISTEN);
  const lateness = seconds('--lateness', values.lateness, 0);
  const tick = seconds('--tick', values.tick, 0.01);
  return {
    request: values.request,
    log: values.log,
    listen,
    stdin: values.stdin,
    ...(values.options !== undefined ? { options: values.options } : {}),
    ...(lateness !== undefined ? { lateness } : {}),
    ...(tick !== undefined ? { tick } : {}),
  };
}

export async function followCommand(args: string[], io: CliIo): Promise<number> {
  const flags = parseFollowFlags(args);
  const request = readRequest(flags.request, io);
  if (request === undefined) return EXIT_REQUEST;
  const options = flags.options === undefined ? {} : (readJson(flags.options, 'options') as object);
  const run = await LiveRun.open({
    dir: flags.log,
    request,
    options,
    ...(flags.lateness !== undefined ? { lateness: flags.lateness } : {}),
  });
  const read = run.status();
  if (read.inputs.swaps + read.inputs.ticks > 0)
    io.out(`copysim follow: ${run.logPath}: read back, feed time ${read.feed_time ?? '–'}\n`);
  return flags.listen === null ? followStdin(run, io) : serve(run, flags, io);
}

/** The request, checked; undefined (its 400 body printed) when it fails validation. */
function readRequest(path: string, io: CliIo): unknown {
  let request: unknown;
  try {
    request = JSON.parse(readText(path, 'request'));
  } catch (e) {
    const message = `the request is not valid JSON: ${(e as Error).message}`;
    io.out(formatJson({ code: 'validation_error', detail: [{ path: '', message }] }, false));
    return undefined;
  }
  const parsed = parseSimulatorRequest(request);
  if (!parsed.success) {
    io.out(formatJson(parsed.error, false));
    return undefined;
  }
  return request;
}

/** `--stdin` alone: the input fed in, then the response printed (the run closed where the input ends). */
async function followStdin(run: LiveRun, io: CliIo): Promise<number> {
  const result = await feedStream(run, process.stdin, (m) => io.err(`copysim follow: standard input: ${m}\n`));
  io.err(
    `copysim follow: ${result.accepted} inputs taken, ${result.refused} lines refused` +
      `${run.simulation.ended ? '; the run ended' : ''}\n`,
  );
  const parts = run.simulation.ended ? run.simulation.responseParts() : run.simulation.close();
  await run.close();
  io.out(`${partsText(parts)}\n`);
  return EXIT_OK;
}

/** Serves the run over HTTP (and reads standard input with `--stdin`) until SIGINT or SIGTERM. */
async function serve(run: LiveRun, flags: FollowFlags, io: CliIo): Promise<number> {
  // Loaded here: the HTTP service's packages are optional (src/server/service-dependencies.ts).
  const { listenFollowServer } = await import('../live/http/listen.js');
  const server = await listenFollowServer(run, flags.listen!);
  io.out(`copysim follow: log ${run.logPath}, lateness ${run.simulation.lateness} s\n`);
  io.out(`copysim follow: listening on ${server.url}\n`);
  const stopTicks = flags.tick === undefined ? () => {} : wallClockTicks(run, flags.tick, io);
  let ending = run.onChange(() => {
    if (!run.simulation.ended) return;
    io.out(`copysim follow: the feed passed window_end: the response is in ${run.responsePath}\n`);
    ending();
    ending = () => {};
  });
  if (flags.stdin) {
    void feedStream(run, process.stdin, (m) => io.err(`copysim follow: standard input: ${m}\n`)).catch((e: Error) =>
      io.err(`copysim follow: standard input: ${e.message}\n`),
    );
  }
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  io.out(`copysim follow: ${signal}, finishing the batches in flight\n`);
  stopTicks();
  await server.close();
  await run.close();
  io.out('copysim follow: stopped\n');
  return EXIT_OK;
}

/**
 * A tick at the wall clock's time every `every` seconds, when it moves the feed's time on; from
 * the feed's first swap or tick on, so that the native prices and tokens sent first are taken
 * whatever their times.
 */
function wallClockTicks(run: LiveRun, every: number, io: CliIo): () => void {
  const timer = setInterval(() => {
    const now = Math.floor(Date.now() / 1000);
    const latest = run.simulation.latestTaken;
    if (run.simulation.ended || latest === -Infinity || now <= latest) return;
    run.submit([{ tick: now }]).catch((e: Error) => io.err(`copysim follow: tick ${now}: ${e.message}\n`));
  }, every * 1000);
  return () => clearInterval(timer);
}
