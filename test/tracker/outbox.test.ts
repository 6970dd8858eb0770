// Delivery of conversions: the localStorage outbox, retries, and give-up rules.

import { describe, expect, it } from 'vitest';
import { Browser, KEY, type Answer } from './browser.js';

const SITE = 'https://www.shop.test/';

async function referredPage(b: Browser) {
  await b.open(`${SITE}?red=alice`);
  b.sent = [];
  return b.open(`${SITE}signup`);
}

const outbox = (w: { localStorage: Storage }) => JSON.parse(w.localStorage.getItem('_gr_outbox') ?? '[]');

describe('a conversion', () => {
  it('is posted with the stored referral, the bearer token and keepalive, and resolves to {id, state}', async () => {
    const b = new Browser();
    await b.open(`${SITE}?red=alice&gr_uid=from-link`);
    const w = await b.open(`${SITE}signup`);
    const result = await w.gr.track('Jane@Example.com', { uid: 'user-1' });
    expect(result).toEqual({ id: 'ref-1', state: 'converted' });
    const [sent] = b.conversions();
    expect(sent!.url).toBe('https://collector.test/v1/tracking/conversion');
    expect(sent!.headers).toEqual({ Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' });
    expect(sent!.keepalive).toBe(true);
    const referral = JSON.parse(w.localStorage.getItem('_gr_id')!);
    expect(sent!.body).toEqual({ email: 'Jane@Example.com', gr_id: referral.gr_id, pk: 'alice', uid: 'user-1' });
  });

  it('uses the uid from the link when track gives none', async () => {
    const b = new Browser();
    await b.open(`${SITE}?red=alice&gr_uid=from-link`);
    const w = await b.open(`${SITE}signup`);
    await w.gr('track', 'conversion', { email: 'a@b.test' });
    expect(b.conversions()[0]!.body.uid).toBe('from-link');
  });

  it('is in the outbox before it is sent', async () => {
    const b = new Browser();
    const w = await referredPage(b);
    let seenInOutbox: unknown;
    b.answers = ['offline'];
    const realFetch = w.fetch;
    w.fetch = ((...args: Parameters<typeof fetch>) => {
      seenInOutbox = outbox(w);
      return realFetch(...args);
    }) as typeof fetch;
    await w.gr.track('a@b.test');
    expect(seenInOutbox).toEqual([expect.objectContaining({ b: expect.objectContaining({ email: 'a@b.test' }) })]);
  });
});

describe('retry and give-up rules', () => {
  const retried: Answer[] = ['offline', 429, 500, 502, 503];
  it.each(retried.map((a) => [String(a), a]))('%s is retried: three tries on the page, then kept', async (_n, answer) => {
    const b = new Browser();
    const w = await referredPage(b);
    b.fallback = answer as Answer;
    expect(await w.gr.track('a@b.test')).toBeNull();
    expect(b.conversions()).toHaveLength(3);
    expect(b.delays).toEqual([1000, 2000]);
    expect(outbox(w)).toHaveLength(1);
  });

  const final: Answer[] = [200, 201, 400, 401, 403, 409, 413, 422];
  it.each(final.map((a) => [String(a), a]))('%s is final: one try, and the entry is removed', async (_n, answer) => {
    const b = new Browser();
    const w = await referredPage(b);
    b.fallback = answer as Answer;
    const result = await w.gr.track('a@b.test');
    expect(result).toEqual((answer as number) < 300 ? { id: 'ref-1', state: 'converted' } : null);
    expect(b.conversions()).toHaveLength(1);
    expect(w.localStorage.getItem('_gr_outbox')).toBeNull();
  });

  it('a success after failures empties the outbox', async () => {
    const b = new Browser();
    const w = await referredPage(b);
    b.answers = ['offline', 503, 201];
    expect(await w.gr.track('a@b.test')).toEqual({ id: 'ref-1', state: 'converted' });
    expect(b.conversions()).toHaveLength(3);
    expect(w.localStorage.getItem('_gr_outbox')).toBeNull();
  });
});

describe('across page loads', () => {
  it('the next page load of the site delivers what the last one could not', async () => {
    const b = new Browser();
    const w = await referredPage(b);
    b.fallback = 'offline';
    await w.gr.track('a@b.test');
    expect(outbox(w)).toHaveLength(1);
    b.fallback = 201;
    b.sent = [];
    const next = await b.open(`${SITE}dashboard`);
    await b.settle(next);
    expect(b.conversions().map((s) => s.body.email)).toEqual(['a@b.test']);
    expect(next.localStorage.getItem('_gr_outbox')).toBeNull();
  });

  it('a conversion waiting with no referral left is delivered, thanks to the flag; the flag then goes', async () => {
    const b = new Browser();
    const w = await referredPage(b);
    b.fallback = 'offline';
    await w.gr.track('waiting@user.test');
    w.gr('consent', false); // the referral and its copy go; the outbox stays, and so does the flag
    expect(w.localStorage.getItem('_gr_id')).toBeNull();
    expect(outbox(w)).toHaveLength(1);
    expect(b.cookie(SITE)).toBeUndefined();
    expect(b.flag(SITE)).toBeDefined();
    b.fallback = 201;
    b.sent = [];
    const next = await b.open(`${SITE}pricing`);
    await b.settle(next);
    expect(b.conversions().map((s) => s.body.email)).toEqual(['waiting@user.test']);
    expect(next.localStorage.length).toBe(0);
    expect(b.flag(SITE)).toBeUndefined();
  });

  it('a conversion from a page that navigated away at once is sent again by the next', async () => {
    const b = new Browser();
    const w = await referredPage(b);
    void w.gr.track('fast@user.test'); // no await: the page goes away at once
    b.leave();
    b.sent = [];
    const next = await b.open(`${SITE}welcome`);
    await b.settle(next);
    // The collector answers a repeat with 200 and the same record, so sending twice is safe.
    expect(b.conversions().map((s) => s.body.email)).toContain('fast@user.test');
  });

  it('drops entries older than 7 days without sending them', async () => {
    const b = new Browser();
    // An entry's id is the time it was queued, in ms, plus a random fraction.
    const old = { i: Date.now() - 8 * 864e5 + 0.5, b: { email: 'old@user.test', gr_id: 'g' } };
    const fresh = { i: Date.now() - 6 * 864e5 + 0.5, b: { email: 'new@user.test', gr_id: 'g' } };
    b.store('https://www.shop.test', { _gr_outbox: JSON.stringify([old, fresh]) });
    const w = await b.open(SITE);
    await b.settle(w);
    expect(b.conversions().map((s) => s.body.email)).toEqual(['new@user.test']);
  });

  it('waits for the token when it comes later through initCustomer', async () => {
    const b = new Browser();
    b.store('https://www.shop.test', {
      _gr_outbox: JSON.stringify([{ i: Date.now() + 0.5, b: { email: 'q@user.test', gr_id: 'g' } }]),
    });
    const w = await b.open(SITE, { attrs: { key: null } });
    await b.settle(w);
    expect(b.sent).toEqual([]);
    w.gr('initCustomer', 'tly_pub_later');
    await b.settle(w);
    expect(b.conversions()[0]!.headers.Authorization).toBe('Bearer tly_pub_later');
  });

  it('sends a conversion tracked before the token once initCustomer gives it', async () => {
    const b = new Browser();
    await b.open(`${SITE}?red=alice`, { attrs: { key: null } });
    const w = await b.open(`${SITE}signup`, { attrs: { key: null } });
    const result = w.gr.track('early@user.test');
    await b.settle(w);
    expect(b.sent).toEqual([]);
    expect(outbox(w)).toHaveLength(1);
    w.gr('initCustomer', 'tly_pub_later');
    await b.settle(w);
    expect(b.conversions().map((s) => [s.body.email, s.headers.Authorization])).toEqual([['early@user.test', 'Bearer tly_pub_later']]);
    expect(outbox(w)).toEqual([]);
    expect(await result).toBeNull(); // answered before the token came: the record is not known yet
  });
});

describe('never rejects', () => {
  it('resolves to null when fetch itself throws or the answer is not JSON', async () => {
    const b = new Browser();
    const w = await referredPage(b);
    w.fetch = (() => {
      throw new Error('blocked by an extension');
    }) as typeof fetch;
    await expect(w.gr.track('a@b.test')).resolves.toBeNull();
    const v = await referredPage(b);
    v.fetch = (async () => new Response('<html>', { status: 200 })) as typeof fetch;
    await expect(v.gr.track('b@b.test')).resolves.toBeNull();
    await expect(v.gr('track', 'conversion', { email: 'c@b.test' })).resolves.toBeNull();
  });
});
