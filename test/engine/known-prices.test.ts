/**
 * The price books' double words (src/engine/known-prices.ts): `priceWord` writes into the
 * caller's double word the conversion of the token's known price (`rawToWord` of the raw value,
 * or `toWord` of its decimal once a trade made it: both within 2^-100, not always equal), and
 * `priceNumber` is its high part, whichever is asked first, for a streamed tape (`KnownPrices`)
 * and an indexed one (`IndexedKnownPrices`, which keeps each swap's word, made once, beside its
 * time, and its decimals by token on the tape's first replay, by swap on the next ones).
 */
import { describe, expect, it } from 'vitest';
import { IndexedKnownPrices, KnownPrices, PriceThreshold, type PriceBook } from '../../src/engine/known-prices.js';
import { indexTape } from '../../src/engine/tape-index.js';
import { tapeMemo } from '../../src/engine/tape-memo.js';
import { Decimal40 } from '../../src/numeric/decimal40.js';
import { doubleWord, rawToWord, toWord } from '../../src/numeric/double-word.js';
import { at, buy, LEADER_A, MARKET, sell, tape, TOKEN_X, TOKEN_Y } from '../support/scenario.js';

// Short and long strings, numbers with short and 16-digit texts, a tiny price.
const SWAPS = [
  buy(LEADER_A, TOKEN_X, at(0), 10, '0.1'),
  buy(MARKET, TOKEN_Y, at(1), 10, 3e-7),
  sell(MARKET, TOKEN_X, at(2), 1, 1 / 3),
  sell(MARKET, TOKEN_Y, at(3), 1, '1.2345678901234567890123456789'),
  buy(MARKET, TOKEN_X, at(4), 1, '7e-13'),
];

/** The double word of a raw price, or of the decimal it reads as. */
function expectedWord(price: number | string, fromDecimal: boolean): [number, number] {
  const word = doubleWord();
  if (fromDecimal) toWord(word, new Decimal40(price));
  else rawToWord(word, price);
  return [word[0]!, word[1]!];
}

/**
 * Feeds the swaps in turn; after each, checks both readings of its token, in the order
 * `numberFirst` says. `makeDecimal`: a trade asks for the price's decimal first; `fromDecimal`:
 * the book then converts that decimal.
 */
function check(
  book: PriceBook,
  tokenOf: (i: number) => number,
  numberFirst: boolean,
  makeDecimal: boolean,
  fromDecimal = makeDecimal,
): void {
  const word = doubleWord();
  SWAPS.forEach((swap, i) => {
    const tokenId = tokenOf(i);
    book.observe(tokenId, swap as never, i);
    if (makeDecimal) book.priceOf(tokenId);
    const expected = expectedWord(swap.usd_price, fromDecimal);
    let number = NaN;
    if (numberFirst) number = book.priceNumber(tokenId);
    book.priceWord(tokenId, word);
    if (!numberFirst) number = book.priceNumber(tokenId);
    expect([word[0], word[1]]).toEqual(expected);
    expect(number).toBe(expected[0]);
  });
}

describe('price books: priceWord and priceNumber', () => {
  for (const numberFirst of [true, false]) {
    const order = numberFirst ? 'priceNumber first' : 'priceWord first';
    it(`KnownPrices, from the raw values and from the decimals, ${order}`, () => {
      check(new KnownPrices(), (i) => (i % 2 === 0 ? 0 : 1), numberFirst, false);
      check(new KnownPrices(), (i) => (i % 2 === 0 ? 0 : 1), numberFirst, true);
    });

    it(`IndexedKnownPrices, ${order}`, () => {
      const indexed = indexTape(tape(SWAPS));
      check(new IndexedKnownPrices(indexed), (i) => indexed.tokenOf[i]!, numberFirst, false);
      // A second book over the same tape reads the words kept in the tape's memo, made from the raw values.
      check(new IndexedKnownPrices(indexed), (i) => indexed.tokenOf[i]!, numberFirst, true, false);
      // A new tape's first book keeps its decimals by token, not in the memo: words from the raw values.
      const fresh = indexTape(tape(SWAPS));
      check(new IndexedKnownPrices(fresh), (i) => fresh.tokenOf[i]!, numberFirst, true, false);
      // A tape replayed before, whose decimals a trade made first (kept by swap): words made from them.
      const again = indexTape(tape(SWAPS));
      new IndexedKnownPrices(again);
      check(new IndexedKnownPrices(again), (i) => again.tokenOf[i]!, numberFirst, true);
    });
  }
});

