import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../../model/errors.js';

/**
 * The browser side of the report: plain ES modules in `web/report/` at the package's root
 * (shipped with it, served as they are by `copysim serve`), and uPlot's browser build from
 * node_modules. Both are read at run time, so a report is built with no bundler.
 */

/** The report's modules in dependency order: each imports only from those before it. */
export const REPORT_MODULES = [
  'format.js',
  'thin.js',
  'parts.js',
  'charts.js',
  'strategy-text.js',
  'copier-panel.js',
  'deals-table.js',
  'deal-panel.js',
  'grids.js',
  'report.js',
] as const;

/** The folder `web/` of the package, found from this module's own location (from src/ and dist/). */
export function webDir(): string {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'web', 'report', 'report.js'))) return join(dir, 'web');
    if (dirname(dir) === dir)
      throw new InputError(`the report's page files are missing: no web/report/report.js above ${start}`, {
        source: 'web',
      });
  }
}

const require = createRequire(import.meta.url);

/** uPlot's browser build (it defines the global `uPlot`) and its style sheet. */
export function uplotFiles(): { readonly script: string; readonly css: string } {
  const dist = dirname(require.resolve('uplot/dist/uPlot.iife.min.js'));
  return {
    script: readFileSync(join(dist, 'uPlot.iife.min.js'), 'utf8'),
    css: readFileSync(join(dist, 'uPlot.min.css'), 'utf8'),
  };
}

/**
 * The report's modules as one module script: the files in order, their imports of each other
 * removed (everything then shares one scope). A file may import only from `./NAME.js`, one
 * import a line: anything else is refused here rather than left to fail in a browser.
 */
export function reportScript(): string {
  const dir = join(webDir(), 'report');
  return REPORT_MODULES.map((name) => {
    const text = readFileSync(join(dir, name), 'utf8');
    const lines = text.split('\n').filter((line) => {
      if (!line.startsWith('import ')) return true;
      if (!/^import \{[^}]*\} from '\.\/[\w-]+\.js';$/.test(line)) {
        throw new InputError(`web/report/${name}: an import the report cannot inline: ${line}`, { source: name });
      }
      return false;
    });
    return `// web/report/${name}\n${lines.join('\n')}`;
  }).join('\n');
}

/** The report's style sheet. */
export function reportCss(): string {
  return readFileSync(join(webDir(), 'report', 'report.css'), 'utf8');
}
