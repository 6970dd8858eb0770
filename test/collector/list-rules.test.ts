// The rules every list route shares: paging, has_more, and refusing what it does not know.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError, startCollector, type Collector } from './harness.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(async () => {
  await c.close();
});

const ROUTES = ['commissions', 'partnerships', 'partners', 'referrals'];

async function makePartners(n: number, sameSecond = false): Promise<string[]> {
  const made: string[] = [];
  for (let i = 0; i < n; i++) {
    if (!sameSecond) c.clock.now += 1;
    const r = await c.call('POST', '/v1/partners', { body: { name: `P${i}`, email: `p${i}@x.test` } });
    made.push(r.body.data.id);
  }
  return made.reverse(); // newest first, as listed
}

describe('pagination', () => {
  it.each(ROUTES)('%s: an empty list is an empty page without more', async (route) => {
    const reply = await c.call('GET', `/v1/${route}`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(reply.body).toEqual({ data: [], meta: { pagination: { page: 1, per_page: 25, has_more: false } } });
  });

  it('an exact multiple of per_page: has_more is true until the last full page, which is false', async () => {
    const all = await makePartners(4);
    const p1 = await c.call('GET', '/v1/partners?per_page=2');
    expect(p1.body.data.map((r: { id: string }) => r.id)).toEqual(all.slice(0, 2));
    expect(p1.body.meta.pagination).toEqual({ page: 1, per_page: 2, has_more: true });
    const p2 = await c.call('GET', '/v1/partners?per_page=2&page=2');
    expect(p2.body.data.map((r: { id: string }) => r.id)).toEqual(all.slice(2, 4));
    expect(p2.body.meta.pagination).toEqual({ page: 2, per_page: 2, has_more: false });
    const p3 = await c.call('GET', '/v1/partners?per_page=2&page=3');
    expect(p3.body).toEqual({ data: [], meta: { pagination: { page: 3, per_page: 2, has_more: false } } });
  });

  it('a partial last page', async () => {
    const all = await makePartners(5);
    const p3 = await c.call('GET', '/v1/partners?per_page=2&page=3');
    expect(p3.body.data.map((r: { id: string }) => r.id)).toEqual(all.slice(4));
    expect(p3.body.meta.pagination.has_more).toBe(false);
  });

  it('defaults to 25 per page, and allows 50', async () => {
    await makePartners(51, true);
    const p1 = await c.call('GET', '/v1/partners');
    expect(p1.body.data).toHaveLength(25);
    expect(p1.body.meta.pagination).toEqual({ page: 1, per_page: 25, has_more: true });
    const big = await c.call('GET', '/v1/partners?per_page=50');
    expect(big.body.data).toHaveLength(50);
    expect(big.body.meta.pagination.has_more).toBe(true);
    const rest = await c.call('GET', '/v1/partners?per_page=50&page=2');
    expect(rest.body.data).toHaveLength(1);
    expect(rest.body.meta.pagination.has_more).toBe(false);
  });

  it('breaks ties within one second by id, newest first, so pages never overlap', async () => {
    const all = await makePartners(6, true);
    const pages = [];
    for (const page of [1, 2, 3]) {
      const r = await c.call('GET', `/v1/partners?per_page=2&page=${page}`);
      pages.push(...r.body.data.map((x: { id: string }) => x.id));
    }
    expect(pages).toEqual(all);
    expect([...all].sort().reverse()).toEqual(all);
  });

  it('numbered pages reach 10,000 rows deep; deeper is refused with a pointer to starting_after', async () => {
    const deepest = await c.call('GET', '/v1/partners?page=200&per_page=50');
    expect(deepest.status).toBe(200);
    expect(deepest.body.meta.pagination).toEqual({ page: 200, per_page: 50, has_more: false });
    expect((await c.call('GET', '/v1/partners?page=10000&per_page=1')).status).toBe(200);
    const deeper = expectError(await c.call('GET', '/v1/partners?page=201&per_page=50'), 400, 'invalid_parameter');
    expect(deeper.source).toEqual({ parameter: 'page' });
    expect(deeper.detail).toMatch(/starting_after=/);
  });
});

describe('pages by cursor', () => {
  it('starting_after and ending_before walk the same order as numbered pages, with has_more each way', async () => {
    const all = await makePartners(7);
    const ids = (r: { body: { data: Array<{ id: string }> } }) => r.body.data.map((x) => x.id);
    const p2 = await c.call('GET', `/v1/partners?per_page=3&starting_after=${all[2]}`);
    expect(ids(p2)).toEqual(all.slice(3, 6));
    expect(p2.body.meta.pagination).toEqual({ page: null, per_page: 3, has_more: true });
    expect(ids(p2)).toEqual(ids(await c.call('GET', '/v1/partners?per_page=3&page=2')));
    const last = await c.call('GET', `/v1/partners?per_page=3&starting_after=${all[5]}`);
    expect(ids(last)).toEqual([all[6]]);
    expect(last.body.meta.pagination.has_more).toBe(false);
    const back = await c.call('GET', `/v1/partners?per_page=3&ending_before=${all[6]}`);
    expect(ids(back)).toEqual(all.slice(3, 6));
    expect(back.body.meta.pagination.has_more).toBe(true);
    const front = await c.call('GET', `/v1/partners?per_page=3&ending_before=${all[2]}`);
    expect(ids(front)).toEqual(all.slice(0, 2));
    expect(front.body.meta.pagination.has_more).toBe(false);
  });

  it('records of one second are ordered by id, and a cursor among them loses and repeats none', async () => {
    const all = await makePartners(6, true);
    const seen: string[] = [];
    let after = '';
    for (;;) {
      const page = await c.call('GET', `/v1/partners?per_page=4${after ? `&starting_after=${after}` : ''}`);
      seen.push(...page.body.data.map((x: { id: string }) => x.id));
      if (!page.body.meta.pagination.has_more) break;
      after = seen[seen.length - 1]!;
    }
    expect(seen).toEqual(all);
  });

  it("keeps the filters, and refuses an unknown cursor, another program's, or two ways at once", async () => {
    await makePartners(3);
    const named = (await c.call('GET', '/v1/partners?name_eq=P1')).body.data;
    const all = (await c.call('GET', '/v1/partners')).body.data;
    const filtered = await c.call('GET', `/v1/partners?name_eq=P1&starting_after=${all[0].id}`);
    expect(filtered.body.data).toEqual(named);
    for (const query of ['starting_after=01900000-0000-7000-8000-000000000000', 'ending_before=nope']) {
      const err = expectError(await c.call('GET', `/v1/partners?${query}`), 400, 'invalid_parameter');
      expect(err.source).toEqual({ parameter: query.split('=')[0] });
    }
    const other = await c.otherProgram();
    const theirs = await c.call('POST', '/v1/partners', { token: other.secret, body: { name: 'Theirs', email: 'theirs@x.test' } });
    expectError(await c.call('GET', `/v1/partners?starting_after=${theirs.body.data.id}`), 400, 'invalid_parameter');
    for (const query of [`page=2&starting_after=${all[0].id}`, `starting_after=${all[0].id}&ending_before=${all[1].id}`]) {
      expectError(await c.call('GET', `/v1/partners?${query}`), 400, 'invalid_parameter');
    }
  });
});

describe('400 invalid_parameter', () => {
  const BAD: Array<[string, string]> = [
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=%2B1', 'page'],
    ['page=1.5', 'page'],
    ['page=abc', 'page'],
    ['page=', 'page'],
    ['page=1e2', 'page'],
    ['page=10001', 'page'],
    ['page=99999999999999999999', 'page'],
    ['per_page=0', 'per_page'],
    ['per_page=51', 'per_page'],
    ['per_page=%201', 'per_page'],
    ['per_page=ten', 'per_page'],
  ];
  it.each(ROUTES)('%s: bad page and per_page values', async (route) => {
    for (const [query, parameter] of BAD) {
      const err = expectError(await c.call('GET', `/v1/${route}?${query}`), 400, 'invalid_parameter');
      expect(err.source).toEqual({ parameter });
    }
  });

  it.each(ROUTES)('%s: a parameter given twice', async (route) => {
    for (const query of ['page=1&page=2', 'per_page=5&per_page=5']) {
      const err = expectError(await c.call('GET', `/v1/${route}?${query}`), 400, 'invalid_parameter');
      expect(err.source.parameter).toBe(query.split('=')[0]);
    }
  });

  it('a filter given twice', async () => {
    const err = expectError(await c.call('GET', '/v1/commissions?state_eq=paid&state_eq=pending'), 400, 'invalid_parameter');
    expect(err.source).toEqual({ parameter: 'state_eq' });
  });

  it('a state that the resource does not have', async () => {
    for (const [route, state] of [
      ['commissions', 'accepted'],
      ['partnerships', 'paid'],
      ['referrals', 'pending'],
      ['commissions', 'PAID'],
    ]) {
      const err = expectError(await c.call('GET', `/v1/${route}?state_eq=${state}`), 400, 'invalid_parameter');
      expect(err.source).toEqual({ parameter: 'state_eq' });
    }
  });

  it('impossible and malformed date-times', async () => {
    const bad = [
      '2025-02-30%2010:00:00%20%2B0000',
      '2025-02-29T00:00:00Z',
      '2024-13-01%2000:00:00%20%2B0000',
      '2025-03-01%2024:00:00%20%2B0000',
      '2025-03-01%2010:60:00%20%2B0000',
      '2025-03-01%2010:00:61Z',
      '2025-03-01%2010:00:00%20%2B2400',
      'yesterday',
      '2025/03/01',
      '',
    ];
    for (const value of bad) {
      const err = expectError(await c.call('GET', `/v1/commissions?created_at_lt=${value}`), 400, 'invalid_parameter');
      expect(err.source).toEqual({ parameter: 'created_at_lt' });
    }
    expect((await c.call('GET', '/v1/commissions?created_at_lt=2024-02-29T00:00:00Z')).status).toBe(200);
  });

  it('an empty filter value', async () => {
    expectError(await c.call('GET', '/v1/partners?name_eq='), 400, 'invalid_parameter');
  });
});

describe('400 unknown_parameter', () => {
  it.each(ROUTES)('%s: a parameter the route does not know, even a near miss', async (route) => {
    for (const name of ['state', 'per-page', 'created_at_gte', 'limit', 'name_eq_x', '__proto__', 'constructor']) {
      const err = expectError(await c.call('GET', `/v1/${route}?${name}=1`), 400, 'unknown_parameter');
      expect(err.source).toEqual({ parameter: name });
    }
  });

  it("another route's filter is unknown here", async () => {
    expectError(await c.call('GET', '/v1/partners?state_eq=accepted'), 400, 'unknown_parameter');
    expectError(await c.call('GET', '/v1/partnerships?email_eq=a%40b.test'), 400, 'unknown_parameter');
    expectError(await c.call('GET', '/v1/commissions?email_eq=a%40b.test'), 400, 'unknown_parameter');
    expectError(await c.call('GET', '/v1/partnerships?state_set_at_lt=2025-01-01T00:00:00Z'), 400, 'unknown_parameter');
  });
});
