// The typed client against the test file's collector: a program of its own per test, and a
// fetch that checks every answer against /openapi.json, as the harness's own calls are.

import { checkAnswer } from '../collector/answers.js';
import type { Collector } from '../collector/harness.js';
import { createTally, type Tally } from '../../packages/client/src/index.js';

/** Node's fetch, each answer checked against the document the client's types come from. */
export async function checkedFetch(request: Request): Promise<Response> {
  const res = await fetch(request);
  if (res.headers.get('content-type')?.startsWith('application/json')) {
    checkAnswer(request.method, request.url, res.status, await res.clone().json());
  }
  return res;
}

/** A new program on `c`, its secret token's client, and the partner "Alice Example" (key `alice-example`) with an accepted partnership. */
export async function programWithClient(c: Collector): Promise<{ id: string; secret: string; publishable: string; tally: Tally }> {
  const p = await c.otherProgram();
  const tally = createTally({ baseUrl: c.url, token: p.secret, fetch: checkedFetch });
  const partner = await tally.POST('/v1/partners', { body: { name: 'Alice Example', email: 'alice@partner.test' } });
  if (!partner.data) throw new Error(`partner: ${JSON.stringify(partner.error)}`);
  const made = await tally.POST('/v1/partnerships', {
    body: { partner_id: partner.data.data.id, state: 'accepted', key: 'alice-example' },
  });
  if (!made.data) throw new Error(`partnership: ${JSON.stringify(made.error)}`);
  return { ...p, tally };
}
