import { InputError } from '../../model/errors.js';
import type { Network } from '../../model/request.js';
import { rejectErrorResponse, text } from './export-rows.js';
import { collector, type ProviderImportOptions } from './provider-options.js';
import { ProviderTimeReader } from './provider-time.js';
import { QuoteAssets } from './quote-assets.js';
import { decimalOf, type TradeLeg } from './trade-collector.js';
import type { ImportResult } from './types.js';

type Json = Record<string, unknown>;

function obj(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

/** A field in either spelling Birdeye uses (`uiAmount` / `ui_amount`). */
function field(o: Json, camel: string, snake: string): unknown {
  return o[camel] ?? o[snake];
}

function leg(o: Json): TradeLeg & { readonly usdPrice: ReturnType<typeof decimalOf> } {
  return {
    address: text(o.address),
    symbol: text(o.symbol) || null,
    amount: field(o, 'uiAmount', 'ui_amount'),
    usdPrice: decimalOf(o.price),
  };
}

/** Which of a base/quote pair was sold: `typeSwap` says "from", else the negative change. */
function soldFirst(a: Json, b: Json): boolean | null {
  const side = (o: Json): string => text(field(o, 'typeSwap', 'type_swap'));
  if (side(a) === 'from' || side(b) === 'to') return true;
  if (side(b) === 'from' || side(a) === 'to') return false;
  const change = (o: Json): number =>
    Number(field(o, 'uiChangeAmount', 'ui_change_amount') ?? field(o, 'changeAmount', 'change_amount'));
  if (change(a) < 0 && change(b) > 0) return true;
  if (change(b) < 0 && change(a) > 0) return false;
  return null;
}

/**
 * Imports Birdeye trade responses (`/defi/txs/token`, `/defi/txs/pair`, their `seek_by_time`
 * forms, `/trader/txs/seek_by_time`, `/defi/v3/token/txs`, `/defi/v3/txs`): `{"success": true,
 * "data": {"items": [...]}}`. Every item shape: camelCase `from` / `to` (`uiAmount`, `price`),
 * snake_case `from` / `to` (`ui_amount`), and `base` / `quote` with `typeSwap` / `type_swap`
 * or the change's sign telling which was sold. The trader is `owner`; the time
 * `blockUnixTime` / `block_unix_time`; the USD value `volume_usd` when given, else the quote
 * leg's amount × its `price` (Birdeye's USD price), else the token leg's. An answer with
 * `"success": false` is an error naming the file.
 *
 * @example
 * const { tape, report } = importBirdeye(JSON.parse(text), 'txs.json');
 */
export function importBirdeye(json: unknown, file: string, options: ProviderImportOptions = {}): ImportResult {
  rejectErrorResponse(json, file);
  const data = obj(json)?.data;
  const items = Array.isArray(data) ? data : obj(data)?.items;
  if (!Array.isArray(items))
    throw new InputError(`${file}: expected Birdeye's {"success": true, "data": {"items": [...]}}`, { source: file });
  const firstAddress = text(obj(obj(items[0])?.from ?? obj(items[0])?.base)?.address);
  const network: Network = options.network ?? (firstAddress.startsWith('0x') ? 'eth' : 'sol');
  const quotes = new QuoteAssets(network, options.quoteAssets);
  const trades = collector(network, options);
  const times = new ProviderTimeReader();
  items.forEach((value, index) => {
    const item = obj(value);
    const where = `${file} data.items[${index}]`;
    if (item === null) return trades.drop('not a trade object', where);
    const from = obj(item.from);
    const to = obj(item.to);
    const base = obj(item.base);
    const quote = obj(item.quote);
    let sold: Json | null = null;
    let bought: Json | null = null;
    if (from && to) [sold, bought] = [from, to];
    else if (base && quote) {
      const baseSold = soldFirst(base, quote);
      if (baseSold !== null) [sold, bought] = baseSold ? [base, quote] : [quote, base];
    }
    if (sold === null || bought === null)
      return trades.drop('cannot tell which side was sold (no from/to, no type_swap, no signed change)', where);
    const soldLeg = leg(sold);
    const boughtLeg = leg(bought);
    const volume = decimalOf(field(item, 'volumeUsd', 'volume_usd'));
    const soldQuote = quotes.byAddressOf(soldLeg.address) !== undefined;
    const [quoteLeg, tokenLeg] = soldQuote ? [soldLeg, boughtLeg] : [boughtLeg, soldLeg];
    const legUsd = (l: typeof soldLeg) => {
      const amount = decimalOf(l.amount);
      return amount && l.usdPrice ? amount.abs().times(l.usdPrice) : null;
    };
    trades.add({
      wallet: text(item.owner),
      sold: soldLeg,
      bought: boughtLeg,
      time: times.read(field(item, 'blockUnixTime', 'block_unix_time')),
      usd: volume?.gt(0) ? volume : (legUsd(quoteLeg) ?? legUsd(tokenLeg)),
      hash: text(field(item, 'txHash', 'tx_hash')) || null,
      seq: [
        Number(field(item, 'blockNumber', 'block_number')) || 0,
        Number(field(item, 'insIndex', 'ins_index')) || 0,
        Number(field(item, 'innerInsIndex', 'inner_ins_index')) || 0,
        index,
      ],
      where,
    });
  });
  return trades.finish('birdeye', file);
}
