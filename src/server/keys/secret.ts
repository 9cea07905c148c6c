import { createHash, randomBytes } from 'node:crypto';

/** Every API key starts with this, so a leaked one is easy to recognise. */
export const KEY_PREFIX = 'cs_';
/** Characters of a key kept in clear (with {@link KEY_PREFIX}) to tell keys apart in lists. */
const SHOWN_CHARS = 6;

/**
 * A new API key: `cs_` and 32 random bytes in base64url (256 bits, so a plain SHA-256 of it is a
 * safe thing to store: there is nothing to brute-force).
 *
 * @example
 * newApiKey(); // "cs_q3Vb…" (46 characters)
 */
export function newApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * The stored form of a key: its SHA-256 in hex. The key itself is never stored.
 *
 * @example
 * hashApiKey('cs_abc').length; // 64
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The part of a key shown in lists (`cs_q3Vb9x`); not enough to use it. */
export function shownPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + SHOWN_CHARS);
}
