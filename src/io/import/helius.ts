import { DecimalJs40 as Decimal } from '../../numeric/decimal.js';
import { InputError } from '../../model/errors.js';
import { rejectErrorResponse } from './export-rows.js';
import { optionName } from './option-names.js';
import { collector, type ProviderImportOptions } from './provider-options.js';
import { ProviderTimeReader } from './provider-time.js';
import type { TradeLeg } from './trade-collector.js';
import type { ImportResult } from './types.js';

const WSOL = 'So11111111111111111111111111111111111111112';
const LAMPORTS = new Decimal(1e9);

type Json = Record<string, unknown>;
interface RawAmount {
  readonly tokenAmount?: unknown;
  readonly decimals?: unknown;
}

function obj(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.map(obj).filter((v): v is Json => v !== null) : [];
}

/** A raw integer amount scaled by its decimals (`{tokenAmount: "18663358445", decimals: 6}` is 18663.358445). */
function scaled(raw: unknown): Decimal | null {
  const r = obj(raw) as RawAmount | null;
  if (r === null || !/^-?\d+$/.test(String(r.tokenAmount ?? '')) || typeof r.decimals !== 'number') return null;
  return new Decimal(String(r.tokenAmount)).div(new Decimal(10).pow(r.decimals));
}

/** One leg of `events.swap`: the native amount, else the token entries if they are of one mint. */
function eventLeg(native: unknown, tokens: unknown): TradeLeg | null {
  const n = obj(native);
  if (n !== null && n.amount !== undefined && n.amount !== null)
    return { address: WSOL, symbol: 'SOL', amount: new Decimal(String(n.amount)).div(LAMPORTS) };
  const entries = list(tokens);
  const mints = new Set(entries.map((e) => String(e.mint ?? '')));
  if (entries.length === 0 || mints.size !== 1) return null;
  let sum = new Decimal(0);
  for (const e of entries) {
    const amount = scaled(e.rawTokenAmount);
    if (amount === null) return null;
    sum = sum.plus(amount);
  }
  return { address: [...mints][0]!, amount: sum };
}

/**
 * The wallet's own balance changes (`accountData`): per mint, the changes of token accounts
 * the wallet owns, with native SOL and wrapped SOL as one asset (the network fee added back).
 * A swap is one asset down and one up.
 */
function balanceLegs(tx: Json, wallet: string): { sold: TradeLeg; bought: TradeLeg } | string {
  const delta = new Map<string, Decimal>();
  const add = (mint: string, amount: Decimal): void => {
    delta.set(mint, (delta.get(mint) ?? new Decimal(0)).plus(amount));
  };
  for (const account of list(tx.accountData)) {
    if (account.account === wallet && typeof account.nativeBalanceChange === 'number') {
      const fee = typeof tx.fee === 'number' && tx.feePayer === wallet ? tx.fee : 0;
      add(WSOL, new Decimal(account.nativeBalanceChange + fee).div(LAMPORTS));
    }
    for (const change of list(account.tokenBalanceChanges)) {
      if (change.userAccount !== wallet) continue;
      const amount = scaled(change.rawTokenAmount);
      if (amount !== null) add(String(change.mint), amount);
    }
  }
  const moved = [...delta].filter(([, d]) => !d.isZero());
  const down = moved.filter(([, d]) => d.isNeg());
  const up = moved.filter(([, d]) => d.isPos());
  if (down.length !== 1 || up.length !== 1)
    return `balance changes are not one asset for another (${down.length} down, ${up.length} up)`;
  return {
    sold: { address: down[0]![0], amount: down[0]![1].abs() },
    bought: { address: up[0]![0], amount: up[0]![1] },
  };
}

/**
 * Imports Helius enhanced transactions (a JSON list, as `/v0/transactions` and
 * `/v0/addresses/{address}/transactions` answer). A transaction of type `SWAP` is read from
 * `events.swap` (`nativeInput` / `tokenInputs` sold, `nativeOutput` / `tokenOutputs` bought);
 * when `events` is empty, or the type is `UNKNOWN`, from the wallet's own balance changes in
 * `accountData` (its SOL change with the fee added back, its token accounts' changes): one
 * asset down and one up is a swap. The wallet is `feePayer`, else the first account. Helius
 * gives no USD value: the SOL leg × `solUsd`, a USDC/USDT leg at one dollar. Failed
 * transactions and other types are dropped.
 *
 * @example
 * const { tape, report } = importHelius(JSON.parse(text), 'txs.json', { nativeUsd: solUsd });
 */
export function importHelius(json: unknown, file: string, options: ProviderImportOptions = {}): ImportResult {
  rejectErrorResponse(json, file);
  const txs: unknown[] | null = Array.isArray(json) ? json : obj(json)?.signature !== undefined ? [json] : null;
  if (txs === null)
    throw new InputError(
      `${file}: expected a list of Helius enhanced transactions (objects with signature, type, accountData)`,
      { source: file },
    );
  if (options.network === 'eth') {
    const network = optionName('network');
    throw new InputError(`${file}: Helius transactions are Solana's: ${network} must be sol`, { source: file });
  }
  const trades = collector('sol', options);
  const times = new ProviderTimeReader();
  let fromBalances = 0;
  txs.forEach((value, index) => {
    const tx = obj(value);
    const where = `${file} [${index}]`;
    if (tx === null) return trades.drop('not a transaction object', where);
    const signature = typeof tx.signature === 'string' ? tx.signature : null;
    const at = `${where}${signature ? ` ${signature.slice(0, 12)}…` : ''}`;
    if (tx.transactionError !== undefined && tx.transactionError !== null)
      return trades.drop('failed transaction (transactionError)', at);
    const type = String(tx.type ?? '');
    if (type !== 'SWAP' && type !== 'UNKNOWN') return trades.drop(`type ${type || '(none)'} is not a swap`, at);
    const swap = obj(obj(tx.events)?.swap);
    const wallet = typeof tx.feePayer === 'string' ? tx.feePayer : String(list(tx.accountData)[0]?.account ?? '');
    let legs: { sold: TradeLeg; bought: TradeLeg } | string;
    if (type === 'SWAP' && swap !== null) {
      const sold = eventLeg(swap.nativeInput, swap.tokenInputs);
      const bought = eventLeg(swap.nativeOutput, swap.tokenOutputs);
      legs = sold && bought ? { sold, bought } : 'events.swap is not one asset for another';
    } else {
      legs = balanceLegs(tx, wallet);
      if (typeof legs !== 'string') fromBalances++;
    }
    if (typeof legs === 'string') return trades.drop(legs, at);
    trades.add({
      wallet,
      ...legs,
      time: tx.timestamp === undefined ? null : times.read(tx.timestamp),
      usd: null,
      hash: signature,
      seq: [typeof tx.slot === 'number' ? tx.slot : 0, index],
      where: at,
    });
  });
  return trades.finish('helius', file, [
    `${fromBalances} swaps read from balance changes (accountData)` +
      `: their SOL amount includes any account rent the wallet paid`,
  ]);
}
