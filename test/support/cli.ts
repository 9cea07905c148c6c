import { runCli } from '../../src/cli/main.js';

/** Runs the command line in-process and captures what it prints. */
export async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t), errIsTty: false });
  return { code, out, err };
}
