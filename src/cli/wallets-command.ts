import { parseArgs } from 'node:util';
import { listWallets } from '../analytics/index.js';
import { EXIT_OK, type CliIo } from './io.js';
import { INDEX_FLAGS, loadIndex, printResult, printWarnings } from './wallet-command.js';

export const WALLETS_HELP =
  `copysim wallets --tape TAPE [--page N]` +
  ` [--sort-by [following.]INDICATOR[:PERIOD]] [--order asc|desc]
                [--min-deals N] [--network sol|eth] [--now T] [--pretty]

Prints the result payload of the wallets list (interface 4.6) as JSON: every wallet with at
least one deal, 30 a page, each with its indicator map.

  --page N              page, from 1 (default 1)
  --sort-by KEY[:P]     sort by indicator KEY over period P, the wallets' own values; KEY one
                        of pnl_realized, pnl_unrealized, pnl_total, roi_realized, roi_total,
                        winrate, deals_number, trading_volume, investment_amount; P one of
                        12h, 24h, 7d, 1m, 1y, all (default pnl_total:1m); ties by address.
                        following.KEY[:P] sorts by the follower's values (what copying each
                        wallet alone would have made), computed 500 wallets to a walk of the tape
  --order asc|desc      sort order (default desc)
  --min-deals N         only wallets with at least N deals in all (default 1)
  --network sol|eth     when given, must be the tape's network
  --tape FILE           the tape: JSON, JSONL (.jsonl) or Parquet (.parquet)
  --now T               the analytics' now, seconds (default: the tape's last swap)
  --options FILE        engine options JSON for the follower (as for simulate)
  --copy-settings FILE  the follower's copy settings JSON (defaults: docs/analytics.md)
  --pretty              indent the JSON output
  --tokens FILE         for a Parquet tape another program wrote (no copysim header in it): its
  --native-prices FILE  tokens and native prices, as copysim simulate takes them; --network then
                        names its network too (see docs/columnar-tape.md)

Exit codes: 0 the result on standard output; 2 an invalid body (the 400 body {"code","detail"}
on standard output); 1 the tape or a file cannot be used (a message on standard error).`;

/**
 * "pnl_total:7d" → { indicator: "pnl_total", period: "7d" }; "winrate" → { indicator: "winrate" };
 * "following.roi_total:1m" → { indicator: "roi_total", period: "1m", value: "following" }.
 */
function sortBy(text: string): { indicator: string; period?: string; value?: string } {
  const dot = text.indexOf('.');
  const value = dot < 0 ? undefined : text.slice(0, dot);
  const rest = dot < 0 ? text : text.slice(dot + 1);
  const colon = rest.indexOf(':');
  const key = colon < 0 ? { indicator: rest } : { indicator: rest.slice(0, colon), period: rest.slice(colon + 1) };
  return value === undefined ? key : { ...key, value };
}

export function walletsCommand(args: string[], io: CliIo): number {
  const { values } = parseArgs({
    args,
    options: {
      ...INDEX_FLAGS,
      page: { type: 'string' },
      'sort-by': { type: 'string' },
      order: { type: 'string' },
      'min-deals': { type: 'string' },
      network: { type: 'string' },
    },
    strict: true,
  });
  const body: Record<string, unknown> = {};
  if (values.page !== undefined) body.page = values.page;
  if (values['sort-by'] !== undefined) body.sort_by = sortBy(values['sort-by']);
  if (values.order !== undefined) body.order = values.order;
  if (values['min-deals'] !== undefined) body.min_deals = values['min-deals'];
  if (values.network !== undefined) body.network = values.network;
  const index = loadIndex('wallets', values);
  const code = printResult(io, values.pretty, () => listWallets(index, body));
  if (code === EXIT_OK) printWarnings(io, 'wallets', index);
  return code;
}
