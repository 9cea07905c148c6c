/**
 * Lists every line longer than 120 characters in the git-tracked `.ts` and `.js` files under `src/` and `web/`:
 * Biome's formatter wraps code at that width but cannot break long strings or comments, so they are caught here.
 * Exits 1 when any line is too long, 0 otherwise.
 *
 * Usage: node tools/lint/line-length.mjs [--skip PREFIX ...]
 * `--skip` leaves out the files whose path starts with PREFIX (for checking part of the tree while another part is
 * being changed); the `lint` script checks everything.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MAX_LENGTH = 120;
const ROOTS = ['src/', 'web/'];
const EXTENSIONS = ['.ts', '.js'];

/** The `--skip` prefixes given on the command line. */
function skippedPrefixes(argv) {
  const prefixes = [];
  for (let index = 0; index < argv.length; index++) {
    if (argv[index] !== '--skip' || argv[index + 1] === undefined) {
      throw new Error(`unexpected argument: ${argv[index]} (usage: line-length.mjs [--skip PREFIX ...])`);
    }
    prefixes.push(argv[++index]);
  }
  return prefixes;
}

/** The tracked files to check, so build output and scratch files never count. */
function trackedFiles(skip) {
  const output = execFileSync('git', ['ls-files', '-z', '--', ...ROOTS], { encoding: 'utf8' });
  return output
    .split('\0')
    .filter((path) => EXTENSIONS.some((extension) => path.endsWith(extension)))
    .filter((path) => !skip.some((prefix) => path.startsWith(prefix)));
}

/** `file:line (length)` for each over-long line; length counts characters, not UTF-16 units or bytes. */
function longLines(path) {
  const found = [];
  readFileSync(path, 'utf8')
    .split(/\r?\n/)
    .forEach((line, index) => {
      const length = [...line].length;
      if (length > MAX_LENGTH) found.push(`${path}:${index + 1} (${length} characters)`);
    });
  return found;
}

const found = trackedFiles(skippedPrefixes(process.argv.slice(2))).flatMap(longLines);
for (const entry of found) console.log(entry);
if (found.length > 0) {
  console.error(`${found.length} line(s) over ${MAX_LENGTH} characters`);
  process.exit(1);
}
