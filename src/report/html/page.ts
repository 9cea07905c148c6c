import { gzipSync } from 'node:zlib';
import { reportCss, reportScript, uplotFiles } from './assets.js';

/**
 * One self-contained HTML page: uPlot, the report's modules and its data inlined, nothing
 * fetched, so the file opens offline from a disk or an e-mail. `data` is any report data the
 * page's `renderReport` knows (its `kind` says which).
 */
export function htmlPage(title: string, data: { readonly kind: string }): string {
  const uplot = uplotFiles();
  const script = reportScript();
  for (const [name, text] of [['uPlot', uplot.script], ['the report script', script]] as const) {
    if (/<\/script/i.test(text)) throw new Error(`${name} contains "</script" and cannot be inlined`);
  }
  // The data as gzip in base64: a fifth of the JSON's size (a million-swap tape's report is 14 MB
  // instead of 36), every value exact; the browser inflates it with DecompressionStream. Base64
  // holds no "<", so nothing in the data can end the script block. Node's gzip writes no time
  // in its header: the same data give the same bytes.
  const packed = gzipSync(JSON.stringify(data), { level: 9 }).toString('base64');
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
<script type="application/octet-stream" id="report-data" data-encoding="gzip+base64">${packed}</script>
<script>${uplot.script}</script>
<script type="module">
${script}
renderReport(document.getElementById('report'), await embeddedData(document.getElementById('report-data')));
// When the page was drawn, in ms since navigation began: tests and the benchmark wait for it.
document.documentElement.dataset.renderedMs = String(Math.round(performance.now()));
</script>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
