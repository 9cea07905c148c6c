/**
 * The DuckDB example of docs/columnar-tape.md runs as printed: its SQL through DuckDB's Node API
 * (as the duckdb command line would run it), its echo lines as files, its copysim lines through
 * the command line, in a temporary folder; the `cmp` line holds the responses equal.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { PROJECT_ROOT } from '../support/paths.js';

const doc = readFileSync(join(PROJECT_ROOT, 'docs', 'columnar-tape.md'), 'utf8');
const section = doc.slice(doc.indexOf('### Example: a DuckDB export'));
const script = /```sh\n([\s\S]*?)```/.exec(section)![1]!;

describe('the DuckDB example of docs/columnar-tape.md', () => {
  it('writes the Parquet file and simulates it to the JSON tape’s response', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'copysim-doc-duckdb-'));
    // A path of the script: the repository's fixtures, else a file of the temporary folder.
    const where = (name: string): string => (name.startsWith('fixtures/') ? join(PROJECT_ROOT, name) : join(dir, name));
    const sql = /^duckdb -c "([\s\S]*?)"$/m.exec(script)![1]!;
    const instance = await DuckDBInstance.create(':memory:');
    const db = await instance.connect();
    await db.run(sql.replace(/'([^']+\.(?:json|parquet))'/g, (_, name: string) => `'${where(name)}'`));
    db.closeSync();
    instance.closeSync();

    const lines = script
      .slice(script.indexOf('"\n', script.indexOf('duckdb -c')) + 2)
      .trim()
      .split('\n');
    expect(lines.length).toBe(5);
    for (const line of lines) {
      const echo = /^echo '(.*)' > (\S+)$/.exec(line);
      if (echo !== null) {
        writeFileSync(where(echo[2]!), echo[1]!);
        continue;
      }
      const [command, compared] = line.split(' | cmp - ');
      const [argv, output] = command!.split(' > ');
      const args = argv!.split(' ');
      expect(args[0]).toBe('copysim');
      const run = await cli(...args.slice(1).map((a) => (/^[\w./-]+\.(json|parquet)$/.test(a) ? where(a) : a)));
      // The worked example's warnings (pools of unknown liquidity) come on either tape.
      expect(run.code, `${line}\n${run.err}`).toBe(0);
      if (output !== undefined) writeFileSync(where(output), run.out);
      if (compared !== undefined) expect(run.out).toBe(readFileSync(where(compared), 'utf8'));
    }
    // The converted tape is copysim's: it needs no flag and gives the same response.
    const again = await cli(
      'simulate',
      '--tape',
      where('worked-tape.parquet'),
      '--request',
      where('fixtures/worked-example/request.json'),
    );
    expect(again.out).toBe(readFileSync(where('from-parquet.json'), 'utf8'));
  }, 30_000);
});
