import { gzipSync } from 'node:zlib';
import { reportCss, reportScript, uplotFiles } from './assets.js';

/**
 * One self-contained HTML page: uPlot, the report's modules and its data inlined, nothing
 * fetched, so the file opens offline from a disk or an e-mail. `data` is any report data the
 * page's `renderReport` knows (its `kind` says which); each of `parts` is a member of it that
 * the page decodes only when it first needs it (a deal's trades: when a deal is opened).
 */
export function htmlPage(
  title: string,
  data: { readonly kind: string },
  parts: Readonly<Record<string, unknown>> = {},
): string {
  const uplot = uplotFiles();
  const script = reportScript();
  for (const [name, text] of [
    ['uPlot', uplot.script],
    ['the report script', script],
  ] as const) {
    if (/<\/script/i.test(text)) throw new Error(`${name} contains "</script" and cannot be inlined`);
  }
  // The data as gzip in base64: a fifth of the JSON's size (a million-swap tape's report is 14 MB
  // instead of 36), every value exact; the browser inflates it with DecompressionStream. Base64
  // holds no "<", so nothing in the data can end the script block. Node's gzip writes no time
  // in its header: the same data give the same bytes.
  const main = packedBlocks('main', { ...data, parts: Object.keys(parts) });
  const apart = Object.entries(parts).flatMap(([name, value]) => packedBlocks(name, value));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
${uplot.css}
${reportCss()}
</style>
</head>
<body>
<main id="report"></main>
${main.join('\n')}
${apart.join('\n')}
<script>${uplot.script}</script>
<script type="module">
${script}
renderReport(document.getElementById('report'), await embeddedData(document));
// When the page was drawn, in ms since navigation began: tests and the benchmark wait for it.
document.documentElement.dataset.renderedMs = String(Math.round(performance.now()));
</script>
</body>
</html>
`;
}

/**
 * `value` as JSON, gzipped, in base64, in script blocks of 64 KiB: chromium parses a page with
 * one 16 MB block in 2.3 s and the same text in 64 KiB blocks in 0.8 s (a million-swap report,
 * on this project's 2-core test machine).
 */
function packedBlocks(name: string, value: unknown): string[] {
  const base64 = gzipSync(JSON.stringify(value), { level: 9 }).toString('base64');
  const blocks: string[] = [];
  for (let at = 0; at < base64.length || at === 0; at += BLOCK_CHARS) {
    blocks.push(
      `<script type="application/octet-stream" data-part="${name}">${base64.slice(at, at + BLOCK_CHARS)}</script>`,
    );
  }
  return blocks;
}

const BLOCK_CHARS = 64 * 1024;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
