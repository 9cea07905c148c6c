import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MODEL_CASES_DIR, present } from './paths.js';

/** The golden cases of `dir` (folders holding an `expected.json`), by name; none when it is absent. */
export function goldenCases(dir = MODEL_CASES_DIR): string[] {
  if (!present(dir)) return [];
  return readdirSync(dir)
    .filter((d) => present(join(dir, d, 'expected.json')))
    .sort();
}

/**
 * The comparison of ../shared/cases/README.md: same keys and list lengths, equal
 * strings, nulls and booleans, numbers within 1e-9 (relative or absolute, the looser), integers
 * stay integers, and the deal charts' rounded values within 1.
 */
export function compareGolden(expected: unknown, actual: unknown, path = ''): string[] {
  const problems: string[] = [];
  const inDealsChart = /cumulative_usd_(closed|open)_deals_chart\.values/.test(path);
  if (typeof expected === 'number') {
    if (typeof actual !== 'number') return [`${path}: expected number ${expected}, got ${JSON.stringify(actual)}`];
    const tolerance = inDealsChart ? 1 : Math.max(1e-9, 1e-9 * Math.abs(expected));
    if (Math.abs(expected - actual) > tolerance) problems.push(`${path}: expected ${expected}, got ${actual}`);
    if (Number.isInteger(expected) && !Number.isInteger(actual))
      problems.push(`${path}: expected an integer, got ${actual}`);
    return problems;
  }
  if (expected === null || typeof expected !== 'object') {
    if (expected !== actual)
      problems.push(`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    return problems;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: expected an array, got ${JSON.stringify(actual)}`];
    if (expected.length !== actual.length)
      problems.push(`${path}: expected ${expected.length} items, got ${actual.length}`);
    const n = Math.min(expected.length, actual.length);
    for (let i = 0; i < n; i++) problems.push(...compareGolden(expected[i], actual[i], `${path}[${i}]`));
    return problems;
  }
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
    return [`${path}: expected an object, got ${JSON.stringify(actual)}`];
  }
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  const keys = new Set([...Object.keys(e), ...Object.keys(a)]);
  for (const key of [...keys].sort()) {
    const sub = path ? `${path}.${key}` : key;
    if (!(key in e)) problems.push(`${sub}: unexpected key`);
    else if (!(key in a)) problems.push(`${sub}: missing`);
    else problems.push(...compareGolden(e[key], a[key], sub));
  }
  // Member order, where the models fix it (../shared/cases/README.md): the same keys in the same order.
  const order = Object.keys(e).join(',');
  if (problems.length === 0 && Object.keys(a).join(',') !== order)
    problems.push(`${path || 'body'}: members in the order ${Object.keys(a).join(', ')}, expected ${order}`);
  return problems;
}

/**
 * The member order that ../shared/cases/README.md asks for, where the models fix it: the top
 * level (`skipped_copies`, `leaders` and `copier` after the members of model 1.2, in this order),
 * `copier`, and each entry of `leaders` (the tables of copier-wallet.md section 7). Objects whose
 * keys differ are left to compareGolden.
 */
export function compareMemberOrder(expected: unknown, actual: unknown): string[] {
  const problems: string[] = [];
  const orderOf = (path: string, e: unknown, a: unknown): void => {
    if (e === null || typeof e !== 'object' || a === null || typeof a !== 'object') return;
    const want = Object.keys(e).join(', ');
    const got = Object.keys(a).join(', ');
    const sameMembers = [...Object.keys(e)].sort().join(', ') === [...Object.keys(a)].sort().join(', ');
    if (sameMembers && want !== got) {
      problems.push(`${path || '(top level)'}: members in the order ${got}, expected ${want}`);
    }
  };
  orderOf('', expected, actual);
  const isObject = (v: unknown): boolean => v !== null && typeof v === 'object';
  if (!isObject(expected) || !isObject(actual)) return problems;
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  orderOf('copier', e['copier'], a['copier']);
  if (Array.isArray(e['leaders']) && Array.isArray(a['leaders'])) {
    const n = Math.min(e['leaders'].length, a['leaders'].length);
    for (let i = 0; i < n; i++) orderOf(`leaders[${i}]`, e['leaders'][i], a['leaders'][i]);
  }
  return problems;
}
