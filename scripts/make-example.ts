/**
 * Generates the bundled example (fixtures/example): a Solana and an Ethereum tape of a few days
 * of pump-and-dump memecoin trading, with the leaders to follow, and a simulator request for each.
 * Seeded and deterministic: running it again rewrites byte-identical files, and
 * `test/example.test.ts` checks that the committed files are exactly what it makes.
 *
 * Run: `npx tsc -p tsconfig.build.json && node dist/scripts/make-example.js [OUT_DIR]`
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DecimalJs40 as Decimal } from '../src/numeric/decimal.js';
import type { Network, SimulatorRequestInput } from '../src/model/request.js';
import type { Swap, TokenMeta } from '../src/model/tape.js';
import { UsageError } from '../src/cli/usage.js';
import {
  buyChance,
  ETH_ADDRESSES,
  liquidityAt,
  multipleAt,
  Random,
  reactionFactor,
  SOL_ADDRESSES,
  swapsPerHour,
  type AddressBook,
  type Reaction,
  type TokenLife,
} from './example-market.js';
import { printedHelp, runScript } from '../tools/script-args.js';

const HOUR = 3600;

/** What differs between the two example networks. */
interface Profile {
  readonly network: Network;
  readonly seed: number;
  readonly fromDate: string;
  readonly days: number;
  readonly nativeUsd: number;
  readonly tokens: readonly (readonly [name: string | null, symbol: string | null])[];
  /** Launch prices are drawn between these (USD per token). */
  readonly launchPrice: readonly [number, number];
  readonly launchLiquidity: readonly [number, number];
  /** A market swap is `marketUsd × (1 + 120 u³)` USD; a leader buy `leaderUsd × (1 + 4 u)`. */
  readonly marketUsd: number;
  readonly leaderUsd: number;
  /** Market activity relative to the Solana tape (gas makes Ethereum swaps rarer). */
  readonly activity: number;
  /** How far the crowd moves the price after a leader's buy, and down after its sell (see `Reaction`). */
  readonly buyReaction: readonly [number, number];
  readonly sellReaction: readonly [number, number];
  readonly styles: readonly LeaderStyle[];
  readonly addresses: AddressBook;
  readonly request: (leaders: string[], fromDate: string, toDate: string) => SimulatorRequestInput;
}

/** How a leader trades a token it picks (see `leaderPlan`). */
type LeaderStyle = 'early' | 'late' | 'holder' | 'flipper';

const SOL: Profile = {
  network: 'sol',
  seed: 20240310,
  fromDate: '2024-03-10',
  days: 3,
  nativeUsd: 150,
  tokens: [
    ['Solar Otter', 'OTTR'],
    ['Pixel Frog', 'PFROG'],
    ['Laser Hamster', 'LZRH'],
    ['Turbo Snail', 'TSNL'],
    ['Cosmic Duck', 'CDUCK'],
    ['Neon Llama', 'NLMA'],
    ['Sleepy Whale', 'ZZZW'],
    ['Gravy Boat', 'GRVY'],
    ['Rocket Toad', 'RTOAD'],
    ['Quantum Pug', 'QPUG'],
    ['Velvet Moth', null],
    [null, null],
    ['Hyper Goose', 'HONK'],
    [null, null],
  ],
  launchPrice: [0.000004, 0.00006],
  launchLiquidity: [12_000, 60_000],
  marketUsd: 8,
  leaderUsd: 120,
  activity: 1,
  buyReaction: [0.06, 0.3],
  sellReaction: [0.05, 0.2],
  styles: ['early', 'late', 'holder', 'flipper'],
  addresses: SOL_ADDRESSES,
  request: (wallets, from_date, to_date) => ({
    wallets,
    network: 'sol',
    from_date,
    to_date,
    buy_percentage: 50,
    max_buy_amount: 300,
    max_position_amount: 800,
    priority_fee: 0.0005,
    bribe: 0.0001,
    max_dupe_buy_times: 2,
    close_all: false,
    inactivity_time_fix: { hours: 12 },
    include_bot_fees: false,
    // A bot of the copier's wallet (model 3.0): a bankroll, two seconds late, a slippage
    // tolerance, dropped and sandwiched transactions, and who made the money.
    strategy: {
      copy_delay_seconds: 2,
      starting_balance_usd: 500,
      slippage_tolerance_percent: 15,
      failed_transaction_percent: 5,
      retries: 1,
      sandwich_percent: 20,
      report_skipped: true,
      report_leaders: true,
    },
  }),
};

