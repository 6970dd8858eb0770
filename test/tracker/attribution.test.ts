// What the snippet reads from the landing page, and when it records a click.

import { describe, expect, it } from 'vitest';
import { Browser, cookieReferral, KEY } from './browser.js';

const SITE = 'https://www.shop.test/';

describe('link parameters', () => {
  const order = ['red', 'gr_pk', '_pk', 'via', 'ref', 'fpr', 'fp_ref', 'ps_partner_key'];

  it.each(order)('reads the slug from ?%s=', async (name) => {
    const b = new Browser();
    await b.open(`${SITE}?${name}=slug-${name}`);
    expect(cookieReferral(b, SITE)?.pk).toBe(`slug-${name}`);
  });

  it('takes the first present parameter in the documented order', async () => {
    for (let i = 0; i < order.length - 1; i++) {
      const b = new Browser();
      // Every parameter from position i on, written in reverse so URL order cannot decide.
      const query = order
        .slice(i)
        .reverse()
        .map((n) => `${n}=${n}-value`)
        .join('&');
      await b.open(`${SITE}?${query}`);
      expect(cookieReferral(b, SITE)?.pk).toBe(`${order[i]}-value`);
    }
  });

  it('reads data-params names after the built-in ones', async () => {
    const b = new Browser();
    await b.open(`${SITE}?partner=p1`, { attrs: { params: 'aff, partner' } });
    expect(cookieReferral(b, SITE)?.pk).toBe('p1');
    const c = new Browser();
    await c.open(`${SITE}?partner=p1&via=v1`, { attrs: { params: 'partner' } });
    expect(cookieReferral(c, SITE)?.pk).toBe('v1');
  });

  it('takes uid from gr_uid and a handed-over click id from gr_id', async () => {
    const b = new Browser();
    await b.open(`${SITE}?red=alice&gr_uid=user-9&gr_id=handed-over`);
    expect(cookieReferral(b, SITE)).toMatchObject({ gr_id: 'handed-over', pk: 'alice', uid: 'user-9' });
    expect(b.clicks()[0]?.body).toMatchObject({ gr_id: 'handed-over', pk: 'alice' });
  });

  it('a gr_id alone (a cross-domain handover) is stored without posting a click', async () => {
    const b = new Browser();
    await b.open(`https://app.other.test/start?gr_id=from-marketing`);
    expect(cookieReferral(b, 'https://app.other.test/')).toMatchObject({ gr_id: 'from-marketing' });
    expect(b.clicks()).toHaveLength(0);
  });

  it('makes a gr_id of its own when the URL has none', async () => {
    const b = new Browser();
    await b.open(`${SITE}?red=alice`);
    expect(cookieReferral(b, SITE)?.gr_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('with no referral', () => {
  it('stores nothing and sends nothing, ever', async () => {
    const b = new Browser();
    const w = await b.open(`${SITE}?utm_source=newsletter`);
    const result = await w.gr.track('a@b.test');
    w.gr('track', 'pageview');
    await b.settle(w);
    expect(result).toBeNull();
    expect(b.sent).toEqual([]);
    expect(b.cookie(SITE)).toBeUndefined();
    expect(w.localStorage.length).toBe(0);
  });
});

describe('clicks', () => {
  it('posts one click per new referral, with the page and its referrer', async () => {
    const b = new Browser();
    const w = await b.open(`${SITE}pricing?red=alice`);
    await b.settle(w);
    expect(b.clicks()).toHaveLength(1);
    const click = b.clicks()[0]!;
    expect(click.url).toBe('https://collector.test/v1/tracking/click');
    expect(click.headers).toEqual({ Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' });
    expect(click.keepalive).toBe(true);
    expect(click.body).toEqual({
      gr_id: cookieReferral(b, SITE)?.gr_id,
      pk: 'alice',
      url: `${SITE}pricing?red=alice`,
      referrer: '',
    });
    // The same link again, on a later page: no second click, and the same gr_id.
    await b.open(`${SITE}?red=alice`);
    expect(b.clicks()).toHaveLength(1);
  });

  it('gr(track, pageview) records a click only when the address carries a new referral', async () => {
    const b = new Browser();
    const w = await b.open(`${SITE}?red=alice`);
    w.gr('track', 'pageview');
    await b.settle(w);
    expect(b.clicks()).toHaveLength(1);
  });
});

describe('last-click (the default)', () => {
  it('a new slug replaces the referral with a new gr_id and posts a click', async () => {
    const b = new Browser();
    await b.open(`${SITE}?red=alice`);
    const first = cookieReferral(b, SITE)!;
    await b.open(`${SITE}?red=bob`);
    const second = cookieReferral(b, SITE)!;
    expect(second.pk).toBe('bob');
    expect(second.gr_id).not.toBe(first.gr_id);
    expect(b.clicks().map((c) => c.body.pk)).toEqual(['alice', 'bob']);
  });

  it('the same slug keeps the gr_id and only refreshes the expiry', async () => {
    const b = new Browser();
    await b.open(`${SITE}?red=alice`);
    const first = cookieReferral(b, SITE)!;
    await new Promise((r) => setTimeout(r, 5));
    await b.open(`${SITE}?red=alice`);
    const again = cookieReferral(b, SITE)!;
    expect(again.gr_id).toBe(first.gr_id);
    expect(again.at as number).toBeGreaterThan(first.at as number);
  });
});

describe('first-click', () => {
  it('the first link wins until it expires: a later slug changes nothing and posts nothing', async () => {
    const b = new Browser();
    const attrs = { attribution: 'first' };
    await b.open(`${SITE}?red=alice`, { attrs });
    const first = cookieReferral(b, SITE)!;
    await b.open(`${SITE}?red=bob`, { attrs });
    expect(cookieReferral(b, SITE)).toEqual(first);
    expect(b.clicks().map((c) => c.body.pk)).toEqual(['alice']);
  });

  it('after the first expires, a new link is taken', async () => {
    const b = new Browser();
    const attrs = { attribution: 'first', 'cookie-days': '1' };
    // Settled: the click's answer has moved the cookie to the site's domain.
    await b.settle(await b.open(`${SITE}?red=alice`, { attrs }));
    const stale = { ...cookieReferral(b, SITE)!, at: Date.now() - 2 * 864e5 };
    b.jar.setCookieSync(`_gr_id=${encodeURIComponent(JSON.stringify(stale))}; Domain=shop.test; Path=/`, SITE);
    b.storage.clear();
    await b.open(`${SITE}?red=bob`, { attrs });
    expect(cookieReferral(b, SITE)?.pk).toBe('bob');
  });
});

describe('single-page apps', () => {
  // Address changes are learnt from the Navigation API, which jsdom lacks: the flows with
  // pushState, replaceState, back and forward run in Chromium (test/e2e/flows.test.ts, 5).
  it('without the Navigation API, still tracks what the page loaded with', async () => {
    const b = new Browser();
    const w = await b.open(`${SITE}?red=alice`);
    expect('navigation' in w).toBe(false);
    await b.settle(w);
    expect(b.clicks().map((c) => c.body.pk)).toEqual(['alice']);
    w.history.pushState({}, '', '/pricing?red=bob');
    await b.settle(w);
    expect(cookieReferral(b, SITE)?.pk).toBe('alice');
    // 'pageview' reads the address again, as the hosted snippet's routers call it.
    w.gr('track', 'pageview');
    await b.settle(w);
    expect(b.clicks().map((c) => c.body.pk)).toEqual(['alice', 'bob']);
  });

  it("leaves the page's history methods as they were", async () => {
    const b = new Browser();
    const w = await b.open(SITE, { before: 'window.before = [history.pushState, history.replaceState];' });
    expect((w as unknown as { before: unknown[] }).before).toEqual([w.history.pushState, w.history.replaceState]);
    w.history.pushState({ step: 2 }, '', '/step-2');
    expect(w.location.pathname).toBe('/step-2');
    expect(w.history.state).toEqual({ step: 2 });
  });
});

describe('data-clean-url', () => {
  it('removes the referral parameters from the address and keeps the others', async () => {
    const b = new Browser();
    const w = await b.open(`${SITE}pricing?plan=pro&red=alice&gr_uid=u1&gr_id=g1#top`, { attrs: { 'clean-url': '' } });
    expect(w.location.href).toBe(`${SITE}pricing?plan=pro#top`);
    expect(cookieReferral(b, SITE)).toMatchObject({ gr_id: 'g1', pk: 'alice', uid: 'u1' });
  });

  it('is off by default', async () => {
    const b = new Browser();
    const w = await b.open(`${SITE}?red=alice`);
    expect(w.location.search).toBe('?red=alice');
  });
});
