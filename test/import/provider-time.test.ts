import { describe, expect, it } from 'vitest';
import { parseProviderTime } from '../../src/import.js';

// 2024-03-10T10:00:00Z = 1710028800 (the day's midnight) + 10 × 3600 = 1710064800.
describe('parseProviderTime', () => {
  it.each([
    ['Dune, with fraction and UTC', '2024-03-10 10:00:00.000 UTC', 1_710_064_800],
    ['Dune, without fraction', '2024-03-10 10:00:00 UTC', 1_710_064_800],
    ['ISO with Z and milliseconds', '2024-03-10T10:00:00.123Z', 1_710_064_800],
    ['ISO with an offset (+01:00 is an hour earlier in UTC)', '2024-03-10T11:00:00+01:00', 1_710_064_800],
    ['ISO with a colon-less offset', '2024-03-10T11:00:00+0100', 1_710_064_800],
    ['no zone is UTC', '2024-03-10 10:00:00', 1_710_064_800],
    ['unix seconds as text', '1710064800', 1_710_064_800],
    ['unix milliseconds as a number', 1_710_064_800_999, 1_710_064_800],
    ['unix seconds with a fraction', 1_710_064_800.7, 1_710_064_800],
    ['a bare date is midnight', '2024-03-10', 1_710_028_800],
  ])('%s', (_name, input, expected) => {
    expect(parseProviderTime(input)).toBe(expected);
  });

  it.each([['yesterday'], ['10/03/2024'], [''], [null], [-5], ['2024-13-45 10:00:00 UTC']])(
    '%s is not a time',
    (input) => {
      expect(parseProviderTime(input)).toBeNull();
    },
  );
});