const ETH: Profile = {
  network: 'eth',
  seed: 20240603,
  fromDate: '2024-06-03',
  days: 3,
  nativeUsd: 3000,
  tokens: [
    ['Paper Crane', 'CRANE'],
    ['Mellow Yak', 'MYAK'],
    ['Fuzzy Comet', 'FUZZ'],
    ['Tiny Titan', 'TTAN'],
    ['Copper Kiwi', 'KIWI'],
    ['Lunar Badger', 'LBDG'],
    ['Ember Fox', 'EFOX'],
    [null, null],
    ['Glass Heron', 'HERON'],
    ['Static Eel', null],
    ['Marble Crab', 'MCRAB'],
    ['Orbit Mole', 'MOLE'],
  ],
  launchPrice: [0.0004, 0.02],
  launchLiquidity: [60_000, 300_000],
  marketUsd: 40,
  leaderUsd: 600,
  activity: 0.6,
  buyReaction: [0.03, 0.15],
  sellReaction: [0.03, 0.12],
  styles: ['early', 'late', 'holder'],
  addresses: ETH_ADDRESSES,
  request: (wallets, from_date, to_date) => ({
    wallets,
    network: 'eth',
    from_date,
    to_date,
    buy_percentage: 40,
    max_buy_amount: 1500,
    max_position_amount: 4000,
    priority_fee: 0.001,
    bribe: 0,
    max_dupe_buy_times: 1,
    close_all: true,
    inactivity_time_fix: null,
    include_bot_fees: true,
  }),
};

/** A leader's intention: buy `usd`, or sell `fraction` of what it holds then (1: everything). */
type Intent = { time: number; type: 'buy'; usd: number } | { time: number; type: 'sell'; fraction: number };

/** Time at fraction `x` of the pump, or fraction `y` of the dump. */
const pumpTime = (l: TokenLife, x: number): number => Math.round(l.launch + x * l.pumpHours * HOUR);
const dumpTime = (l: TokenLife, y: number): number => Math.round(l.launch + (l.pumpHours + y * l.dumpHours) * HOUR);

/** What a leader of a style does with a token it picks. */
function leaderPlan(style: LeaderStyle, life: TokenLife, rng: Random, usd: () => number): Intent[] {
  const buy = (time: number): Intent => ({ time, type: 'buy', usd: usd() });
  const sell = (time: number, fraction: number): Intent => ({ time, type: 'sell', fraction });
  switch (style) {
    case 'early': {
      // Buys the first minutes, adds once or twice, takes profit up the pump, exits in the dump.
      const x = rng.between(0.02, 0.1);
      const plan = [buy(pumpTime(life, x))];
      for (let k = rng.int(0, 2); k > 0; k--) plan.push(buy(pumpTime(life, x + k * rng.between(0.04, 0.12))));
      plan.push(sell(pumpTime(life, rng.between(0.6, 0.9)), 0.4));
      plan.push(sell(dumpTime(life, rng.between(0.02, 0.15)), 0.5));
      plan.push(sell(dumpTime(life, rng.between(0.3, 0.7)), 1));
      return plan;
    }
    case 'late': {
      // Chases the top; sells into the crash at a loss, or holds the bag.
      const plan = [buy(pumpTime(life, rng.between(0.8, 0.97)))];
      if (rng.chance(0.4)) plan.push(buy(dumpTime(life, rng.between(0.02, 0.1))));
      if (rng.chance(0.75)) plan.push(sell(dumpTime(life, rng.between(0.35, 0.95)), 1));
      return plan;
    }
    case 'holder':
      // Buys mid-pump, trims near the top and keeps the rest.
      return [buy(pumpTime(life, rng.between(0.2, 0.5))), sell(pumpTime(life, rng.between(0.85, 0.99)), 0.3)];
    case 'flipper': {
      // Two quick round trips: in and out within the hour.
      const plan: Intent[] = [];
      for (const x of [rng.between(0.1, 0.4), rng.between(0.5, 0.9)]) {
        const t = pumpTime(life, x);
        plan.push(buy(t), sell(t + rng.int(15, 75) * 60, 1));
      }
      return plan;
    }
  }
}

/** Rounds to `digits` significant digits and spells the result as a plain decimal string. */
function sig(value: number, digits: number): string {
  return new Decimal(value).toSignificantDigits(digits).toFixed();
}

/** An example: its tape (model section 8) and its simulator request. */
export interface Example {
  readonly tape: {
    network: Network;
    tokens: Record<string, TokenMeta>;
    native_prices: [number, number][];
    swaps: Swap[];
  };
  readonly request: SimulatorRequestInput;
}

