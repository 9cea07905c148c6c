/**
 * The header of a Parquet tape (network, tokens, native prices): from copysim's metadata, or
 * given beside the file for a file another program wrote. See docs/columnar-tape.md.
 */
import type { z } from 'zod';
import type { Network } from '../../model/request.js';
import { TapeHeaderSchema, type TapeHeader, type TapeInput } from '../../model/tape.js';
import { META_HEADER } from './format.js';

/**
 * A tape's header given beside its file, for a Parquet file without copysim's header metadata
 * (written by DuckDB, pandas, …). Each fills what the file's header lacks; one that contradicts
 * it (another network, tokens or native prices where the header has its own) is refused, so a
 * flag never silently changes a tape.
 */
export interface TapeHeaderOptions {
  /** The tape's network: required for a file without copysim's header. */
  readonly network?: Network;
  /** The tape's `tokens` map (metadata of each token, by address). */
  readonly tokens?: TapeInput['tokens'];
  /** The tape's `native_prices`: `[time, usd]` points of the network's coin. */
  readonly nativePrices?: TapeInput['native_prices'];
}

/** True when any header option is given. */
export function hasHeaderOptions(options: TapeHeaderOptions): boolean {
  return options.network !== undefined || options.tokens !== undefined || options.nativePrices !== undefined;
}

/**
 * The tape's header: the file's own (`own`, null when the file has none) completed by the
 * options. Throws `fail(message)` when the network is nowhere, when an option contradicts the
 * file's header, or when an option is not a valid header member.
 */
export function resolveHeader(
  own: TapeHeader | null,
  options: TapeHeaderOptions,
  fail: (message: string) => Error,
): TapeHeader {
  const given = validOptions(options, fail);
  if (own === null) {
    if (given.network === undefined) {
      throw fail(
        `no "${META_HEADER}" key-value metadata (the file was not written by copysim): give the tape's network` +
          ' as `network` (sol or eth); its tokens and native prices may be given too (see docs/columnar-tape.md)',
      );
    }
    return { network: given.network, tokens: given.tokens ?? {}, native_prices: given.native_prices ?? [] };
  }
  if (given.network !== undefined && given.network !== own.network)
    throw fail(`its header's network is ${own.network}, but \`network\` is ${given.network}: leave \`network\` out`);
  const ownTokens = Object.keys(own.tokens).length;
  if (given.tokens !== undefined && ownTokens > 0 && !sameJson(given.tokens, own.tokens)) {
    throw fail(
      `its header has tokens of its own (${ownTokens}), and \`tokens\` gives others: leave \`tokens\` out` +
        ' (copysim convert the tape to JSON to change its header)',
    );
  }
  const ownPrices = own.native_prices.length;
  if (given.native_prices !== undefined && ownPrices > 0 && !sameJson(given.native_prices, own.native_prices)) {
    throw fail(
      `its header has native prices of its own (${ownPrices} points), and others are given: leave them out` +
        ' (copysim convert the tape to JSON to change its header)',
    );
  }
  return {
    network: own.network,
    tokens: ownTokens > 0 ? own.tokens : (given.tokens ?? own.tokens),
    native_prices: ownPrices > 0 ? own.native_prices : (given.native_prices ?? own.native_prices),
  };
}

/** The options as header members, validated as the tape's own header is. */
function validOptions(
  options: TapeHeaderOptions,
  fail: (message: string) => Error,
): { network?: Network; tokens?: TapeHeader['tokens']; native_prices?: TapeHeader['native_prices'] } {
  const shape = TapeHeaderSchema.shape;
  const check = <S extends z.ZodType>(schema: S, value: unknown, name: string): z.output<S> => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
    throw fail(`${name}: ${where}${issue.message}`);
  };
  return {
    ...(options.network !== undefined ? { network: check(shape.network, options.network, '`network`') } : {}),
    ...(options.tokens !== undefined ? { tokens: check(shape.tokens, options.tokens, '`tokens`') } : {}),
    ...(options.nativePrices !== undefined
      ? { native_prices: check(shape.native_prices, options.nativePrices, 'the native prices given') }
      : {}),
  };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
