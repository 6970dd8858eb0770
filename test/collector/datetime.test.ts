import { describe, expect, it } from 'vitest';
import { parseInstant } from '../../packages/collector/src/platform/http/datetime.js';

const T = 1_740_823_200; // 2025-03-01 10:00:00 UTC

describe('parseInstant', () => {
  it.each([
    ['2025-03-01 10:00:00 +0000', T],
    ['2025-03-01 12:00:00 +0200', T],
    ['2025-03-01 04:30:00 -0530', T],
    ['2025-03-01 12:00:00 +02:00', T],
    ['2025-03-01 12:00:00  0200', T],
    ['2025-03-01T10:00:00Z', T],
    ['2025-03-01T10:00:00z', T],
    ['2025-03-01T10:00:00.999Z', T, true],
    ['2025-03-01T10:00:00.5+00:00', T, true],
    ['2025-03-01T10:00:00.000000001Z', T, true],
    ['2025-03-01T10:00:00.000Z', T, false],
    ['2025-03-01T12:00:00+02:00', T],
    ['2025-03-01T12:00:00 02:00', T],
    ['2025-03-01T10:00:00', T],
    ['2025-03-01', T - 36_000],
    [String(T), T],
    ['999999999', 999_999_999],
    ['2024-02-29 00:00:00 +0000', 1_709_164_800],
  ] as Array<[string, number, boolean?]>)('%s', (raw, seconds, fraction = false) => {
    expect(parseInstant(raw)).toEqual({ seconds, fraction });
  });

  it.each([
    '2025-02-29 00:00:00 +0000',
    '2025-04-31T00:00:00Z',
    '2025-00-10T00:00:00Z',
    '2025-03-01 25:00:00 +0000',
    '2025-03-01 10:00:00 +0060',
    '2025-03-01 10:00 +0000',
    '2025-03-01T10:00:00+2',
    '01/03/2025',
    'now',
    '',
    // A bare year would be Unix second 2025 (1970); 13 digits are milliseconds; leading
    // zeros make 1970 too.
    '0000000001',
    '2025',
    '0',
    '12345678',
    String(T * 1000),
  ])('refuses %s', (raw) => {
    expect(parseInstant(raw)).toBeUndefined();
  });
});
