/**
 * Compiled JavaScript for the HTTP tests: the server runs its simulations on worker threads, and
 * a worker thread needs JavaScript. The project's `dist/` serves when it is fresh (`npm test`
 * builds it first); otherwise `src/` is compiled into a folder of our own, keyed by a hash of the
 * sources, so the tests never depend on a half-built or stale `dist/`, and a second test file or
 * run with unchanged sources reuses the build.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PROJECT_ROOT } from '../../support/paths.js';

const ROOT = join(tmpdir(), 'copysim-server-test');

function sourceHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts')) hash.update(relative(PROJECT_ROOT, path)).update('\0').update(readFileSync(path));
    }
  };
  walk(join(PROJECT_ROOT, 'src'));
  hash.update(readFileSync(join(PROJECT_ROOT, 'tsconfig.json')));
  return hash.digest('hex').slice(0, 16);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The compiled build: `main` is the CLI, `worker` the simulation worker. */
export interface Build {
  readonly dir: string;
  readonly main: string;
  readonly worker: string;
}

/** The project's own `dist/` when it is at least as new as every source (as after `npm test`'s build). */
function freshProjectBuild(): Build | undefined {
  const dist = join(PROJECT_ROOT, 'dist');
  const stale = (dir: string): boolean =>
    readdirSync(dir).some((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return stale(path);
      if (!name.endsWith('.ts')) return false;
      const js = join(dist, relative(PROJECT_ROOT, path)).replace(/\.ts$/, '.js');
      return !existsSync(js) || statSync(js).mtimeMs < statSync(path).mtimeMs;
    });
  if (!existsSync(dist) || stale(join(PROJECT_ROOT, 'src'))) return undefined;
  return {
    dir: PROJECT_ROOT,
    main: join(dist, 'src', 'cli', 'main.js'),
    worker: join(dist, 'src', 'server', 'simulation', 'worker.js'),
  };
}

/**
 * Uses the project's `dist/` when it is fresh; otherwise compiles `src/` once per source state (about 4 s on an idle machine) and returns where the CLI
 * is. Every test file of one vitest run (they share the parent process) gets the same build, even
 * when a source changes meanwhile.
 */
export async function ensureBuild(): Promise<Build> {
  const fresh = freshProjectBuild();
  if (fresh !== undefined) return fresh;
  mkdirSync(ROOT, { recursive: true });
  const runMarker = join(ROOT, `run-${process.ppid}`);
  const previous = existsSync(runMarker) ? readFileSync(runMarker, 'utf8') : '';
  const hash = previous !== '' && existsSync(join(ROOT, previous, '.complete')) ? previous : sourceHash();
  const dir = join(ROOT, hash);
  const build = {
    dir,
    main: join(dir, 'dist', 'src', 'cli', 'main.js'),
    worker: join(dir, 'dist', 'src', 'server', 'simulation', 'worker.js'),
  };
  const done = join(dir, '.complete');
  const lock = `${dir}.lock`;
  for (let waited = 0; !existsSync(done); waited += 200) {
    try {
      mkdirSync(lock);
    } catch {
      // Another test file is building the same sources: wait for it (or for a stale lock to go).
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (waited > 120_000 || Date.now() - since > 120_000) {
        rmSync(lock, { recursive: true, force: true });
      }
      await sleep(200);
      continue;
    }
    try {
      if (!existsSync(done)) compile(dir);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  writeFileSync(runMarker, hash);
  return build;
}

function compile(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // The package root of the build: its manifest, its dependencies, the bundled fixtures and the web page.
  writeFileSync(join(dir, 'package.json'), readFileSync(join(PROJECT_ROOT, 'package.json')));
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(dir, 'node_modules'));
  symlinkSync(join(PROJECT_ROOT, 'fixtures'), join(dir, 'fixtures'));
  symlinkSync(join(PROJECT_ROOT, 'web'), join(dir, 'web'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: join(PROJECT_ROOT, 'tsconfig.json'),
      compilerOptions: {
        noEmit: false,
        rootDir: PROJECT_ROOT,
        outDir: join(dir, 'dist'),
        sourceMap: false,
        declaration: false,
      },
      include: [join(PROJECT_ROOT, 'src')],
    }),
  );
  const tsc = join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { stdio: 'pipe' });
  } catch {
    // Type errors elsewhere do not stop the emit; a missing file below does.
  }
  for (const file of ['dist/src/cli/main.js', 'dist/src/server/simulation/worker.js']) {
    if (!existsSync(join(dir, file))) throw new Error(`the test build of src/ produced no ${file}`);
  }
  writeFileSync(join(dir, '.complete'), '');
  // Builds of older sources are of no further use.
  for (const name of readdirSync(ROOT)) {
    const path = join(ROOT, name);
    if (path !== dir && !name.endsWith('.lock') && Date.now() - statSync(path).mtimeMs > 3_600_000) {
      // Builds and run markers older than an hour.
      rmSync(path, { recursive: true, force: true });
    }
  }
}
