import type { TapeInput } from '../../model/tape.js';
import type { NativeDerivation } from './derived-native-prices.js';
import type { ImportReport } from './report.js';

/** A tape and the report of what was dropped and why. */
export interface ImportResult {
  readonly tape: TapeInput;
  readonly report: ImportReport;
  /**
   * Set when the tape's native prices were derived from its swaps (no series given, see
   * derived-native-prices.ts): what they were derived from, for imports merged into one tape.
   */
  readonly derivedNative?: NativeDerivation;
}

/**
 * A setting of an importer as the command line takes it: a flag whose text sets one option of the
 * importer's reader.
 */
export interface ImporterSetting {
  /** The reader's option it sets (`solUsd`), as the messages name it (see `optionName`). */
  readonly option: string;
  /** The flag, without its dashes (`sol-usd`). */
  readonly flag: string;
  /** What the help calls the flag's text (`FILE`). */
  readonly value: string;
  /** The help's words on it, a line each. */
  readonly help: readonly string[];
  /** The importer cannot run without it. */
  readonly required?: boolean;
  /** The text taken when the flag is not given. */
  readonly default?: string;
  /**
   * The option's value from the flag's text (without it, the text itself); undefined leaves the
   * option unset. A text that is no value of the option throws a `SettingValueError`.
   */
  readonly parse?: (text: string) => unknown;
}

/**
 * A source of swap data that `copysim import NAME` reads (see `IMPORTERS` in registry.ts): its
 * files, its settings and its reader.
 */
export interface Importer<Options extends object = object> {
  /** The source's name, as `copysim import` takes it and its report names it. */
  readonly name: string;
  /** What the help calls its files (`EXPORT...`). */
  readonly files: string;
  /** The help's words on its files, a line each. */
  readonly help: readonly string[];
  readonly settings: readonly ImporterSetting[];
  /** It reads one file only. */
  readonly oneFile?: boolean;
  /** Reads the files into one tape, with the options the settings set and `outlierFactor`. */
  read(paths: readonly string[], options: Options & { readonly outlierFactor?: number }): ImportResult;
}
