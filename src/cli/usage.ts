/** A command line that is used wrongly (unknown command or flag, a flag missing). Exit 1. */
export class UsageError extends Error {
  override name = 'UsageError';
}
