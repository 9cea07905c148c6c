import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../model/errors.js';
import type { Network } from '../model/request.js';
import type { IndexedTape } from '../engine/tape-index.js';
import { indexTape } from '../engine/tape-index.js';
import { parseJsonText, readText } from '../io/files.js';
import { isParquetPath } from '../io/parquet/format.js';
import { readTapeFile } from '../io/read-tape.js';
import type { TapeHeaderOptions } from '../io/parquet/header.js';

/** True for a JSON value that is meant as a tape: an object with `swaps`. */
function looksLikeTape(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'swaps' in value;
}

/** Indexes one JSON tape; an unusable tape is an {@link InputError} naming the file. */
function indexJsonTape(file: string, value: unknown): IndexedTape {
  try {
    return indexTape(value as never);
  } catch (e) {
    if (e instanceof InputError) throw new InputError(`${file}: ${e.message}`, { ...e.location, source: file });
    throw e;
  }
}

/** A JSON file's tape, or null when the file is not meant as one (no `swaps`). */
function readJsonTape(file: string): IndexedTape | null {
  const value = parseJsonText(readText(file, 'tape'), file, 'tape');
  return looksLikeTape(value) ? indexJsonTape(file, value) : null;
}

/** A tape the service serves: one per network. */
export interface ServedTape {
  readonly network: Network;
  readonly file: string;
  readonly tape: IndexedTape;
  /** The header the file was read with, beside it (a Parquet file without copysim's); the workers read it so too. */
  readonly header: TapeHeaderOptions;
}

/** The project's root: the nearest folder above this module with copysim's package.json. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name;
      if (name === 'copysim') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new InputError('cannot find the copysim package folder', { source: 'data' });
    dir = parent;
  }
}

/** The bundled example tapes, the default `--data` of `copysim serve`. */
export function bundledDataDir(): string {
  return join(packageRoot(), 'fixtures', 'example');
}

/** The tapes of a data folder, and the JSON files in it that are not tapes. */
export interface DataFolder {
  readonly tapes: ServedTape[];
  /** `*.json` files without `swaps` (requests, options): left alone. */
  readonly skipped: string[];
}

/**
 * Loads every `*.json` and `*.parquet` tape of `dir` (in file-name order), one per network. A
 * JSON file without `swaps` (a request or options file beside the tapes) is skipped; a Parquet
 * file is always a tape. A tape that cannot be used is an error naming the file and the swap.
 * Two tapes of one network are refused, naming both files: the service would not know which
 * one to serve. `parquetHeader` gives the header of the folder's Parquet files written by
 * another program (see `readTapeFile`).
 *
 * @example
 * loadTapes('fixtures/example').tapes.map((t) => t.network); // ["eth", "sol"]
 */
export function loadTapes(dir: string, parquetHeader: TapeHeaderOptions = {}): DataFolder {
  const folder = resolve(dir);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new InputError(`data folder ${folder}: no such folder`, { source: folder });
  }
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.json') || isParquetPath(name))
    .sort()
    .map((name) => join(folder, name));
  if (files.length === 0)
    throw new InputError(`data folder ${folder} holds no *.json or *.parquet tape`, { source: folder });
  const byNetwork = new Map<Network, ServedTape>();
  const skipped: string[] = [];
  for (const file of files) {
    const header = isParquetPath(file) ? parquetHeader : {};
    const tape = isParquetPath(file) ? readTapeFile(file, header) : readJsonTape(file);
    if (tape === null) {
      skipped.push(file);
      continue;
    }
    const other = byNetwork.get(tape.network);
    if (other !== undefined) {
      throw new InputError(
        `data folder ${folder} holds two tapes of network ${tape.network}: ` +
          `${other.file} and ${file}; keep one per network`,
        { source: file, path: 'network' },
      );
    }
    byNetwork.set(tape.network, { network: tape.network, file, tape, header });
  }
  if (byNetwork.size === 0) {
    throw new InputError(`data folder ${folder} holds no tape (no *.parquet file, no *.json file with "swaps")`, {
      source: folder,
    });
  }
  return { tapes: [...byNetwork.values()], skipped };
}
