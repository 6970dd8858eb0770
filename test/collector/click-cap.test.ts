// The per-address cap on new clicks (flows/click.ts) in fixed memory: every address keeps its
// own allowance however many others the hour has seen, and none gets past its own.

import { expect, it } from 'vitest';
import { CLICKS_PER_ADDRESS_HOUR, ClickCap } from '../../packages/collector/src/flows/click.js';

const HOUR = 1_800_000_000 - (1_800_000_000 % 3600);

it('an address after 300,000 others in the hour still has its whole allowance, and no more', () => {
  const cap = new ClickCap();
  let refused = 0;
  for (let i = 0; i < 300_000; i++) if (!cap.take(`p 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, HOUR + 1)) refused++;
  // A map of 100,000 addresses made every later newcomer share one allowance: 199,900 refused.
  expect(refused).toBe(0);
  const late = 'p 192.0.2.7';
  const taken = Array.from({ length: CLICKS_PER_ADDRESS_HOUR + 5 }, () => cap.take(late, HOUR + 2));
  expect(taken.filter(Boolean)).toHaveLength(CLICKS_PER_ADDRESS_HOUR);
  expect(taken.slice(CLICKS_PER_ADDRESS_HOUR)).toEqual([false, false, false, false, false]);
  expect(cap.used(late, HOUR + 2)).toBe(CLICKS_PER_ADDRESS_HOUR);
  // A reservation given back is one more new click; the next hour starts afresh.
  cap.release(late, HOUR + 3);
  expect(cap.take(late, HOUR + 3)).toBe(true);
  expect(cap.take(late, HOUR + 3)).toBe(false);
  expect(cap.used(late, HOUR + 3600)).toBe(0);
  expect(cap.take(late, HOUR + 3600)).toBe(true);
});
