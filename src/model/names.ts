/**
 * Names close to a misspelled one, for the suggestions of errors ("did you mean …?"): a module of
 * its own without schemas, so that the command line loads it without zod.
 */

/**
 * The name of `names` that `key` most likely misspells: the same letters once case and `_`/`-`
 * are set aside (`closeAll` for `close_all`); else the only name that begins with them
 * (`stop_loss` for `stop_loss_percent`); else the nearest within an edit distance of a third of
 * its length; null when none is that close.
 */
export function closestName(key: string, names: readonly string[]): string | null {
  const fold = (s: string): string => s.toLowerCase().replace(/[_-]/g, '');
  const folded = names.find((name) => fold(name) === fold(key));
  if (folded !== undefined) return folded;
  const extended = fold(key).length >= 4 ? names.filter((name) => fold(name).startsWith(fold(key))) : [];
  if (extended.length === 1) return extended[0]!;
  let best: string | null = null;
  let bestDistance = Math.max(1, Math.floor(key.length / 3)) + 1;
  for (const name of names) {
    const d = editDistance(fold(key), fold(name));
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance (insertions, deletions, substitutions). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
