/**
 * How the importers' messages (errors, drop reasons, notes) name an option: as the library takes
 * it, in backticks (`solUsd`). A front end that takes the options under other names, such as the
 * command line's flags, shows its own names with {@link renameOptions}.
 */

/** An option as a message names it: `solUsd`. */
export function optionName(option: string): string {
  return `\`${option}\``;
}

/**
 * A message with each option it names (see {@link optionName}) given the name `rename` has for
 * it; an option `rename` has no name for stays as it is.
 *
 * @example
 * const flags = new Map([['solUsd', '--sol-usd']]);
 * renameOptions('no `solUsd` series', (option) => flags.get(option)); // 'no --sol-usd series'
 */
export function renameOptions(message: string, rename: (option: string) => string | undefined): string {
  return message.replace(/`([A-Za-z]+)`/g, (named, option: string) => rename(option) ?? named);
}
