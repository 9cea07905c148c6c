import { DecimalJs40 } from '../numeric/decimal.js';
import { InputError } from '../model/errors.js';
import { importHelius } from '../io/import/helius.js';
import type { PriceSeries } from '../io/import/prices.js';
import type { DroppedRows } from '../io/import/report.js';
import { FeedRefusal } from './errors.js';
import type { FeedInput } from './feed-input.js';

/** Where the messages of a webhook payload place its transactions: `body [3] 4cSywbWb…`. */
const PAYLOAD = 'body';

/** The feed's inputs of one Helius payload, and the transactions in it that are not swaps. */
export interface HeliusBatch {
  /** The payload's tokens (when any leg names one) and its swaps, in the tape's form and order. */
  readonly items: unknown[];
  readonly dropped: readonly DroppedRows[];
}

/**
 * Reads Helius webhooks (the list of enhanced transactions Helius posts) with the code of
 * `copysim import helius`, into swaps of the tape. Their USD values come from the SOL leg at
 * the native prices the feed has taken so far, so a feed sends those before its swaps. No
 * outlier is dropped: a payload is a few transactions, with no median to speak of.
 *
 * @example
 * const helius = new HeliusFeed();
 * helius.take(inputsTaken);                 // the native prices among them
 * const { items } = helius.read(JSON.parse(body));
 */
export class HeliusFeed {
  private readonly series: (readonly [number, DecimalJs40])[] = [];

  /** Notes the native prices among inputs the feed has taken. */
  take(inputs: readonly FeedInput[]): void {
    for (const input of inputs) {
      if (input.kind !== 'native_prices') continue;
      for (const [time, usd] of input.points) {
        let at = this.series.length;
        while (at > 0 && this.series[at - 1]![0] > time) at--;
        this.series.splice(at, 0, [time, new DecimalJs40(usd)]);
      }
    }
  }

  /**
   * The swaps of a payload. A payload that is no list of transactions is an `invalid_input`
   * refusal; one with no swap in it is `not_a_swap`, naming the first transaction and why.
   */
  read(payload: unknown): HeliusBatch {
    if (!Array.isArray(payload)) {
      throw new FeedRefusal(
        'invalid_input',
        'expected the list of enhanced transactions a Helius webhook posts ([{signature, type, …}, …])',
      );
    }
    try {
      const { tape, report } = importHelius(payload, PAYLOAD, { solUsd: this.series as PriceSeries, outlierFactor: 0 });
      const tokens = tape.tokens ?? {};
      const items: unknown[] = Object.keys(tokens).length > 0 ? [{ tokens }, ...tape.swaps] : [...tape.swaps];
      return { items, dropped: report.dropped };
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      throw notASwap(e.message, payload);
    }
  }
}

/**
 * The refusal of a payload without a swap: the importer's reasons for the whole payload, and
 * the first transaction with the field its reason names.
 */
function notASwap(message: string, payload: readonly unknown[]): FeedRefusal {
  const reason = message.startsWith(`${PAYLOAD}: `) ? message.slice(PAYLOAD.length + 2) : message;
  if (payload.length === 0) return new FeedRefusal('not_a_swap', 'the payload holds no transaction');
  const field = /type \S+ is not a swap/.test(reason)
    ? 'type'
    : /transactionError/.test(reason)
      ? 'transactionError'
      : undefined;
  return new FeedRefusal('not_a_swap', `no swap in the payload: ${reason}`, {
    item: 0,
    ...(field !== undefined ? { field } : {}),
  });
}