/** Makes the example of a network. Pure: the same network always gives the same example. */
export function makeExample(network: Network): Example {
  const p = network === 'sol' ? SOL : ETH;
  const rng = new Random(p.seed);
  const windowStart = Date.parse(`${p.fromDate}T00:00:00Z`) / 1000;
  const start = windowStart - 6 * HOUR;
  const windowEnd = windowStart + p.days * 24 * HOUR - 1;
  const end = windowEnd + 6 * HOUR;

  const tokens: Record<string, TokenMeta> = {};
  const lives: TokenLife[] = p.tokens.map(([name, symbol], i) => {
    const address = p.addresses.token(rng);
    if (name !== null) tokens[address] = { name, symbol };
    // The first token launches before the window, the last two a few hours before its end (their
    // pumps outlast the window); two tokens never report liquidity.
    const hoursBeforeEnd = p.tokens.length - i <= 2 ? 2 + 2 * (p.tokens.length - i) : null;
    const last = hoursBeforeEnd !== null;
    const launch =
      i === 0
        ? windowStart - 5 * HOUR
        : last
          ? windowEnd - hoursBeforeEnd * HOUR
          : Math.round(rng.between(windowStart, end - 16 * HOUR));
    return {
      address,
      launch,
      launchPrice: rng.between(...p.launchPrice),
      pumpHours: last ? 9 : rng.between(2, 9),
      peak: rng.between(1.6, 14),
      dumpHours: rng.between(1, 5),
      floor: rng.between(0.03, 0.3),
      launchLiquidity: i === 3 || i === 8 ? null : rng.between(...p.launchLiquidity),
      rug: rng.chance(0.25),
    };
  });

  // The leaders' plans first: the crowd reacts to their swaps within seconds (a reaction each),
  // and every price of the token, the market's and the leaders' own, carries those reactions.
  // Leaders trade only tokens whose pools report their liquidity.
  const tradable = lives.filter((life) => life.launchLiquidity !== null);
  const leaders = p.styles.map(() => p.addresses.wallet(rng));
  const reactions = new Map<TokenLife, Reaction[]>(lives.map((life) => [life, []]));
  const plans: { leader: string; life: TokenLife; intents: Intent[] }[] = [];
  p.styles.forEach((style, k) => {
    const picked = rng.sample(tradable, rng.int(5, 7));
    // The early leader holds the token launched before the window and buys the next-to-last
    // one; the holder buys the last one.
    const musts = style === 'early' ? [lives[0]!, lives.at(-2)!] : style === 'holder' ? [lives.at(-1)!] : [];
    for (const life of musts) if (!picked.includes(life)) picked.push(life);
    for (const life of picked) {
      const usd = (): number => p.leaderUsd * (1 + 4 * rng.next());
      const intents = leaderPlan(style, life, rng, usd).filter((intent) => intent.time < end);
      for (const intent of intents) {
        const size = intent.type === 'buy' ? rng.between(...p.buyReaction) : -rng.between(...p.sellReaction);
        reactions.get(life)!.push({ time: intent.time, size });
      }
      plans.push({ leader: leaders[k]!, life, intents });
    }
  });
  const priceAt = (life: TokenLife, t: number): number =>
    life.launchPrice * multipleAt(life, t) * reactionFactor(reactions.get(life)!, t);

  const swaps: Swap[] = [];
  const addSwap = (wallet: string, life: TokenLife, type: 'buy' | 'sell', time: number, quantity: string): void => {
    const price = sig(priceAt(life, time) * rng.between(0.985, 1.015), 6);
    const liquidity = liquidityAt(life, time);
    const swap: Swap = { wallet, token: life.address, type, time, quantity, usd_price: price };
    if (rng.chance(0.85)) swap.usd_amount = new Decimal(quantity).times(price).toDecimalPlaces(2).toNumber() || 0.01;
    if (liquidity !== null) swap.usd_liquidity = rng.chance(0.04) ? null : Math.round(liquidity);
    swap.transaction_hash = p.addresses.txHash(rng);
    swaps.push(swap);
  };
  const marketSwap = (wallet: string, life: TokenLife, type: 'buy' | 'sell', t: number, usd: number): void =>
    addSwap(wallet, life, type, t, sig(usd / priceAt(life, t), 7));

  // Market data: many wallets trading every token from its launch to the end of the tape.
  const crowd = Array.from({ length: 60 }, () => p.addresses.wallet(rng));
  for (const life of lives) {
    for (let t = life.launch + rng.int(30, 300); t < end; ) {
      // Drawn in this order: the wallet, the side, the size.
      const wallet = rng.pick(crowd);
      const side = rng.chance(buyChance(life, t)) ? 'buy' : 'sell';
      marketSwap(wallet, life, side, t, p.marketUsd * (1 + 120 * rng.next() ** 3));
      t += Math.max(1, Math.round((HOUR / (swapsPerHour(life, t) * p.activity)) * rng.between(0.2, 1.8)));
    }
  }

  // The leaders' swaps, each followed by the crowd's burst: a swap every few seconds, most of
  // them on the leader's side, for the half minute in which the price moves.
  for (const { leader, life, intents } of plans) {
    let held = new Decimal(0);
    for (const intent of intents) {
      const price = priceAt(life, intent.time);
      const quantity =
        intent.type === 'buy'
          ? sig(intent.usd / price, 7)
          : intent.fraction === 1
            ? held.toFixed()
            : held.times(intent.fraction).toSignificantDigits(7).toFixed();
      if (new Decimal(quantity).lte(0)) continue;
      held = intent.type === 'buy' ? held.plus(quantity) : held.minus(quantity);
      addSwap(leader, life, intent.type, intent.time, quantity);
      const other = intent.type === 'buy' ? 'sell' : 'buy';
      for (let k = rng.int(5, 12), t = intent.time; k > 0; k--) {
        t += rng.int(1, 5);
        if (t >= end) break;
        const wallet = rng.pick(crowd);
        const side = rng.chance(0.85) ? intent.type : other;
        marketSwap(wallet, life, side, t, p.marketUsd * (1 + 30 * rng.next() ** 2));
      }
    }
  }

  // Swaps in time order (a stable sort keeps generation order on equal times).
  swaps.sort((a, b) => a.time - b.time);

  const native_prices: [number, number][] = [];
  let nativeUsd = p.nativeUsd;
  for (let t = start; t <= end; t += HOUR) {
    native_prices.push([t, Number(nativeUsd.toFixed(2))]);
    nativeUsd *= 1 + rng.between(-0.006, 0.006);
  }

  const toDate = new Date((windowStart + (p.days - 1) * 24 * HOUR) * 1000).toISOString().slice(0, 10);
  const fromDate = new Date(windowStart * 1000).toISOString().slice(0, 10);
  return { tape: { network, tokens, native_prices, swaps }, request: p.request(leaders, fromDate, toDate) };
}

