import { InputError } from '../../model/errors.js';
import type { Network } from '../../model/request.js';
import { optionName } from './option-names.js';

/** How a quote asset is valued in USD: at the native coin's series, or at one dollar. */
export type QuoteKind = 'native' | 'usd';

/** A quote asset: its address (mint on sol, lower-case contract on eth), symbol and kind. */
export interface QuoteAsset {
  readonly address: string;
  readonly symbol: string;
  readonly kind: QuoteKind;
}

/**
 * The quote assets of each network: in a swap between a quote asset and another token, the
 * other token is what was traded and the quote asset what it was paid with. A swap between
 * two quote assets (SOL for USDC) or two other tokens is not a trade of a token for money and is
 * dropped. Override with the `quoteAssets` option.
 */
export const QUOTE_ASSETS: Readonly<Record<Network, readonly QuoteAsset[]>> = {
  sol: [
    { address: 'So11111111111111111111111111111111111111112', symbol: 'SOL', kind: 'native' }, // wrapped SOL
    // Native SOL as some APIs name it.
    { address: 'So11111111111111111111111111111111111111111', symbol: 'SOL', kind: 'native' },
    { address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', symbol: 'USDC', kind: 'usd' },
    { address: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', symbol: 'USDT', kind: 'usd' },
  ],
  eth: [
    { address: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2', symbol: 'WETH', kind: 'native' },
    // Native ETH as aggregators name it.
    { address: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', symbol: 'ETH', kind: 'native' },
    { address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', symbol: 'USDC', kind: 'usd' },
    { address: '0xdac17f958d2ee523a2206206994597c13d831ec7', symbol: 'USDT', kind: 'usd' },
    { address: '0x6b175474e89094c44da98b954eedeac495271d0f', symbol: 'DAI', kind: 'usd' },
  ],
};

/** Looks up quote assets by address or, for exports that carry only symbols, by symbol. */
export class QuoteAssets {
  private readonly byAddress = new Map<string, QuoteAsset>();
  private readonly bySymbol = new Map<string, QuoteAsset>();

  constructor(
    readonly network: Network,
    assets: readonly QuoteAsset[] = QUOTE_ASSETS[network],
  ) {
    for (const a of assets) {
      this.byAddress.set(this.key(a.address), a);
      if (!this.bySymbol.has(a.symbol.toUpperCase())) this.bySymbol.set(a.symbol.toUpperCase(), a);
    }
    // Native ETH and SOL by symbol, for symbol-only exports.
    if (network === 'eth' && !this.bySymbol.has('ETH')) this.bySymbol.set('ETH', QUOTE_ASSETS.eth[0]!);
  }

  /** Addresses compare case-insensitively on eth. */
  key(address: string): string {
    return this.network === 'eth' ? address.toLowerCase() : address;
  }

  byAddressOf(address: string): QuoteAsset | undefined {
    return this.byAddress.get(this.key(address));
  }

  bySymbolOf(symbol: string): QuoteAsset | undefined {
    return this.bySymbol.get(symbol.toUpperCase());
  }
}

/**
 * Parses a list of quote assets (the `quoteAssets` option) from text: comma-separated
 * `ADDRESS:SYMBOL:native|usd` entries, replacing the network's list.
 *
 * @example
 * parseQuoteAssets('So11111111111111111111111111111111111111112:SOL:native,EPjF…:USDC:usd');
 */
export function parseQuoteAssets(text: string): QuoteAsset[] {
  return text
    .split(',')
    .filter((entry) => entry.trim() !== '')
    .map((entry) => {
      const [address, symbol, kind] = entry.split(':').map((s) => s.trim());
      if (!address || !symbol || (kind !== 'native' && kind !== 'usd')) {
        const expected = 'ADDRESS:SYMBOL:native or ADDRESS:SYMBOL:usd';
        throw new InputError(`${optionName('quoteAssets')}: "${entry}" is not ${expected}`, {
          source: 'options',
          path: 'quoteAssets',
        });
      }
      return { address, symbol, kind };
    });
}
