/**
 * A tape's SHA-256, hashed once for each version of the file on each machine. The hash is
 * recorded in the queue's Redis with what tells that version of the file apart on this machine
 * (device, inode, size, modification and change times to the nanosecond), and used again while
 * all of these are the same: by the producers of the next runs and by this machine's workers,
 * which would otherwise hash the same bytes again. Writing to a file sets its change time, which
 * no program can set back; a hash is recorded only when the file's last change is
 * {@link SETTLED_MS} older than the hashing, so a write within the same tick of the file
 * system's clock cannot go unseen.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { hostname } from 'node:os';

/** SHA-256 of a file's bytes, lowercase hex, read as a stream of 1 MiB pieces (64 KiB ones take half as long again). */
export function fileSha256(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path, { highWaterMark: 1 << 20 })
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/** The Redis commands the recorded hashes need, as BullMQ's Redis client (`IRedisClient`) gives them. */
export interface HashStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options: { readonly EX: number }): Promise<unknown>;
}

/** A file changed more recently than this before its hashing is hashed again next time. */
export const SETTLED_MS = 2_000;

/** How long a recorded hash is kept once written. */
const KEPT_SECONDS = 7 * 86_400;

/** This version of the file at `path` on this machine. */
async function versionOf(path: string): Promise<{ readonly id: string; readonly changedNs: bigint }> {
  const s = await stat(path, { bigint: true });
  return { id: [s.dev, s.ino, s.size, s.mtimeNs, s.ctimeNs].join(':'), changedNs: s.ctimeNs };
}

/**
 * The SHA-256 of the file at `path` (absolute): recorded in `store` for this version of the
 * file, or hashed (and recorded when the file has settled). Without a store, or when it does not
 * answer, the file is hashed. Rejects as reading the file does (ENOENT for a missing file).
 */
export async function tapeSha256(path: string, store?: HashStore): Promise<string> {
  if (store === undefined) return fileSha256(path);
  const key = `copysim:tape-sha256:${hostname()}:${path}`;
  const version = await versionOf(path);
  const recorded = await store.get(key).catch(() => null);
  if (recorded !== null) {
    const known = JSON.parse(recorded) as { version?: unknown; sha256?: unknown };
    if (known.version === version.id && typeof known.sha256 === 'string') return known.sha256;
  }
  const hashedAt = Date.now();
  const sha256 = await fileSha256(path);
  const after = await versionOf(path).catch(() => null);
  const settled = version.changedNs < BigInt(hashedAt - SETTLED_MS) * 1_000_000n;
  if (after?.id === version.id && settled) {
    await store.set(key, JSON.stringify({ version: version.id, sha256 }), { EX: KEPT_SECONDS }).catch(() => {});
  }
  return sha256;
}
