import { InputError } from '../model/errors.js';

/** Why a feed refuses an input, as the service answers it: the status and the code. */
export const REFUSALS = {
  /** Not JSON, or an item that is no input of the feed (a swap breaking the tape's rules …). */
  invalid_input: 400,
  /** A Helius payload with no swap in it. */
  not_a_swap: 422,
  /** Older than the latest feed time less the lateness: it would land out of event order. */
  late_input: 409,
  /** The feed has passed `window_end`: the run is over. */
  run_ended: 409,
  /** The engine stopped on an input it could not use (the run's error says which). */
  run_failed: 409,
} as const;

export type RefusalCode = keyof typeof REFUSALS;

/**
 * An input the feed refuses, naming the item of the batch (0-based) and its field. Nothing of
 * the batch it belongs to is applied or logged.
 *
 * @example
 * throw new FeedRefusal('late_input', 'time 100 is 10 s before the feed time', { item: 3, field: 'time' });
 */
export class FeedRefusal extends InputError {
  override name = 'FeedRefusal';
  readonly status: number;
  readonly item: number | null;
  readonly field: string | null;

  constructor(
    readonly code: RefusalCode,
    readonly reason: string,
    where: { readonly item?: number; readonly field?: string } = {},
  ) {
    const item = where.item ?? null;
    const field = where.field ?? null;
    const place = [item === null ? '' : `item ${item}`, field ?? ''].filter((p) => p !== '').join(': ');
    super(place === '' ? reason : `${place}: ${reason}`, {
      source: 'feed',
      ...(field !== null ? { path: field } : {}),
    });
    this.status = REFUSALS[code];
    this.item = item;
    this.field = field;
  }

  /** The service's JSON body: `{code, detail, item, field}`. */
  get body(): { code: RefusalCode; detail: string; item: number | null; field: string | null } {
    return { code: this.code, detail: this.message, item: this.item, field: this.field };
  }
}
