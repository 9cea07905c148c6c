/**
 * Times of the tape (whole seconds since the epoch) as text, always in UTC whatever the machine's
 * time zone, so that reports print the same on every machine.
 */

/** `2024-03-10T04:12:00Z`. */
export function utcIso(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}
