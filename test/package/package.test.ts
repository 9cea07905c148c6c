/**
 * The package as a library user gets it: `npm pack`, installed into an empty folder with
 * optional dependencies left out, must run the README's library example and the command line's
 * simulator with no native build, no web framework and no Redis client; the HTTP service and the
 * work queue must then say what to install instead of failing with a stack trace.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_PACKAGES } from '../../src/distributed/dependencies.js';
import { POSTGRES_PACKAGES, SERVICE_PACKAGES } from '../../src/server/service-dependencies.js';
import { PROJECT_ROOT } from '../support/paths.js';

const scratch = mkdtempSync(join(tmpdir(), 'copysim-pack-'));
const app = join(scratch, 'app');
const installed = join(app, 'node_modules');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every file under `dir` whose name ends in `suffix` (native addons end in `.node`). */
function filesEndingIn(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith(suffix));
}

function runNode(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, args, { cwd: app, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  if (!existsSync(join(PROJECT_ROOT, 'dist', 'src', 'index.js'))) {
    throw new Error('dist/src/index.js is missing: run "npm run build" first (npm test does)');
  }
  // --ignore-scripts: npm test has just built dist/; packing must not rebuild it under the other tests.
  const packed = JSON.parse(
    execFileSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
    }),
  ) as { filename: string; files: { path: string }[] }[];
  writeFileSync(join(scratch, 'files.json'), JSON.stringify(packed[0]!.files.map((f) => f.path)));
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'copysim-user', private: true, type: 'module' }));
  execFileSync(
    npm,
    [
      'install',
      join(scratch, packed[0]!.filename),
      '--omit=optional',
      '--omit=dev',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
    ],
    { cwd: app, encoding: 'utf8', stdio: 'pipe' },
  );
}, 180_000);

