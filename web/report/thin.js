// Thinning for display (the same rule as src/report/html/thin.ts): of a long series, the points
// to draw so that it looks the same at the chart's width. The data are never changed.

/**
 * The indices to keep of a series with increasing `xs`, drawn `columns` wide: each of `columns`
 * equal spans of x keeps its lowest and highest point; the first and the last point are kept.
 */
export function minMaxIndices(xs, ys, columns) {
  const n = xs.length;
  if (n <= 2 * columns) return Array.from({ length: n }, (_, i) => i);
  const x0 = xs[0];
  const span = xs[n - 1] - x0;
  const kept = [0];
  let column = -1;
  let low = -1;
  let high = -1;
  const flush = () => {
    if (low < 0) return;
    const pair = low < high ? [low, high] : low > high ? [high, low] : [low];
    for (const i of pair) if (i !== kept[kept.length - 1] && i !== n - 1) kept.push(i);
  };
  for (let i = 1; i < n - 1; i++) {
    const c = span === 0 ? 0 : Math.min(columns - 1, Math.floor(((xs[i] - x0) / span) * columns));
    if (c !== column) {
      flush();
      column = c;
      low = high = i;
    } else {
      if (ys[i] < ys[low]) low = i;
      if (ys[i] > ys[high]) high = i;
    }
  }
  flush();
  kept.push(n - 1);
  return kept;
}

/** Thins several series over one x together: a point is kept when any series keeps it. */
export function thinTogether(xs, series, columns) {
  if (xs.length <= 2 * columns) return { xs, series };
  const keep = new Uint8Array(xs.length);
  for (const ys of series) for (const i of minMaxIndices(xs, ys, columns)) keep[i] = 1;
  const indices = [];
  for (let i = 0; i < keep.length; i++) if (keep[i]) indices.push(i);
  return { xs: indices.map((i) => xs[i]), series: series.map((ys) => indices.map((i) => ys[i])) };
}
