import { parseArgs } from 'node:util';
import { closestName } from '../model/names.js';
import {
  formatImportReport,
  formatTapeSummary,
  suggestRequest,
  summarizeTape,
  writeRequestFile,
  writeTapeFile,
  type ImportResult,
} from '../io/import/index.js';
import { renameOptions } from '../io/import/option-names.js';
import { IMPORTERS, SettingValueError } from '../io/import/registry.js';
import type { Importer } from '../io/import/types.js';
import { InputError } from '../model/errors.js';
import { EXIT_OK, type CliIo } from './io.js';
import { UsageError } from './usage.js';

const USAGE =
  `copysim import SOURCE FILE... --out TAPE [flags]

Turns real swap data into a tape: TAPE.json, TAPE.jsonl or TAPE.parquet (by its extension).` +
  ` Prints what it dropped and why on standard error, and a
one-line summary (swaps, wallets, tokens, time range) on standard output.`;

const EVERY_SOURCE = `Every source:
  --out FILE              where to write the tape (required): .json, .jsonl or .parquet
  --outlier-factor N      drop prices more than N× from their token's median (default 100; 0 keeps all)
  --request-out FILE      also write a simulator request: the wallets with the most round trips
                          (a buy, later a sell of the same token) over the data's whole date range
  --leaders N             how many wallets that request follows (default 20)`;

/** The flags of every source, besides those of the importers' settings. */
const COMMON_FLAGS = ['out', 'outlier-factor', 'request-out', 'leaders'];

/** The column where the help's words on a source or a flag begin. */
const HELP_COLUMN = 26;

/** The help of `copysim import` with these importers. */
export function importHelp(importers: readonly Importer[]): string {
  return `${USAGE}\n\nSources:\n${sourcesHelp(importers).join('\n')}\n\n${EVERY_SOURCE}`;
}

/**
 * Each source and its flags; sources that share one list of settings are listed together, the
 * flags once after them, set apart from the sources before by a blank line.
 */
function sourcesHelp(importers: readonly Importer[]): string[] {
  const lines: string[] = [];
  for (let first = 0; first < importers.length; ) {
    const { settings } = importers[first]!;
    let end = first + 1;
    while (end < importers.length && importers[end]!.settings === settings) end++;
    if (end - first > 1 && lines.length > 0) lines.push('');
    for (const importer of importers.slice(first, end)) {
      lines.push(...described(`  ${importer.name} ${importer.files}`, importer.help));
    }
    for (const setting of settings) lines.push(...described(`    --${setting.flag} ${setting.value}`, setting.help));
    first = end;
  }
  return lines;
}

/** A term and the help's words on it: the first line beside it (at {@link HELP_COLUMN} if it fits), the rest under. */
function described(term: string, words: readonly string[]): string[] {
  const [first = '', ...rest] = words;
  return [`${term.padEnd(HELP_COLUMN - 2)}  ${first}`, ...rest.map((line) => `${' '.repeat(HELP_COLUMN)}${line}`)];
}

export const IMPORT_HELP = importHelp(IMPORTERS);

type Values = Readonly<Record<string, string | undefined>>;

/** Every flag: those of every source, and those of each importer's settings. */
function flagsOf(importers: readonly Importer[]): Record<string, { type: 'string' }> {
  const flags = importers.flatMap((importer) => importer.settings.map((setting) => setting.flag));
  return Object.fromEntries([...COMMON_FLAGS, ...flags].map((flag) => [flag, { type: 'string' }]));
}

/**
 * Refuses a flag that another source takes but this one does not (`import dune --native-prices`):
 * silently ignored, it would look used. Names the source's own flags, and the closest one.
 */
function refuseOtherFlags(importer: Importer, values: Values): void {
  const own = [...COMMON_FLAGS, ...importer.settings.map((setting) => setting.flag)];
  for (const flag of Object.keys(values)) {
    if (values[flag] === undefined || own.includes(flag)) continue;
    const near = closestName(flag, own);
    throw new UsageError(
      `--${flag} is not a flag of import ${importer.name}` +
        `${near === null ? '' : ` (did you mean --${near}?)`}; its flags: ${own.map((f) => `--${f}`).join(', ')}`,
    );
  }
}

function need(values: Values, flag: string, source: string): string {
  const value = values[flag];
  if (value === undefined) throw new UsageError(`import ${source} needs --${flag}`);
  return value;
}

function wholeNumber(text: string | undefined, flag: string, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${flag} expects a number ≥ 0, got "${text}"`);
  return n;
}

/** The options an importer's settings take from the flags given, or from their defaults. */
function optionsOf(importer: Importer, values: Values): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const setting of importer.settings) {
    const text = values[setting.flag] ?? setting.default;
    if (text === undefined) {
      if (setting.required) throw new UsageError(`import ${importer.name} needs --${setting.flag}`);
      continue;
    }
    const value = setting.parse ? setting.parse(text) : text;
    if (value !== undefined) options[setting.option] = value;
  }
  return options;
}

/**
 * The flag of each option an importer's messages name (see `optionName`): the library names its
 * options, the command line its flags.
 */
function flagNames(importer: Importer): (option: string) => string | undefined {
  const flags = new Map(importer.settings.map((setting) => [setting.option, `--${setting.flag}`]));
  flags.set('outlierFactor', '--outlier-factor');
  return (option) => flags.get(option);
}

function runImport(importer: Importer, files: readonly string[], values: Values): ImportResult {
  const outlierFactor = wholeNumber(values['outlier-factor'], 'outlier-factor', 100);
  if (files.length === 0) throw new UsageError(`import ${importer.name} needs at least one source file`);
  if (importer.oneFile && files.length > 1) throw new UsageError(`import ${importer.name} takes one source file`);
  try {
    return importer.read(files, { ...optionsOf(importer, values), outlierFactor });
  } catch (e) {
    const flags = flagNames(importer);
    if (e instanceof SettingValueError) throw new UsageError(renameOptions(e.message, flags));
    if (e instanceof InputError) throw new InputError(renameOptions(e.message, flags), e.location);
    throw e;
  }
}

/** `copysim import SOURCE FILE... --out TAPE [flags]`. */
export function importCommand(args: string[], io: CliIo): number {
  return runImportCommand(IMPORTERS, args, io);
}

/** `copysim import` with these importers: the source named runs with its own. */
export function runImportCommand(importers: readonly Importer[], args: string[], io: CliIo): number {
  const options = flagsOf(importers);
  const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
  const [source, ...files] = positionals;
  const importer = importers.find((candidate) => candidate.name === source);
  if (source === undefined || importer === undefined) {
    const names = importers.map((candidate) => candidate.name).join(', ');
    throw new UsageError(`${source === undefined ? 'import needs a source' : `unknown source "${source}"`}: ${names}`);
  }
  refuseOtherFlags(importer, values);
  const out = need(values, 'out', source);
  const leaders = wholeNumber(values.leaders, 'leaders', 20);
  const { tape, report } = runImport(importer, files, values);
  io.err(renameOptions(formatImportReport(report), flagNames(importer)));
  writeTapeFile(out, tape);
  io.out(`${out}: ${formatTapeSummary(summarizeTape(tape))}\n`);
  if (values['request-out'] !== undefined) {
    const request = suggestRequest(tape, Math.min(100, Math.max(1, Math.floor(leaders))));
    if (request === null) io.err('no wallet made a round trip: no request written\n');
    else {
      writeRequestFile(values['request-out'], request);
      const followed = `${request.wallets.length} leaders, ${request.from_date} .. ${request.to_date}`;
      io.out(`${values['request-out']}: ${followed}\n`);
    }
  }
  return EXIT_OK;
}
