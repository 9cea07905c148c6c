import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readText } from '../../src/io/files.js';

const dir = mkdtempSync(join(tmpdir(), 'copysim-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readText: a file as readFileSync(path, "utf8") reads it', () => {
  it('gives the same text for ASCII, UTF-8 with a byte-order mark, and bad bytes', () => {
    const files: Array<[string, Buffer]> = [
      ['ascii.json', Buffer.from('{"network":"sol","swaps":[]}\n')],
      ['bom.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a,b\né,ü\n')])],
      ['bad.csv', Buffer.from([0x61, 0x2c, 0xff, 0xfe, 0x0a, 0xc3])],
      ['empty.json', Buffer.alloc(0)],
    ];
    for (const [name, bytes] of files) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      expect(readText(path, 'tape')).toBe(readFileSync(path, 'utf8'));
    }
    expect(readText(join(dir, 'bom.csv'), 'tape').charCodeAt(0)).toBe(0xfeff);
  });

  it('agrees with the UTF-8 decoder on any bytes', () => {
    const path = join(dir, 'any.bin');
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        writeFileSync(path, bytes);
        expect(readText(path, 'tape')).toBe(readFileSync(path, 'utf8'));
        return true;
      }),
      { numRuns: 500 },
    );
  });

  it('names a file it cannot read', () => {
    expect(() => readText(join(dir, 'missing.json'), 'tape')).toThrow(/^tape file .*missing.json: no such file$/);
    expect(() => readText(dir, 'request')).toThrow(/^request file .*copysim-text-.*: EISDIR/);
  });
});
