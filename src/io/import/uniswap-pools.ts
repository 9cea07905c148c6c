import { z } from 'zod';
import { InputError } from '../../model/errors.js';
import { parseCsv } from './csv-parse.js';
import { QUOTE_ASSETS } from './quote-assets.js';

/** One side of a Uniswap pool. */
export interface PoolToken {
  readonly id: string;
  readonly symbol: string | null;
  readonly name: string | null;
}

/** A Uniswap pool: its address, its two tokens and, when the pool info names it, the token of interest. */
export interface UniswapPool {
  readonly id: string;
  readonly token0: PoolToken;
  readonly token1: PoolToken;
  /** The project's token (pool_info.csv's `Contracts` column), when known. */
  readonly token: string | null;
}

/** Wrapped ether on Ethereum mainnet: the quote leg that gives ETH/USD. */
export const WETH = QUOTE_ASSETS.eth.find((a) => a.symbol === 'WETH')!.address;
/**
 * Dollar stablecoins on Ethereum mainnet (USDC, USDT, DAI: the quote assets of kind `usd`), priced at 1 USD as a quote
 * leg.
 */
export const STABLECOINS: ReadonlySet<string> = new Set(
  QUOTE_ASSETS.eth.filter((a) => a.kind === 'usd').map((a) => a.address),
);

const PairsSchema = z.object({
  pairs: z.array(
    z.object({
      id: z.string(),
      token0: z.object({ id: z.string(), symbol: z.string().nullable().optional() }),
      token1: z.object({ id: z.string(), symbol: z.string().nullable().optional() }),
    }),
  ),
});

const CSV_COLUMNS = ['id', 'token0_id', 'token0_symbol', 'token1_id', 'token1_symbol'] as const;

/**
 * Reads Uniswap pool info: the subgraph's `{"pairs": [{id, token0: {id, symbol}, token1}]}`
 * JSON, or a CSV with columns `id, token0_id, token0_symbol, token1_id, token1_symbol` (and
 * optionally `Contracts`, the token of interest, and `token_name`). Addresses are lower-cased.
 *
 * @example
 * const pools = parsePoolInfo(readFileSync('pool_info.csv', 'utf8'), 'pool_info.csv');
 */
export function parsePoolInfo(text: string, name: string): UniswapPool[] {
  if (text.trimStart().startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new InputError(`${name}: not valid JSON: ${(e as Error).message}`, { source: name });
    }
    const parsed = PairsSchema.safeParse(json);
    if (!parsed.success)
      throw new InputError(`${name}: expected {"pairs": [{"id", "token0": {"id", "symbol"}, "token1": …}]}`, {
        source: name,
      });
    return parsed.data.pairs.map((p) => ({
      id: p.id.toLowerCase(),
      token0: { id: p.token0.id.toLowerCase(), symbol: p.token0.symbol ?? null, name: null },
      token1: { id: p.token1.id.toLowerCase(), symbol: p.token1.symbol ?? null, name: null },
      token: null,
    }));
  }
  const [header, ...rows] = parseCsv(text);
  const col = (c: string): number => header?.cells.indexOf(c) ?? -1;
  const missing = CSV_COLUMNS.filter((c) => col(c) < 0);
  if (header === undefined || missing.length > 0) {
    throw new InputError(`${name}: pool info CSV lacks column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`, {
      source: name,
      line: 1,
    });
  }
  const cell = (r: readonly string[], c: string): string | null => (col(c) >= 0 ? r[col(c)]?.trim() || null : null);
  return rows.map(({ cells }) => {
    const token = cell(cells, 'Contracts')?.toLowerCase() ?? null;
    const side = (i: 0 | 1): PoolToken => {
      const id = (cell(cells, `token${i}_id`) ?? '').toLowerCase();
      return { id, symbol: cell(cells, `token${i}_symbol`), name: id === token ? cell(cells, 'token_name') : null };
    };
    return { id: (cell(cells, 'id') ?? '').toLowerCase(), token0: side(0), token1: side(1), token };
  });
}

/**
 * Which side of a pool is traded (0 or 1): `chosen` when given, else the pool info's token of
 * interest, else the side that is not WETH or a stablecoin, else token0.
 */
export function tradedSide(pool: UniswapPool, chosen?: string): 0 | 1 | null {
  const want = chosen?.toLowerCase() ?? pool.token;
  if (want) return pool.token0.id === want ? 0 : pool.token1.id === want ? 1 : null;
  const isQuote = (t: PoolToken): boolean => t.id === WETH || STABLECOINS.has(t.id);
  return isQuote(pool.token0) && !isQuote(pool.token1) ? 1 : 0;
}
