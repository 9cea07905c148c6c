import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Build } from './build.js';
import { newDatabase, type LedgerKind } from './ledgers.js';
import { ETH_TAPE, SOL_TAPE } from './tapes.js';

/** A `copysim serve` child process on loopback. */
export interface ServeProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** What it printed so far. */
  output(): string;
  /** SIGTERM, and the exit code once it has stopped. */
  stop(): Promise<number | null>;
  /** SIGKILL: no chance to finish anything. */
  kill(): Promise<void>;
}

/** A temp folder with the test tapes (sol and eth) and room for a key database. */
export interface Workspace {
  readonly dir: string;
  readonly data: string;
  /** The key database, as `--db` takes it: a SQLite file in `dir`, or a PostgreSQL URL. */
  readonly db: string;
  remove(): void;
}

export function workspace(networks: readonly ('sol' | 'eth')[] = ['sol', 'eth']): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'copysim-serve-'));
  const data = join(dir, 'data');
  mkdirSync(data);
  if (networks.includes('sol')) writeFileSync(join(data, 'tape-sol.json'), JSON.stringify(SOL_TAPE));
  if (networks.includes('eth')) writeFileSync(join(data, 'tape-eth.json'), JSON.stringify(ETH_TAPE));
  return { dir, data, db: join(dir, 'keys.db'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A {@link workspace} whose key database is a new, empty ledger of `kind`. */
export async function ledgerWorkspace(kind: LedgerKind, networks?: readonly ('sol' | 'eth')[]): Promise<Workspace> {
  const ws = workspace(networks);
  return { ...ws, db: await newDatabase(kind, ws.db) };
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/**
 * Starts `copysim serve` from the test build on 127.0.0.1 and a free port, and waits for its
 * "listening on URL" line.
 */
export async function serve(build: Build, ws: Workspace, extra: readonly string[] = []): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [
      build.main,
      'serve',
      '--data',
      ws.data,
      '--db',
      ws.db,
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--workers',
      '1',
      ...extra,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`copysim serve did not start in 20 s:\n${out}`)), 20_000);
    const check = (): void => {
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`copysim serve exited with ${code} before listening:\n${out}`));
    });
  });
  return {
    url,
    child,
    output: () => out,
    async stop() {
      child.kill('SIGTERM');
      return exited(child);
    },
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
  };
}
