import { parseArgs } from 'node:util';
import type { ApiKeyListing } from '../server/index.js';
import { EXIT_OK, formatJson, type CliIo } from './io.js';
import { UsageError } from './usage.js';

export const KEYS_HELP = `copysim keys SUBCOMMAND [flags] [--db FILE]

Manages the API keys of "copysim serve" and their credits, in the SQLite database FILE
(default: ./copysim.db). Keys are stored only as hashes: a new key is shown once.

  keys create --credits N [--label TEXT]   a new key with N credits; the key is printed alone
                                           on the last line
  keys list [--json]                       every key: id, prefix, credits, spent, status, label
  keys top-up --id ID --credits N          adds N (≥ 1) credits to key ID
  keys disable --id ID                     refuses key ID from now on (403 key_disabled)
  keys enable --id ID                      accepts key ID again

Credits: the simulator costs 10, the wallet list 5, every other operation 1; charged only
when the operation succeeds, with a ledger row per charge.`;

const SUBCOMMANDS = ['create', 'list', 'top-up', 'disable', 'enable'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

/** The flags each subcommand takes besides --db. */
const FLAGS: Readonly<Record<Subcommand, readonly string[]>> = {
  create: ['credits', 'label'],
  list: ['json'],
  'top-up': ['id', 'credits'],
  disable: ['id'],
  enable: ['id'],
};

function parseWhole(flag: string, value: string | undefined): number {
  if (value === undefined) throw new UsageError(`${flag} N is needed`);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag} must be a whole number, not "${value}"`);
  }
  return Number(value);
}

function formatList(keys: readonly ApiKeyListing[]): string {
  if (keys.length === 0) return 'no keys yet: create one with "copysim keys create --credits N"\n';
  const rows = [
    ['id', 'prefix', 'credits', 'spent', 'status', 'created (UTC)', 'label'],
    ...keys.map((k) => [
      String(k.id),
      `${k.prefix}…`,
      String(k.credits),
      String(k.spent),
      k.disabled ? 'disabled' : 'active',
      new Date(k.createdAt * 1000).toISOString().slice(0, 19).replace('T', ' '),
      k.label ?? '',
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return `${rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ').trimEnd()).join('\n')}\n`;
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
      db: { type: 'string', default: 'copysim.db' },
      credits: { type: 'string' },
      label: { type: 'string' },
      id: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const extra = Object.keys(values).filter((flag) => flag !== 'db' && flag !== 'json' && !FLAGS[sub as Subcommand].includes(flag));
  if (extra.length > 0 || (values.json && sub !== 'list')) {
    throw new UsageError(`keys ${sub} takes no --${extra[0] ?? 'json'}`);
  }
  // Loaded here, not at start-up: the service's packages are optional (src/server/service-dependencies.ts).
  const { KeyStore } = await import('../server/index.js');
  const store = KeyStore.open(values.db, { now: () => Math.floor(Date.now() / 1000) });
  try {
    switch (sub as Subcommand) {
      case 'create': {
        const { key, record } = store.create({ credits: parseWhole('--credits', values.credits), label: values.label ?? null });
        io.out(`key ${record.id} created with ${record.credits} credits in ${values.db}.\n`);
        io.out('Store it now: only its hash is kept, it cannot be shown again.\n');
        io.out(`${key}\n`);
        return EXIT_OK;
      }
      case 'list': {
        const keys = store.list();
        io.out(values.json ? formatJson(keys, true) : formatList(keys));
        return EXIT_OK;
      }
      case 'top-up': {
        const id = parseWhole('--id', values.id);
        const record = store.topUp(id, parseWhole('--credits', values.credits));
        io.out(`key ${record.id}: ${record.credits} credits\n`);
        return EXIT_OK;
      }
      case 'disable':
      case 'enable': {
        const record = store.setDisabled(parseWhole('--id', values.id), sub === 'disable');
        io.out(`key ${record.id}: ${record.disabled ? 'disabled' : 'active'}\n`);
        return EXIT_OK;
      }
    }
  } finally {
    store.close();
  }
}
