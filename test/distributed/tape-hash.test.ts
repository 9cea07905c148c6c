/**
 * A tape's hash recorded for one version of the file: used again while the file is unchanged,
 * never once it is written to, and not recorded for a file changed just before its hashing.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileSha256, SETTLED_MS, tapeSha256, type HashStore } from '../../src/distributed/tape-hash.js';

const dir = mkdtempSync(join(tmpdir(), 'copysim-tape-hash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A store in memory, as the queue's Redis keeps the records. */
function memoryStore(): HashStore & { readonly records: Map<string, string> } {
  const records = new Map<string, string>();
  return {
    records,
    get: async (key) => records.get(key) ?? null,
    set: async (key, value) => records.set(key, value),
  };
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('tapeSha256', () => {
  it('hashes a file just written and records nothing', async () => {
    const path = join(dir, 'fresh.json');
    writeFileSync(path, '{"swaps": []}');
    const store = memoryStore();
    expect(await tapeSha256(path, store)).toBe(sha256('{"swaps": []}'));
    expect(await fileSha256(path)).toBe(sha256('{"swaps": []}'));
    expect(store.records.size).toBe(0);
  });

  it("records a settled file's hash, uses it while the file is unchanged, hashes again once written to", async () => {
    const path = join(dir, 'settled.json');
    writeFileSync(path, 'a');
    await new Promise((resolve) => setTimeout(resolve, SETTLED_MS + 100));
    const store = memoryStore();
    expect(await tapeSha256(path, store)).toBe(sha256('a'));
    expect(store.records.size).toBe(1);
    // The record is what answers now: changed in the store, it is what comes back.
    const [key, value] = [...store.records][0]!;
    store.records.set(key, value.replace(sha256('a'), 'recorded'));
    expect(await tapeSha256(path, store)).toBe('recorded');
    appendFileSync(path, 'b');
    expect(await tapeSha256(path, store)).toBe(sha256('ab'));
  }, 10_000);

  it('hashes when the store does not answer, and rejects for a missing file', async () => {
    const path = join(dir, 'unanswered.json');
    writeFileSync(path, 'c');
    const refusing: HashStore = {
      get: () => Promise.reject(new Error('no Redis')),
      set: () => Promise.reject(new Error('no Redis')),
    };
    expect(await tapeSha256(path, refusing)).toBe(sha256('c'));
    await expect(tapeSha256(join(dir, 'missing.json'), memoryStore())).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
