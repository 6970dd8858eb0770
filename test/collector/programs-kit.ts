// One collector for a test file, and a program of its own per test: calls with the
// program's secret token, and `ok` for a call that must succeed (its body is returned).

import { afterAll, beforeAll, expect } from 'vitest';
import { startCollector, type Collector, type CollectorOptions } from './harness.js';

// any: API bodies are JSON the tests read freely.
export type Json = Record<string, any>;

export interface Program {
  id: string;
  secret: string;
  publishable: string;
}

export interface ProgramsKit {
  /** The file's collector, once beforeAll has run. */
  readonly c: Collector;
  api(p: Program, method: string, path: string, body?: unknown): ReturnType<Collector['call']>;
  ok(p: Program, method: string, path: string, body?: unknown): Promise<Json>;
}

/** A flat USD lead reward paying `amount` for a sign-up that meets the one condition (docs/rewards.md). */
export const leadReward = (amount: number, condition: Json): Json => ({
  event: 'lead',
  kind: 'flat',
  amount,
  currency: 'USD',
  conditions: { op: 'and', items: [condition] },
});

/** Starts the file's collector before its tests and stops it after them. */
export function programsKit(opts: CollectorOptions = {}): ProgramsKit {
  let collector: Collector | undefined;
  beforeAll(async () => {
    collector = await startCollector(opts);
  });
  afterAll(() => collector?.close());
  const kit: ProgramsKit = {
    get c() {
      if (!collector) throw new Error('the collector starts in beforeAll');
      return collector;
    },
    api: (p, method, path, body) => kit.c.call(method, path, { token: p.secret, body }),
    async ok(p, method, path, body) {
      const reply = await kit.api(p, method, path, body);
      expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300);
      return reply.body;
    },
  };
  return kit;
}
