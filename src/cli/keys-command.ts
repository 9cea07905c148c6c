import { parseArgs } from 'node:util';
import type { ApiKeyListing } from '../server/index.js';
import { formatRate, parseRate, type RateLimit } from '../server/rate-limit/rate.js';
import { EXIT_OK, formatJson, type CliIo } from './io.js';
import { UsageError } from './usage.js';

export const KEYS_HELP = `copysim keys SUBCOMMAND [flags] [--db FILE|URL]

Manages the API keys of "copysim serve" and their credits, in its key database: a SQLite FILE,
or a PostgreSQL URL (postgres://USER@HOST:PORT/DB) that several servers share. Default: the
COPYSIM_DB environment variable, else ./copysim.db. Keys are stored only as hashes: a new key
is shown once.

  keys create --credits N [--label TEXT] [--rate R]
                                           a new key with N credits; the key is printed alone
                                           on the last line
  keys list [--json]                       every key: id, prefix, credits, spent, status, rate,
                                           created, label
  keys top-up --id ID --credits N          adds N (≥ 1) credits to key ID
  keys set --id ID --rate R                sets the rate limit of key ID ("default": the server's)
  keys disable --id ID                     refuses key ID from now on (403 key_disabled)
  keys enable --id ID                      accepts key ID again

Rates (R): "10/s", "600/min", both as "10/s,600/min", or "unlimited". A key without its own
rate has the default of "copysim serve --rate" (none unless given); a request over it gets 429
and costs nothing.

Credits: the simulator costs 10, the wallet list 5, every other operation 1; charged only
when the operation succeeds, with a ledger row per charge.`;

const SUBCOMMANDS = ['create', 'list', 'top-up', 'set', 'disable', 'enable'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

/** The flags each subcommand takes besides --db. */
const FLAGS: Readonly<Record<Subcommand, readonly string[]>> = {
  create: ['credits', 'label', 'rate'],
  list: ['json'],
  'top-up': ['id', 'credits'],
  set: ['id', 'rate'],
  disable: ['id'],
  enable: ['id'],
};

/** The key database: --db, else COPYSIM_DB, else ./copysim.db. */
export function keyDatabase(flag: string | undefined): string {
  const fromEnv = process.env.COPYSIM_DB;
  return flag ?? (fromEnv !== undefined && fromEnv !== '' ? fromEnv : 'copysim.db');
}

function parseWhole(flag: string, value: string | undefined): number {
  if (value === undefined) throw new UsageError(`${flag} N is needed`);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag} must be a whole number, not "${value}"`);
  }
  return Number(value);
}

/** `--rate R`: a rate, or null for "default" when `allowDefault`. */
function parseRateFlag(value: string | undefined, allowDefault: boolean): RateLimit | null {
  if (value === undefined) throw new UsageError('--rate R is needed');
  if (allowDefault && value.trim() === 'default') return null;
  return parseRate(value, '--rate');
}

function formatList(keys: readonly ApiKeyListing[]): string {
  if (keys.length === 0) return 'no keys yet: create one with "copysim keys create --credits N"\n';
  const rows = [
    ['id', 'prefix', 'credits', 'spent', 'status', 'rate', 'created (UTC)', 'label'],
    ...keys.map((k) => [
      String(k.id),
      `${k.prefix}…`,
      String(k.credits),
      String(k.spent),
      k.disabled ? 'disabled' : 'active',
      k.rate === null ? 'default' : formatRate(k.rate),
      new Date(k.createdAt * 1000).toISOString().slice(0, 19).replace('T', ' '),
      k.label ?? '',
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return `${rows
    .map((r) =>
      r
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

export async function keysCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub.startsWith('-')) {
    throw new UsageError(`keys needs a subcommand first: ${SUBCOMMANDS.join(', ')}`);
  }
  if (!SUBCOMMANDS.includes(sub as Subcommand)) throw new UsageError(`unknown keys subcommand "${sub}"`);
  const { values } = parseArgs({
    args: rest,
    options: {
      db: { type: 'string' },
      credits: { type: 'string' },
      label: { type: 'string' },
      id: { type: 'string' },
      rate: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const extra = Object.keys(values).filter(
    (flag) => flag !== 'db' && flag !== 'json' && !FLAGS[sub as Subcommand].includes(flag),
  );
  if (extra.length > 0 || (values.json && sub !== 'list')) {
    throw new UsageError(`keys ${sub} takes no --${extra[0] ?? 'json'}`);
  }
  // Loaded here, not at start-up: the service's packages are optional (src/server/service-dependencies.ts).
  const { openLedger, shownDatabase } = await import('../server/index.js');
  const db = keyDatabase(values.db);
  const ledger = await openLedger(db, { now: () => Math.floor(Date.now() / 1000) });
  try {
    switch (sub as Subcommand) {
      case 'create': {
        const credits = parseWhole('--credits', values.credits);
        const rate = values.rate === undefined ? null : parseRateFlag(values.rate, false);
        const { key, record } = await ledger.create({ credits, label: values.label ?? null, rate });
        io.out(`key ${record.id} created with ${record.credits} credits in ${shownDatabase(db)}.\n`);
        io.out('Store it now: only its hash is kept, it cannot be shown again.\n');
        io.out(`${key}\n`);
        return EXIT_OK;
      }
      case 'list': {
        const keys = await ledger.list();
        io.out(values.json ? formatJson(keys, true) : formatList(keys));
        return EXIT_OK;
      }
      case 'top-up': {
        const id = parseWhole('--id', values.id);
        const record = await ledger.topUp(id, parseWhole('--credits', values.credits));
        io.out(`key ${record.id}: ${record.credits} credits\n`);
        return EXIT_OK;
      }
      case 'set': {
        const id = parseWhole('--id', values.id);
        const record = await ledger.setRate(id, parseRateFlag(values.rate, true));
        io.out(`key ${record.id}: rate ${record.rate === null ? 'default' : formatRate(record.rate)}\n`);
        return EXIT_OK;
      }
      case 'disable':
      case 'enable': {
        const record = await ledger.setDisabled(parseWhole('--id', values.id), sub === 'disable');
        io.out(`key ${record.id}: ${record.disabled ? 'disabled' : 'active'}\n`);
        return EXIT_OK;
      }
    }
  } finally {
    await ledger.close();
  }
}
