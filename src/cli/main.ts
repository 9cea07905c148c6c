#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CopysimError } from '../model/errors.js';
import { renameOptions } from '../io/import/option-names.js';
import { closestName } from '../model/names.js';

/** The library's options that library errors name (in backticks), and the flags the commands take them as. */
const OPTION_FLAGS: Readonly<Record<string, string>> = {
  nativePrices: '--native-prices, --sol-usd or --eth-usd FILE (copysim import)',
  queue: '--queue',
  network: '--network',
  tokens: '--tokens',
};
import { EXIT_INPUT, processIo, type CliIo } from './io.js';
import { needsReplayFlags, restartWithReplayFlags } from './node-flags.js';
import { isUsageError } from './usage.js';
import { startSimulateThreads } from './early-threads.js';

interface LoadedCommand {
  readonly help: string;
  readonly run: (args: string[], io: CliIo) => number | Promise<number>;
}

/**
 * A command: its one-line summary, and its module loaded only when it runs, so that a command
 * starts without loading every other one (the server, the report, the importers).
 */
interface Command {
  readonly summary: string;
  readonly load: () => Promise<LoadedCommand>;
  /** Work started before the module loads, from the command's arguments (its reading threads). */
  readonly early?: (args: readonly string[]) => void;
}

export const COMMANDS: Record<string, Command> = {
  simulate: {
    summary: 'replay a tape for a simulator request, print the response JSON',
    load: () => import('./simulate-command.js').then((m) => ({ help: m.SIMULATE_HELP, run: m.simulateCommand })),
    early: startSimulateThreads,
  },
  sweep: {
    summary: 'run many simulator requests over one tape, on worker threads',
    load: () => import('./sweep-command.js').then((m) => ({ help: m.SWEEP_HELP, run: m.sweepCommand })),
  },
  worker: {
    summary: 'run the jobs of sweeps and ranks spread over machines (sweep|rank --queue), from Redis',
    load: () => import('./worker-command.js').then((m) => ({ help: m.WORKER_HELP, run: m.workerCommand })),
  },
  report: {
    summary: 'draw a simulator response as an HTML report that opens offline',
    load: () => import('./report-command.js').then((m) => ({ help: m.REPORT_HELP, run: m.reportCommand })),
  },
  latency: {
    summary: 'the PnL a copier keeps at each copy delay (the latency curve)',
    load: () => import('./latency-command.js').then((m) => ({ help: m.LATENCY_HELP, run: m.latencyCommand })),
  },
  rank: {
    summary: 'every wallet ranked by what copying it alone would have made',
    load: () => import('./rank-command.js').then((m) => ({ help: m.RANK_HELP, run: m.rankCommand })),
  },
  import: {
    summary: 'turn real swap data (Dune, Flipside, Helius, Birdeye, Uniswap, PumpSwap, CSV) into a tape',
    load: () => import('./import-command.js').then((m) => ({ help: m.IMPORT_HELP, run: m.importCommand })),
  },
  convert: {
    summary: 'convert a tape between JSON, JSONL and Parquet',
    load: () => import('./convert-command.js').then((m) => ({ help: m.CONVERT_HELP, run: m.convertCommand })),
  },
  wallet: {
    summary: "a wallet's deals, indicators, PnL and investment charts",
    load: () => import('./wallet-command.js').then((m) => ({ help: m.WALLET_HELP, run: m.walletCommand })),
  },
  wallets: {
    summary: 'the list of wallets with their indicators',
    load: () => import('./wallets-command.js').then((m) => ({ help: m.WALLETS_HELP, run: m.walletsCommand })),
  },
  follow: {
    summary: 'paper trading: run a request on a live feed of swaps, crash-safe, equal to the backtest',
    load: () => import('./follow-command.js').then((m) => ({ help: m.FOLLOW_HELP, run: m.followCommand })),
  },
  serve: {
    summary: 'serve the HTTP interface with API keys and credits',
    load: () => import('./serve-command.js').then((m) => ({ help: m.SERVE_HELP, run: m.serveCommand })),
  },
  keys: {
    summary: 'create, list, top up and disable API keys',
    load: () => import('./keys-command.js').then((m) => ({ help: m.KEYS_HELP, run: m.keysCommand })),
  },
  example: {
    summary: 'run the bundled example and print a readable report (npm start)',
    load: () => import('./example-command.js').then((m) => ({ help: m.EXAMPLE_HELP, run: m.exampleCommand })),
  },
};

export function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `copysim: a deterministic copy-trade simulator over swap tapes

Usage: copysim COMMAND [flags]

Commands:
${lines.join('\n')}

Run "copysim COMMAND --help" for a command's flags.`;
}

/** Runs the command line with `argv` (without node and the script); returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? args[0] : undefined;
    const described = topic !== undefined ? COMMANDS[topic] : undefined;
    io.out(`${described !== undefined ? (await described.load()).help : mainHelp()}\n`);
    return 0;
  }
  const entry = COMMANDS[name];
  if (entry === undefined) {
    const near = closestName(name, Object.keys(COMMANDS));
    io.err(`copysim: unknown command "${name}"${near === null ? '' : `: did you mean "${near}"?`}\n\n${mainHelp()}\n`);
    return EXIT_INPUT;
  }
  const asksHelp = args.includes('--help') || args.includes('-h');
  if (!asksHelp) entry.early?.(args);
  const command = await entry.load();
  if (asksHelp) {
    io.out(`${command.help}\n`);
    return 0;
  }
  try {
    return await command.run(args, io);
  } catch (e) {
    if (e instanceof CopysimError) {
      io.err(`copysim ${name}: ${renameOptions(e.message, (option) => OPTION_FLAGS[option])}\n`);
      return EXIT_INPUT;
    }
    if (isUsageError(e)) {
      io.err(`copysim ${name}: ${withSuggestion((e as Error).message, command.help)}\n\n${command.help}\n`);
      return EXIT_INPUT;
    }
    throw e;
  }
}

/**
 * A usage error's message, with the closest flag of the command's help when it names an unknown
 * one (`--htm` → did you mean "--html"?), as request members are suggested.
 */
function withSuggestion(message: string, help: string): string {
  const unknown = /Unknown option '(--[\w-]+)'/.exec(message)?.[1];
  if (unknown === undefined) return message;
  const flags = [...new Set(help.match(/--[a-z][a-z-]*/g) ?? [])];
  const near = closestName(unknown, flags);
  return near === null ? message : `${message}: did you mean "${near}"?`;
}

function isMain(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain() && needsReplayFlags(process.argv.slice(2), process.execArgv, process.env.NODE_OPTIONS)) {
  restartWithReplayFlags(fileURLToPath(import.meta.url), process.argv.slice(2));
} else if (isMain()) {
  // A reader that stops early (`copysim simulate … | head`) is not an error of ours.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  runCli(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`copysim: internal error: ${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = 70;
    },
  );
}
