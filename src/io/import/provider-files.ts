import { basename } from 'node:path';
import { InputError } from '../../model/errors.js';
import type { TapeInput } from '../../model/tape.js';
import { importBirdeye } from './birdeye.js';
import { importDune } from './dune.js';
import { readText } from '../files.js';
import { parseExportJson, readExportFile, readExportTable, type ExportTable } from './export-rows.js';
import { readPriceSeriesFile } from './files.js';
import { importFlipside } from './flipside.js';
import { importHelius } from './helius.js';
import type { ProviderImportOptions } from './provider-options.js';
import type { DroppedRows } from './report.js';
import type { ImportResult } from './uniswap.js';

/** The providers whose exports `copysim import` reads. */
export const PROVIDERS = ['dune', 'flipside', 'helius', 'birdeye'] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface ProviderFileOptions extends Omit<ProviderImportOptions, 'solUsd' | 'ethUsd'> {
  /** SOL/USD series file (the forms of `parsePriceSeries`). */
  readonly solUsd?: string;
  /** ETH/USD series file. */
  readonly ethUsd?: string;
}

/** Imports one provider export file (its text already read). */
export function importProviderText(provider: Provider, text: string, file: string, options: ProviderImportOptions): ImportResult {
  switch (provider) {
    case 'dune':
    case 'flipside':
      return importTable(provider, readExportTable(text, file), file, options);
    case 'helius':
      return importHelius(parseExportJson(text, file), file, options);
    case 'birdeye':
      return importBirdeye(parseExportJson(text, file), file, options);
  }
}

/**
 * Imports one provider export file; a CSV is read a piece at a time (see {@link readExportFile}).
 *
 * @example
 * const { tape, report } = importProviderFile('dune', 'trades.csv', { solUsd });
 */
export function importProviderFile(provider: Provider, path: string, options: ProviderImportOptions): ImportResult {
  const file = basename(path);
  if (provider === 'dune' || provider === 'flipside') return importTable(provider, readExportFile(path, file, provider), file, options);
  return importProviderText(provider, readText(path, provider), file, options);
}

function importTable(provider: 'dune' | 'flipside', table: ExportTable, file: string, options: ProviderImportOptions): ImportResult {
  return provider === 'dune' ? importDune(table, file, options) : importFlipside(table, file, options);
}

/**
 * Imports provider export files into one tape: each file on its own (a file with nothing
 * usable is an error naming it), then merged in time order.
 *
 * @example
 * importProviderFiles('dune', ['trades.csv'], { solUsd: 'sol_usd_hourly.json' });
 */
export function importProviderFiles(provider: Provider, paths: readonly string[], options: ProviderFileOptions = {}): ImportResult {
  const { solUsd, ethUsd, ...rest } = options;
  const series = {
    ...(solUsd ? { solUsd: readPriceSeriesFile(solUsd) } : {}),
    ...(ethUsd ? { ethUsd: readPriceSeriesFile(ethUsd) } : {}),
  };
  const results = paths.map((path) => importProviderFile(provider, path, { ...rest, ...series }));
  return mergeImports(results);
}

/** Several imports as one: swaps in time order (file order within a second), reports added up. */
export function mergeImports(results: readonly ImportResult[]): ImportResult {
  if (results.length === 1) return results[0]!;
  const first = results[0]!;
  const network = first.tape.network;
  const other = results.find((r) => r.tape.network !== network);
  if (other) throw new InputError(`the files hold trades of two networks (${network} and ${other.tape.network}): import them apart`, { source: 'import' });
  const swaps = results.flatMap((r) => r.tape.swaps).map((s, i) => ({ s, i }));
  swaps.sort((a, b) => a.s.time - b.s.time || a.i - b.i);
  const native = new Map<number, TapeInput['native_prices'] extends readonly (infer P)[] | undefined ? P : never>();
  for (const r of results) for (const p of r.tape.native_prices ?? []) native.set(p[0], p);
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
      notes: [...new Set(results.flatMap((r) => r.report.notes))],
    },
  };
}
