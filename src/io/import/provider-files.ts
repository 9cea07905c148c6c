import { basename } from 'node:path';
import { InputError } from '../../model/errors.js';
import type { TapeInput } from '../../model/tape.js';
import { readText } from '../files.js';
import { parseExportJson, readExportFile, readExportTable, type ExportTable } from './export-rows.js';
import {
  derivedNativeNote,
  hourlyNativePrices,
  NativeRateSamples,
  type NativeDerivation,
} from './derived-native-prices.js';
import { readPriceSeriesFile } from './files.js';
import type { ProviderImportOptions } from './provider-options.js';
import type { DroppedRows } from './report.js';
import type { Importer, ImportResult } from './types.js';

export interface ProviderFileOptions extends Omit<ProviderImportOptions, 'solUsd' | 'ethUsd'> {
  /** SOL/USD series file (the forms of `parsePriceSeries`). */
  readonly solUsd?: string;
  /** ETH/USD series file. */
  readonly ethUsd?: string;
}

/** How a provider's exports are read: from their text, or from their file. */
export interface ExportForm<Export> {
  fromText(text: string, file: string): Export;
  /** `what` names the file in the message when it cannot be read. */
  fromFile(path: string, file: string, what: string): Export;
}

/** A table of rows, CSV or JSON (see {@link readExportTable}); a CSV file is read a piece at a time. */
export const TABLE_EXPORT: ExportForm<ExportTable> = { fromText: readExportTable, fromFile: readExportFile };

/** A JSON document, read whole. */
export const JSON_EXPORT: ExportForm<unknown> = {
  fromText: parseExportJson,
  fromFile: (path, file, what) => parseExportJson(readText(path, what), file),
};

/** What a provider's importer is made of: its description, the form of its exports and the importer of one. */
export interface ExportReader<Name extends string, Export> extends Omit<Importer, 'name' | 'read'> {
  readonly name: Name;
  readonly form: ExportForm<Export>;
  readonly importExport: (data: Export, file: string, options: ProviderImportOptions) => ImportResult;
}

/** The importer of a provider's exports: one from its text or its file, or several files as one tape. */
export interface ExportImporter<Name extends string = string> extends Importer<ProviderFileOptions> {
  readonly name: Name;
  importText(text: string, file: string, options: ProviderImportOptions): ImportResult;
  importFile(path: string, options: ProviderImportOptions): ImportResult;
}

/**
 * A provider's importer from its reader. Several files are imported each on its own (a file with
 * nothing usable is an error naming it), with the series files read once, then merged in time
 * order ({@link mergeImports}).
 */
export function exportImporter<Name extends string, Export>(reader: ExportReader<Name, Export>): ExportImporter<Name> {
  const { form, importExport, ...described } = reader;
  const importFile = (path: string, options: ProviderImportOptions): ImportResult => {
    const file = basename(path);
    return importExport(form.fromFile(path, file, reader.name), file, options);
  };
  return {
    ...described,
    importText: (text, file, options) => importExport(form.fromText(text, file), file, options),
    importFile,
    read(paths, options) {
      const { solUsd, ethUsd, ...rest } = options;
      const series = {
        ...(solUsd ? { solUsd: readPriceSeriesFile(solUsd) } : {}),
        ...(ethUsd ? { ethUsd: readPriceSeriesFile(ethUsd) } : {}),
      };
      return mergeImports(paths.map((path) => importFile(path, { ...rest, ...series })));
    },
  };
}

/**
 * Several imports as one: swaps in time order (file order within a second), reports added up.
 * Native prices derived from each file's swaps are derived again from all of them (an hour two
 * files share has one median), with one note on them.
 */
export function mergeImports(results: readonly ImportResult[]): ImportResult {
  if (results.length === 1) return results[0]!;
  const first = results[0]!;
  const network = first.tape.network;
  const other = results.find((r) => r.tape.network !== network);
  if (other)
    throw new InputError(
      `the files hold trades of two networks (${network} and ${other.tape.network}): import them apart`,
      { source: 'import' },
    );
  const swaps = results.flatMap((r) => r.tape.swaps).map((s, i) => ({ s, i }));
  swaps.sort((a, b) => a.s.time - b.s.time || a.i - b.i);
  const native = new Map<number, TapeInput['native_prices'] extends readonly (infer P)[] | undefined ? P : never>();
  for (const r of results) for (const p of r.tape.native_prices ?? []) native.set(p[0], p);
  const derivations = results.flatMap((r) => (r.derivedNative ? [r.derivedNative] : []));
  let derivedNative: NativeDerivation | undefined;
  if (derivations.length > 0) {
    const samples = NativeRateSamples.merged(derivations.map((d) => d.samples));
    const derived = hourlyNativePrices(samples);
    native.clear();
    for (const p of derived.points) native.set(p[0], p);
    derivedNative = { samples, note: derivedNativeNote(derived, network) };
  }
  // Each file's note on its native prices gives way to the one note on them all, where the first was.
  const fileNotes = new Set(derivations.map((d) => d.note));
  const notes = results
    .flatMap((r) => r.report.notes)
    .map((note) => (fileNotes.has(note) ? derivedNative!.note : note));
  const dropped = new Map<string, { count: number; examples: string[] }>();
  for (const r of results) {
    for (const d of r.report.dropped) {
      const entry = dropped.get(d.reason) ?? { count: 0, examples: [] };
      entry.count += d.count;
      entry.examples.push(...d.examples.slice(0, 3 - entry.examples.length));
      dropped.set(d.reason, entry);
    }
  }
  return {
    tape: {
      network,
      tokens: Object.assign({}, ...results.map((r) => r.tape.tokens ?? {})),
      native_prices: [...native.values()].sort((a, b) => a[0] - b[0]),
      swaps: swaps.map(({ s }) => s),
    },
    report: {
      source: first.report.source,
      rows: results.reduce((n, r) => n + r.report.rows, 0),
      kept: results.reduce((n, r) => n + r.report.kept, 0),
      dropped: [...dropped].map(([reason, e]): DroppedRows => ({ reason, ...e })),
      notes: [...new Set(notes)],
    },
    ...(derivedNative ? { derivedNative } : {}),
  };
}
