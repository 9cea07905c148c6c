/** A command line that is used wrongly (unknown command or flag, a flag missing). Exit 1. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** True for a wrong command line: a {@link UsageError}, or node's `parseArgs` refusing a flag. */
export function isUsageError(e: unknown): boolean {
  return e instanceof UsageError || (e as { code?: string } | null)?.code?.startsWith('ERR_PARSE_ARGS') === true;
}
