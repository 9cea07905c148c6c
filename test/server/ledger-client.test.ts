/**
 * The PostgreSQL client stays the service's: no module of the library outside src/server and
 * src/cli imports it, and the service loads it only for a postgres:// database, so a library
 * user (and a SQLite service) needs no database client.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/paths.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Module specifiers a file imports at run time (`import type` is erased). */
function runtimeImports(text: string): string[] {
  const specifiers: string[] = [];
  for (const m of text.matchAll(/^\s*import\s+(?!type\s)[^'"]*?from\s+['"]([^'"]+)['"]/gm)) specifiers.push(m[1]!);
  for (const m of text.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g)) specifiers.push(m[1]!);
  return specifiers;
}

describe('the PostgreSQL client', () => {
  const src = join(PROJECT_ROOT, 'src');
  const files = sources(src).map((file) => ({ file: relative(src, file), text: readFileSync(file, 'utf8') }));

  it('is imported by nothing outside src/server and src/cli', () => {
    const outside = files.filter(({ file }) => !/^(server|cli)\//.test(file));
    const importing = outside.filter(({ text }) => /(['"])(postgres|pg)\1/.test(text)).map(({ file }) => file);
    expect(importing).toEqual([]);
  });

  it('is imported at run time by no module of the service either: loaded on demand (loadPostgres)', () => {
    const importing = files.filter(({ text }) => runtimeImports(text).some((s) => s === 'postgres' || s === 'pg'));
    expect(importing.map(({ file }) => file)).toEqual([]);
    const loading = /loadPackage<[^>]*>\([^;]*?, 'postgres'\)/;
    const loads = files.filter(({ text }) => loading.test(text)).map(({ file }) => file);
    expect(loads).toEqual(['server/service-dependencies.ts']);
  });
});
