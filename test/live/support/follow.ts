/**
 * `copysim follow` as a child process of the built CLI on 127.0.0.1 and a free port, and the
 * calls a feeder makes to it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Build } from '../../server/support/build.js';

/** A running `copysim follow`. */
export interface FollowProcess {
  readonly url: string;
  readonly child: ChildProcess;
  output(): string;
  /** SIGTERM, and the exit code once stopped (stopped already: its code). */
  stop(): Promise<number | null>;
  /** SIGKILL (kill -9) by pid: nothing is finished. */
  kill(): Promise<void>;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Starts `copysim follow --request REQUEST --log DIR --listen 127.0.0.1:0 …extra` and waits until it listens. */
export async function follow(
  build: Build,
  request: string,
  dir: string,
  extra: readonly string[] = [],
): Promise<FollowProcess> {
  const args = [build.main, 'follow', '--request', request, '--log', dir, '--listen', '127.0.0.1:0', ...extra];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`copysim follow did not start in 30 s:\n${out}`)), 30_000);
    const check = (): void => {
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match === null) return;
      clearTimeout(timer);
      resolve(match[1]!);
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`copysim follow exited with ${code} before listening:\n${out}`));
    });
  });
  return {
    url,
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGTERM');
      return exited(child);
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
      await exited(child);
    },
  };
}

/** A POST of JSON; the status and the parsed answer. */
export async function post(
  url: string,
  path: string,
  body: unknown,
  type = 'application/json',
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}

export async function getJson(url: string, path: string): Promise<any> {
  const response = await fetch(`${url}${path}`);
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** One POST of a feed: its route and its body. */
export interface FeedStep {
  readonly path: string;
  readonly body: unknown;
}

/** The batches of a feed in its log form, each posted to /feed. */
export function feedSteps(batches: readonly unknown[][]): FeedStep[] {
  return batches.map((body) => ({ path: '/feed', body }));
}

/**
 * Posts the steps of a feed in order, each once the one before is acknowledged; a step refused
 * because the run has ended stops the feed. Gives the number of steps acknowledged.
 */
export async function feedAll(url: string, steps: readonly FeedStep[], from = 0): Promise<number> {
  for (let i = from; i < steps.length; i++) {
    const { path, body } = steps[i]!;
    const answer = await post(url, path, body);
    if (answer.status === 409 && answer.body?.code === 'run_ended') return i;
    if (answer.status !== 202) throw new Error(`POST ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return steps.length;
}
