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
  // JSON inside <script>: "<" escaped, so no "</script>" or "<!--" in a value can end the block.
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
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
<script type="application/json" id="report-data">${json}</script>
<script>${uplot.script}</script>
<script type="module">
${script}
renderReport(document.getElementById('report'), JSON.parse(document.getElementById('report-data').textContent));
</script>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
