// core/lists.ts: grouping grows each list in place, so grouping n values is linear.

import { expect, it } from 'vitest';
import { append } from '../../packages/collector/src/core/lists.js';

it('appends to the same list in place, in order, one list per key', () => {
  const lists = new Map<string, number[]>();
  append(lists, 'a', 1);
  const first = lists.get('a');
  for (let i = 2; i <= 20_000; i++) append(lists, i % 2 === 0 ? 'a' : 'b', i);
  expect(lists.get('a')).toBe(first);
  expect(lists.get('a')).toHaveLength(10_001);
  expect(lists.get('a')!.slice(0, 3)).toEqual([1, 2, 4]);
  expect(lists.get('b')!.slice(0, 3)).toEqual([3, 5, 7]);
  expect([...lists.keys()]).toEqual(['a', 'b']);
});
