/**
 * Throw-away PostgreSQL clusters for the service's tests and the ledger benchmark: Debian's
 * `postgresql` package (initdb, pg_ctl, postgres), a cluster in a temporary folder listening on
 * 127.0.0.1 and a free port, and on a Unix socket in that folder, stopped by its pid and
 * removed. PostgreSQL refuses to run as root: as root, its programs run as the `postgres` system
 * user (which the package creates), in a folder given to that user.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folder of initdb, pg_ctl and postgres: PATH's, else the newest of /usr/lib/postgresql. */
export function postgresBinDir(): string | undefined {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath !== '') return join(realpathSync(onPath), '..');
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length === 0 ? undefined : join(root, versions[0]!, 'bin');
}

/** A free TCP port on 127.0.0.1 (free when asked; the cluster takes it a moment later). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface ClusterOptions {
  /**
   * Skip fsync (default false): for tests, which never crash the database server itself; a
   * benchmark keeps it, to compare with SQLite's synchronous = FULL.
   */
  readonly noFsync?: boolean;
  readonly maxConnections?: number;
}

/** A running throw-away cluster; its superuser is `copysim`, trusted on loopback. */
export interface PostgresCluster {
  readonly port: number;
  /** The postmaster's pid while it runs. */
  readonly pid: number;
  /** `postgres://copysim@127.0.0.1:PORT/NAME`. */
  url(database?: string): string;
  /** The same database through the cluster's Unix socket: `postgres://copysim@/NAME?host=DIR&port=PORT`. */
  socketUrl(database?: string): string;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): string;
  /** Fast shutdown by pid (SIGINT); waits until the server is gone. The data stay. */
  stop(): Promise<void>;
  /** Starts the stopped cluster again on the same data and port. */
  start(): Promise<void>;
  /** Stops it if it runs and removes its folder. */
  remove(): Promise<void>;
}

/**
 * Makes a cluster (initdb into a temporary folder) and starts it on a free port.
 * Throws when the PostgreSQL programs are not installed.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (bin === undefined) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'copysim-pg-'));
  const data = join(dir, 'data');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const run = (program: string, args: string[]): void => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]]
      : [join(bin, program), args];
    execFileSync(file, argv, { stdio: 'pipe', cwd: dir });
  };
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'copysim', '-E', 'UTF8', '--locale=C', '--no-sync']);

  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    `-c max_connections=${options.maxConnections ?? 200}`,
    ...(options.noFsync === true ? ['-c fsync=off', '-c full_page_writes=off'] : []),
  ];
  let pid = 0;
  const start = async (): Promise<void> => {
    run('pg_ctl', ['-D', data, '-o', settings.join(' '), '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
    pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  };
  const stop = async (): Promise<void> => {
    if (pid === 0 || !alive(pid)) return;
    process.kill(pid, 'SIGINT');
    for (let waited = 0; alive(pid); waited += 50) {
      if (waited > 30_000) process.kill(pid, 'SIGQUIT');
      await new Promise((r) => setTimeout(r, 50));
    }
    pid = 0;
  };
  // A test run that dies leaves no server behind.
  const onExit = (): void => {
    if (pid !== 0 && alive(pid)) process.kill(pid, 'SIGQUIT');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  try {
    await start();
  } catch (e) {
    const log = existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8') : '';
    onExit();
    throw new Error(`the test PostgreSQL cluster did not start: ${(e as Error).message}\n${log}`);
  }
  const url = (database = 'postgres'): string => `postgres://copysim@127.0.0.1:${port}/${database}`;
  return {
    port,
    get pid() {
      return pid;
    },
    url,
    socketUrl: (database = 'postgres') =>
      `postgres://copysim@/${database}?host=${encodeURIComponent(dir)}&port=${port}`,
    createDatabase(name) {
      execFileSync(join(bin, 'psql'), ['-X', '-q', '-d', url(), '-c', `CREATE DATABASE "${name}"`], { stdio: 'pipe' });
      return url(name);
    },
    stop,
    start,
    async remove() {
      await stop();
      process.removeListener('exit', onExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
