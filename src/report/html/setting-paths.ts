/**
 * The settings of many requests side by side: each request flattened to its leaves
 * (`buy_percentage`, `strategy.copy_delay_seconds`, `inactivity_time_fix.hours`), and the leaves
 * whose values differ between requests, the axes a sweep's picture is drawn over.
 */

/** A request's leaves by dotted path; arrays (wallets, take-profit ladders) stay whole, as JSON text. */
export function settingLeaves(value: unknown, prefix = ''): Record<string, string | number | boolean | null> {
  const leaves: Record<string, string | number | boolean | null> = {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    leaves[prefix] = Array.isArray(value) ? JSON.stringify(value) : (value as string | number | boolean | null);
    return leaves;
  }
  for (const [key, inner] of Object.entries(value))
    Object.assign(leaves, settingLeaves(inner, prefix === '' ? key : `${prefix}.${key}`));
  return leaves;
}

/**
 * The paths whose value is not the same in every request, in the order they first appear. A
 * path missing from some requests varies (missing stands for the default, which may differ).
 *
 * @example
 * varyingPaths([{ a: 1, b: { c: 2 } }, { a: 1, b: { c: 3 } }]); // ['b.c']
 */
export function varyingPaths(requests: readonly unknown[]): string[] {
  const flat = requests.map((r) => settingLeaves(r));
  const paths = [...new Set(flat.flatMap((leaves) => Object.keys(leaves)))];
  return paths.filter(
    (path) => new Set(flat.map((leaves) => (path in leaves ? JSON.stringify(leaves[path]) : 'missing'))).size > 1,
  );
}
