import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { PROJECT_ROOT } from '../support/paths.js';

/**
 * The README's library example must run as printed: its TypeScript block is taken from
 * README.md, pointed at src/index.ts instead of the package name, run, and every
 * `console.log(...); // result` must print that result (a result ending in "…" is a prefix).
 */
const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
const code = blocks[0] ?? '';
const expected = [...code.matchAll(/console\.log\(.*\); \/\/ (.+)$/gm)].map((m) => m[1]!);

const scratch = mkdtempSync(join(tmpdir(), 'copysim-readme-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the README library example', () => {
  it('is one TypeScript block that imports from "copysim" and states its results', () => {
    expect(blocks.length).toBe(1);
    expect(code).toMatch(/from 'copysim';/);
    expect(expected.length).toBeGreaterThanOrEqual(4);
  });

  it('runs against src/index.ts and prints every stated result, in order', async () => {
    const file = join(scratch, 'readme-example.ts');
    const index = pathToFileURL(join(PROJECT_ROOT, 'src', 'index.ts')).href;
    writeFileSync(file, code.replace(/from 'copysim';/g, `from '${index}';`));
    const printed: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(format(...args)));
    try {
      await import(pathToFileURL(file).href);
    } finally {
      log.mockRestore();
    }
    expect(printed.length).toBe(expected.length);
    expected.forEach((result, i) => {
      if (result.endsWith('…'))
        expect(printed[i]!.startsWith(result.slice(0, -1)), `${printed[i]} starts with ${result}`).toBe(true);
      else expect(printed[i]).toBe(result);
    });
  });
});
