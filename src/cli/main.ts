#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CopysimError } from '../model/errors.js';
import { EXIT_INPUT, processIo, type CliIo } from './io.js';
import { convertCommand, CONVERT_HELP } from './convert-command.js';
import { exampleCommand, EXAMPLE_HELP } from './example-command.js';
import { importCommand, IMPORT_HELP } from './import-command.js';
import { keysCommand, KEYS_HELP } from './keys-command.js';
import { latencyCommand, LATENCY_HELP } from './latency-command.js';
import { rankCommand, RANK_HELP } from './rank-command.js';
import { reportCommand, REPORT_HELP } from './report-command.js';
import { needsReplayFlags, restartWithReplayFlags } from './node-flags.js';
import { serveCommand, SERVE_HELP } from './serve-command.js';
import { simulateCommand, SIMULATE_HELP } from './simulate-command.js';
import { sweepCommand, SWEEP_HELP } from './sweep-command.js';
import { walletCommand, WALLET_HELP } from './wallet-command.js';
import { walletsCommand, WALLETS_HELP } from './wallets-command.js';
import { workerCommand, WORKER_HELP } from './worker-command.js';
import { isUsageError } from './usage.js';

interface Command {
  readonly summary: string;
  readonly help: string;
  readonly run: (args: string[], io: CliIo) => number | Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  simulate: { summary: 'replay a tape for a simulator request, print the response JSON', help: SIMULATE_HELP, run: simulateCommand },
  sweep: { summary: 'run many simulator requests over one tape, on worker threads', help: SWEEP_HELP, run: sweepCommand },
  worker: { summary: 'run the jobs of sweeps and ranks spread over machines (sweep|rank --queue), from Redis', help: WORKER_HELP, run: workerCommand },
  report: { summary: 'draw a simulator response as an HTML report that opens offline', help: REPORT_HELP, run: reportCommand },
  latency: { summary: 'the PnL a copier keeps at each copy delay (the latency curve)', help: LATENCY_HELP, run: latencyCommand },
  rank: { summary: 'every wallet ranked by what copying it alone would have made', help: RANK_HELP, run: rankCommand },
  import: { summary: 'turn real swap data (Dune, Flipside, Helius, Birdeye, Uniswap, PumpSwap, CSV) into a tape', help: IMPORT_HELP, run: importCommand },
  convert: { summary: 'convert a tape between JSON, JSONL and Parquet', help: CONVERT_HELP, run: convertCommand },
  wallet: { summary: "a wallet's deals, indicators, PnL and investment charts", help: WALLET_HELP, run: walletCommand },
  wallets: { summary: 'the list of wallets with their indicators', help: WALLETS_HELP, run: walletsCommand },
  serve: { summary: 'serve the HTTP interface with API keys and credits', help: SERVE_HELP, run: serveCommand },
  keys: { summary: 'create, list, top up and disable API keys', help: KEYS_HELP, run: keysCommand },
  example: { summary: 'run the bundled example and print a readable report (npm start)', help: EXAMPLE_HELP, run: exampleCommand },
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
    io.out(`${topic !== undefined && COMMANDS[topic] ? COMMANDS[topic].help : mainHelp()}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    io.err(`copysim: unknown command "${name}"\n\n${mainHelp()}\n`);
    return EXIT_INPUT;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.out(`${command.help}\n`);
    return 0;
  }
  try {
    return await command.run(args, io);
  } catch (e) {
    if (e instanceof CopysimError) {
      io.err(`copysim ${name}: ${e.message}\n`);
      return EXIT_INPUT;
    }
    if (isUsageError(e)) {
      io.err(`copysim ${name}: ${(e as Error).message}\n\n${command.help}\n`);
      return EXIT_INPUT;
    }
    throw e;
  }
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
