// GET /v1/commissions/export: every commission the filters select, as CSV, streamed a page
// at a time (api/export.ts): the same records and values as the list walked by cursor, no
// other program's, and a stream that reads its pages only as fast as they are taken.

import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRoute, EXPORT_PAGE } from '../../packages/collector/src/api/export.js';
import { parseCsv } from '../../packages/collector/src/platform/csv.js';
import { uuidv7 } from '../../packages/collector/src/core/ids.js';
import * as commissions from '../../packages/collector/src/modules/commissions/repo.js';
import type { CommissionRow } from '../../packages/collector/src/modules/commissions/model.js';
import { expectError, seedPartner, startCollector, T0, type Collector } from './harness.js';

let c: Collector;
let alice: { partnerId: string };
let bob: { partnerId: string };
// Two and a half pages of the export's: the walk crosses pages, and ends on a short one.
const COUNT = Math.floor(EXPORT_PAGE * 2.5);

const row = (programId: string, partnerId: string, i: number, over: Partial<CommissionRow> = {}): CommissionRow => ({
  id: uuidv7(),
  program_id: programId,
  partner_id: partnerId,
  referral_id: null,
  amount: 100 + i,
  currency: 'USD',
  state: i % 3 === 0 ? 'paid' : 'pending',
  reject_reason: null,
  payable_at: 0,
  on_hold: 0,
  clawback_of: null,
  tier_of: null,
  reward_id: null,
  reward_description: null,
  review: null,
  review_reasons: null,
  payout_batch_id: null,
  state_set_at: T0 + i,
  paid_at: i % 3 === 0 ? T0 + i : null,
  // Some seconds shared by two records: the walk's order then falls to the id.
  created_at: T0 + Math.floor(i / 2),
  updated_at: T0 + i,
  ...over,
});

beforeAll(async () => {
  c = await startCollector();
  alice = await seedPartner(c, { name: 'Alice', email: 'alice@partners.test' });
  bob = await seedPartner(c, { name: 'Bob', email: 'bob@partners.test' });
  await c.running.db.transaction(async (tx) => {
    for (let i = 0; i < COUNT; i++) await commissions.insert(tx, row(c.programId, i % 4 === 0 ? bob.partnerId : alice.partnerId, i));
    // A description a spreadsheet would run as a formula, and one with a comma and a quote.
    await commissions.insert(tx, row(c.programId, bob.partnerId, COUNT, { reward_description: '=HYPERLINK("x")', created_at: T0 - 1 }));
    await commissions.insert(tx, row(c.programId, bob.partnerId, COUNT + 1, { reward_description: 'a, "b"', created_at: T0 - 2 }));
  });
  const other = await c.otherProgram();
  const stranger = await seedPartner(c, { name: 'Stranger', email: 'stranger@partners.test', token: other.secret });
  await commissions.insert(c.running.db, row(other.id, stranger.partnerId, 0));
});
afterAll(async () => {
  await c.close();
});

/** The export's CSV as a header and records keyed by the header's names. */
async function exported(query = '') {
  const res = await fetch(`${c.url}/v1/commissions/export${query}`, { headers: { authorization: `Bearer ${c.secret}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="tally-commissions-\d{4}-\d{2}-\d{2}\.csv"$/);
  const text = await res.text();
  expect(text.endsWith('\r\n')).toBe(true);
  const [header, ...records] = parseCsv(text);
  return { header: header!, records: records.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]]))) };
}

/** The JSON list walked by cursor, every page of 50. */
async function listed(filter = '') {
  const out: any[] = [];
  for (let after: string | undefined; ; ) {
    const page = await c.call('GET', `/v1/commissions?per_page=50${filter}${after ? `&starting_after=${after}` : ''}`);
    expect(page.status).toBe(200);
    out.push(...page.body.data);
    if (!page.body.meta.pagination.has_more) return out;
    after = page.body.data.at(-1).id;
  }
}

describe('GET /v1/commissions/export', () => {
  it("holds the list's records in its order, with the values the API renders, and no other program's", async () => {
    const { header, records } = await exported();
    const list = await listed();
    expect(list).toHaveLength(COUNT + 2);
    expect(records.map((r) => r.id)).toEqual(list.map((x) => x.id));
    expect(header.slice(0, 4)).toEqual(['id', 'state', 'amount', 'currency']);
    for (const [i, x] of list.entries()) {
      for (const h of header.slice(1)) {
        const value = x.attributes[h];
        if (h === 'reward_description') continue;
        expect(records[i]![h], `${x.id} ${h}`).toBe(value === undefined || value === null ? '' : String(value));
      }
    }
  });

  it('neutralises a cell a spreadsheet would run, and quotes one with a comma or a quote', async () => {
    const { records } = await exported(`?partner_id_eq=${bob.partnerId}&created_at_lt=${T0}`);
    expect(records.map((r) => r.reward_description)).toEqual(['\'=HYPERLINK("x")', 'a, "b"']);
  });

  it("takes the list's filters", async () => {
    const { records } = await exported(`?partner_id_eq=${alice.partnerId}&state_eq=paid`);
    const list = await listed(`&partner_id_eq=${alice.partnerId}&state_eq=paid`);
    expect(records.length).toBeGreaterThan(0);
    expect(records.map((r) => r.id)).toEqual(list.map((x) => x.id));
    expect(new Set(records.map((r) => `${r.partner_id} ${r.state}`))).toEqual(new Set([`${alice.partnerId} paid`]));
  });

  it('refuses pages and cursors, which would hide records, and an unknown filter', async () => {
    for (const q of ['?page=2', '?per_page=10', `?starting_after=${uuidv7()}`, `?ending_before=${uuidv7()}`]) {
      expectError(await c.call('GET', `/v1/commissions/export${q}`), 400, 'invalid_parameter');
    }
    expectError(await c.call('GET', '/v1/commissions/export?amount_eq=1'), 400, 'unknown_parameter');
  });

  it('is for the secret token only', async () => {
    expectError(await c.call('GET', '/v1/commissions/export', { token: c.publishable }), 403, 'forbidden');
    expect((await c.call('GET', '/v1/commissions/export', { token: null })).status).toBe(401);
  });
});

describe('the export stream', () => {
  it('reads a page only when the client has taken the ones before, past a buffer of a page or two', async () => {
    let pages = 0;
    const route = exportRoute({
      plural: 'things',
      filters: {},
      columns: ['n'],
      render: (r: { id: string }) => ({ id: r.id, type: 'thing', attributes: { n: r.id.length } }),
      async list(_db, _program, _filters, page) {
        pages++;
        const start = page.after === undefined ? 0 : Number(page.after) + 1;
        return { rows: Array.from({ length: page.perPage }, (_, i) => ({ id: String(start + i).padStart(8, '0') })), hasMore: start < 1e9 };
      },
    });
    const reply = await route.handle({
      db: c.running.db,
      program: { id: c.programId },
      list: { filters: [], page: { page: 1, perPage: 25 } },
      now: T0,
    } as any);
    const body = reply.body as Readable;
    const chunks = body[Symbol.asyncIterator]();
    expect(String((await chunks.next()).value)).toBe('id,n\r\n');
    for (let taken = 1; taken <= 3; taken++) {
      const chunk = String((await chunks.next()).value);
      expect(chunk.split('\r\n')).toHaveLength(EXPORT_PAGE + 1);
      // The page taken, and what the stream's buffer (16 KB, a page and a half here) holds ahead of it.
      expect(pages).toBeLessThanOrEqual(taken + 2);
    }
    body.destroy();
  });
});