describe('the packed library, installed without optional dependencies', () => {
  it('ships the library and the bundled example, not the benchmarks, scripts or tests', () => {
    const files = JSON.parse(readFileSync(join(scratch, 'files.json'), 'utf8')) as string[];
    expect(files).toContain('dist/src/index.js');
    expect(files).toContain('fixtures/example/tape-sol.json');
    const stray = files.filter((f) => /^(dist\/(bench|scripts|tools|test)|bench|scripts|tools|test|src)\//.test(f));
    expect(stray, 'files that a library user does not need').toEqual([]);
  });

  it('installs no web framework, no SQLite, no queue or Redis client and no native addon', () => {
    expect(existsSync(join(installed, 'copysim', 'package.json'))).toBe(true);
    for (const name of [...Object.keys(SERVICE_PACKAGES), ...Object.keys(QUEUE_PACKAGES)])
      expect(existsSync(join(installed, name)), name).toBe(false);
    expect(filesEndingIn(installed, '.node')).toEqual([]);
  });

  it('runs the README library example and prints every stated result', () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
    const code = /^```ts\n([\s\S]*?)^```$/m.exec(readme)?.[1] ?? '';
    const expected = [...code.matchAll(/console\.log\(.*\); \/\/ (.+)$/gm)].map((m) => m[1]!);
    expect(expected.length).toBeGreaterThanOrEqual(4);
    const js = ts.transpileModule(code, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(join(app, 'example.mjs'), js);
    const { status, stdout, stderr } = runNode(['example.mjs']);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const printed = stdout.trimEnd().split('\n');
    expect(printed).toHaveLength(expected.length);
    expected.forEach((result, i) => {
      if (result.endsWith('…'))
        expect(printed[i]!.startsWith(result.slice(0, -1)), `${printed[i]} starts with ${result}`).toBe(true);
      else expect(printed[i]).toBe(result);
    });
  });

  it('serves the subpaths copysim/import, copysim/tape and copysim/analytics', () => {
    const script = [
      "const [i, t, a] = await Promise.all([import('copysim/import'), import('copysim/tape'), import('copysim/analytics')]);",
      'console.log(typeof i.importDune, typeof t.convertTapeFile, typeof a.buildAnalyticsIndex);',
    ].join('\n');
    writeFileSync(join(app, 'subpaths.mjs'), script);
    const { status, stdout, stderr } = runNode(['subpaths.mjs']);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toBe('function function function\n');
  });

  it('runs copysim simulate on the bundled example', () => {
    const example = join(installed, 'copysim', 'fixtures', 'example');
    const cli = join(installed, 'copysim', 'dist', 'src', 'cli', 'main.js');
    const { status, stdout } = runNode([
      cli,
      'simulate',
      '--tape',
      join(example, 'tape-sol.json'),
      '--request',
      join(example, 'request-sol.json'),
    ]);
    expect(status).toBe(0);
    const response = JSON.parse(stdout) as { summary: { pnl_total: number }; deals: unknown[] };
    expect(response.deals.length).toBeGreaterThan(0);
    expect(Number.isFinite(response.summary.pnl_total)).toBe(true);
  });

  it('writes the HTML report from the installed package (its web/ files and uPlot found there)', () => {
    const example = join(installed, 'copysim', 'fixtures', 'example');
    const cli = join(installed, 'copysim', 'dist', 'src', 'cli', 'main.js');
    const html = join(app, 'report.html');
    const { status, stderr } = runNode([
      cli,
      'simulate',
      '--tape',
      join(example, 'tape-sol.json'),
      '--request',
      join(example, 'request-sol.json'),
      '--html',
      html,
    ]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('function renderReport(');
    expect(page).toContain('uPlot');
  });

  it('copysim serve names the packages to install, in one line, exit 1', () => {
    const cli = join(installed, 'copysim', 'dist', 'src', 'cli', 'main.js');
    const { status, stdout, stderr } = runNode([cli, 'serve', '--port', '0']);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'copysim serve: the HTTP service needs fastify, @fastify/static and better-sqlite3, which are not installed (optional dependencies of ' +
        'copysim, left out of a library install). Install them beside copysim: npm install fastify@^5.12.8 @fastify/static@^10.1.11 better-sqlite3@^12.11.1\n',
    );
  });

  it('copysim worker and sweep --queue name the queue packages to install, in one line, exit 1', () => {
    const cli = join(installed, 'copysim', 'dist', 'src', 'cli', 'main.js');
    const example = join(installed, 'copysim', 'fixtures', 'example');
    const message =
      'the work queue (the --queue option, copysim worker) needs bullmq and ioredis, which are not installed (optional dependencies of ' +
      'copysim, left out of a library install). Install them beside copysim: npm install bullmq@^6.7.0 ioredis@^5.11.1\n';
    const worker = runNode([cli, 'worker', '--queue', 'redis://127.0.0.1:1']);
    expect(worker.status).toBe(1);
    expect(worker.stderr).toBe(`copysim worker: ${message}`);
    writeFileSync(
      join(app, 'requests.jsonl'),
      `${readFileSync(join(example, 'request-sol.json'), 'utf8').replace(/\n\s*/g, ' ')}\n`,
    );
    const sweep = runNode([
      cli,
      'sweep',
      '--tape',
      join(example, 'tape-sol.json'),
      '--requests',
      'requests.jsonl',
      '--queue',
      'redis://127.0.0.1:1',
    ]);
    expect(sweep.status).toBe(1);
    expect(sweep.stdout).toBe('');
    expect(sweep.stderr).toBe(`copysim sweep: ${message}`);
  });

  it('importing copysim/server fails with the same message, not a module-resolution error', () => {
    writeFileSync(
      join(app, 'server.mjs'),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the script's own template literal
      "import('copysim/server').catch((e) => { console.log(`${e.name}: ${e.message}`); });\n",
    );
    const { status, stdout } = runNode(['server.mjs']);
    expect(status).toBe(0);
    expect(stdout).toMatch(
      /^MissingDependencyError: the HTTP service needs fastify, @fastify\/static and better-sqlite3, .* npm install fastify@\^5\.12\.8 @fastify\/static@\^10\.1\.11 better-sqlite3@\^12\.11\.1\n$/,
    );
  });
});

describe('the service and queue packages', () => {
  it('are the optional peer dependencies package.json declares, at the same ranges', () => {
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    expect(pkg.peerDependencies).toEqual({ ...SERVICE_PACKAGES, ...QUEUE_PACKAGES, ...POSTGRES_PACKAGES });
    for (const name of [
      ...Object.keys(SERVICE_PACKAGES),
      ...Object.keys(QUEUE_PACKAGES),
      ...Object.keys(POSTGRES_PACKAGES),
    ]) {
      expect(pkg.peerDependenciesMeta[name]?.optional, name).toBe(true);
      expect(pkg.dependencies[name], name).toBeUndefined();
    }
  });
});
