import type { Network } from '../model/request.js';

/** A Solana address: base58 (no 0, O, I or l), 32 to 44 characters. */
const SOL_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
/** An Ethereum address: `0x` and 40 hex digits, either case. */
const ETH_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The address of either network, as the OpenAPI document states the `{address}` parameter. */
export const ADDRESS_PATTERN = '^([1-9A-HJ-NP-Za-km-z]{32,44}|0x[0-9a-fA-F]{40})$';

/**
 * Why `address` cannot be an address of `network`, or null when it can. Only the form is
 * checked: a well-formed address that never traded is a fine question (answered with no deals).
 *
 * @example
 * addressProblem('sol', '../etc'); // '"../etc" cannot be a sol address: …'
 */
export function addressProblem(network: Network, address: string): string | null {
  if ((network === 'sol' ? SOL_ADDRESS : ETH_ADDRESS).test(address)) return null;
  const shown =
    address.length > 48
      ? `${JSON.stringify(address.slice(0, 44)).slice(0, -1)}..." (${address.length} characters)`
      : JSON.stringify(address);
  const expected =
    network === 'sol'
      ? 'base58 of 32 to 44 characters (digits 1-9 and letters but 0, O, I and l)'
      : '0x and 40 hex digits';
  return `${shown} cannot be a ${network} address: expected ${expected}`;
}
