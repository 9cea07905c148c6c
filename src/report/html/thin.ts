/**
 * Thinning for display: which points of a long series to draw so that, at a given width, the
 * drawing looks the same as with every point. The series itself is never changed: the kept
 * points are original points, picked by index.
 */

/**
 * The indices to keep of a series with increasing `xs`, drawn `columns` wide: the x range is cut
 * into `columns` equal spans and each span keeps its lowest and highest point (in x order), so
 * every spike and dip survives. The first and the last point are always kept. A series of at
 * most `2 × columns` points is kept whole.
 *
 * @example
 * // Two spans of x: 1 to 4 keeps y=9 (index 3) and y=1 (index 4); 5 to 8 keeps y=2 and y=8.
 * minMaxIndices([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [0, 5, 3, 9, 1, 2, 8, 4, 6, 7], 2); // [0, 3, 4, 5, 6, 9]
 */
export function minMaxIndices(xs: ArrayLike<number>, ys: ArrayLike<number>, columns: number): number[] {
  const n = xs.length;
  if (n <= 2 * columns) return Array.from({ length: n }, (_, i) => i);
  const x0 = xs[0]!;
  const span = xs[n - 1]! - x0;
  const kept: number[] = [0];
  let column = -1;
  let low = -1;
  let high = -1;
  const flush = (): void => {
    if (low < 0) return;
    const pair = low < high ? [low, high] : low > high ? [high, low] : [low];
    for (const i of pair) if (i !== kept[kept.length - 1] && i !== n - 1) kept.push(i);
  };
  for (let i = 1; i < n - 1; i++) {
    const c = span === 0 ? 0 : Math.min(columns - 1, Math.floor(((xs[i]! - x0) / span) * columns));
    if (c !== column) {
      flush();
      column = c;
      low = high = i;
    } else {
      if (ys[i]! < ys[low]!) low = i;
      if (ys[i]! > ys[high]!) high = i;
    }
  }
  flush();
  kept.push(n - 1);
  return kept;
}