/** Spells a tape as JSON with one swap and one native price a line: small, and readable in a diff. */
export function tapeJson(tape: Example['tape']): string {
  const lines = (items: readonly unknown[]): string => items.map((item) => `    ${JSON.stringify(item)}`).join(',\n');
  const tokens = Object.entries(tape.tokens).map(
    ([address, meta]) => `    ${JSON.stringify(address)}: ${JSON.stringify(meta)}`,
  );
  return [
    '{',
    `  "network": ${JSON.stringify(tape.network)},`,
    `  "tokens": {\n${tokens.join(',\n')}\n  },`,
    `  "native_prices": [\n${lines(tape.native_prices)}\n  ],`,
    `  "swaps": [\n${lines(tape.swaps)}\n  ]`,
    '}',
    '',
  ].join('\n');
}

/** The files of the example folder, by name. */
export function exampleFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const network of ['sol', 'eth'] as const) {
    const { tape, request } = makeExample(network);
    files[`tape-${network}.json`] = tapeJson(tape);
    files[`request-${network}.json`] = `${JSON.stringify(request, null, 2)}\n`;
  }
  return files;
}

function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

const USAGE = `Usage: npx tsc -p tsconfig.build.json && node dist/scripts/make-example.js [OUT_DIR]

Writes the bundled example's tapes and requests to OUT_DIR (default fixtures/example).`;

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runScript('make-example', USAGE, (argv) => {
    if (printedHelp(argv, USAGE)) return;
    const unknown = argv.find((arg) => arg.startsWith('-'));
    if (unknown !== undefined) throw new UsageError(`unknown option ${unknown}`);
    if (argv.length > 1) throw new UsageError(`one output folder at most, not ${argv.length} arguments`);
    const out = resolve(argv[0] ?? join(packageRoot(), 'fixtures', 'example'));
    mkdirSync(out, { recursive: true });
    for (const [name, text] of Object.entries(exampleFiles())) {
      writeFileSync(join(out, name), text);
      process.stdout.write(`wrote ${join(out, name)} (${text.length} bytes)\n`);
    }
  });
}