describe('KnownPrices: a price word made by the caller', () => {
  it('is read while the known price equals the raw price it was made of, and only then', () => {
    const book = new KnownPrices(0, PriceThreshold.of('5'));
    const word = doubleWord();
    const tick = (time: number, price: number | string, amount: number) =>
      ({ time, usd_price: price, usd_amount: amount, usd_liquidity: undefined }) as never;
    // A word that is not rawToWord's (its low part 2^-60 off), to see which one is read.
    book.wordMade(0, '0.1', Float64Array.of(0.1, 2 ** -60), 0);
    book.observe(0, tick(1, '0.1', 10));
    book.priceWord(0, word);
    expect([word[0], word[1]]).toEqual([0.1, 2 ** -60]);
    expect(book.priceNumber(0)).toBe(0.1);
    // A swap below min_price_swap_usd moves no price: the word of its price is not the known price's.
    book.wordMade(0, '0.3', Float64Array.of(0, 0.3, 2 ** -60), 1);
    book.observe(0, tick(2, '0.3', 1));
    book.priceWord(0, word);
    expect([word[0], word[1]]).toEqual(expectedWord('0.1', false));
    // A price observed without a word of its own is converted here.
    book.observe(0, tick(3, 1 / 3, 10));
    book.priceWord(0, word);
    expect([word[0], word[1]]).toEqual(expectedWord(1 / 3, false));
    // A word made for another token leaves this one's alone.
    book.wordMade(1, 1 / 3, Float64Array.of(1, 1), 0);
    book.priceWord(0, word);
    expect([word[0], word[1]]).toEqual(expectedWord(1 / 3, false));
  });
});

describe('price books: priceOfKey', () => {
  /** Feeds the swaps; after each, the key of its token's price gives that price, also once the price moved on. */
  function checkKeys(book: PriceBook, tokenOf: (i: number) => number): void {
    const kept: { key: ReturnType<PriceBook['priceKey']>; price: string }[] = [];
    SWAPS.forEach((swap, i) => {
      const tokenId = tokenOf(i);
      book.observe(tokenId, swap as never, i);
      const key = book.priceKey(tokenId);
      expect(book.priceOfKey(key).toString()).toBe(book.priceOf(tokenId).toString());
      kept.push({ key, price: new Decimal40(swap.usd_price).toString() });
    });
    for (const { key, price } of kept) expect(book.priceOfKey(key).toString()).toBe(price);
  }

  it('KnownPrices and IndexedKnownPrices give the price a key stood for', () => {
    checkKeys(new KnownPrices(), (i) => (i % 2 === 0 ? 0 : 1));
    const indexed = indexTape(tape(SWAPS));
    checkKeys(new IndexedKnownPrices(indexed), (i) => indexed.tokenOf[i]!);
  });
});

describe('price books: decimals kept by token, then by swap', () => {
  const expected = SWAPS.map((swap) => new Decimal40(swap.usd_price).toString());

  /** A fresh indexed tape, the count of decimals its memo keeps by swap, and a reader of books on it. */
  function freshTape() {
    const indexed = indexTape(tape(SWAPS));
    const memo = tapeMemo(indexed);
    const kept = (): number => memo.price.filter((d) => d !== undefined).length;
    /** Feeds the swaps; gives each swap's price as its token's decimal, asked twice. */
    const read = (book: IndexedKnownPrices): string[] =>
      SWAPS.map((swap, i) => {
        const tokenId = indexed.tokenOf[i]!;
        book.observe(tokenId, swap as never, i);
        const price = book.priceOf(tokenId);
        expect(book.priceOf(tokenId)).toBe(price); // made once while the price stands
        return price.toString();
      });
    return { indexed, kept, read };
  }

  it("keeps each token's latest decimal on a tape's first replay, one per swap on the next ones", () => {
    const { indexed, kept, read } = freshTape();
    expect(read(new IndexedKnownPrices(indexed))).toEqual(expected);
    expect(kept()).toBe(0);
    expect(read(new IndexedKnownPrices(indexed))).toEqual(expected);
    expect(kept()).toBe(SWAPS.length);
  });

  it('keeps none by swap when told not to keep them (a rank), after a first book or not', () => {
    const { indexed, kept, read } = freshTape();
    for (let book = 0; book < 3; book++) {
      expect(read(new IndexedKnownPrices(indexed, null, false))).toEqual(expected);
      expect(kept()).toBe(0);
    }
  });
});
