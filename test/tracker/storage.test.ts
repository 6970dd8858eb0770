// The first-party cookie, its localStorage mirror, the attribution window, and consent.

import { describe, expect, it } from 'vitest';
import { Browser, cookieReferral } from './browser.js';

/** Cookie writes on the host to a domain other than the host itself and `domain`. */
const others = (b: Browser, host: string, domain: string) => b.cookieDomains(host).filter((d) => d !== '' && d !== domain);

describe('the _gr_id cookie', () => {
  it('holds {gr_id, pk, uid, at, d} with path=/, SameSite=Lax, Secure on https, for 60 days', async () => {
    const b = new Browser();
    const before = Date.now();
    const w = await b.open('https://www.shop.test/?red=alice&gr_uid=u7');
    await b.settle(w);
    const c = b.cookie('https://www.shop.test/')!;
    expect(c.path).toBe('/');
    expect(c.sameSite).toBe('lax');
    expect(c.secure).toBe(true);
    expect(c.maxAge).toBe(60 * 86400);
    const r = JSON.parse(decodeURIComponent(c.value));
    expect(Object.keys(r).sort()).toEqual(['at', 'd', 'gr_id', 'pk', 'uid']);
    expect(r.at).toBeGreaterThanOrEqual(before);
    expect(r.d).toBe('shop.test');
  });

  it('is not Secure on http', async () => {
    const b = new Browser();
    await b.open('http://www.shop.test/?red=alice');
    expect(b.cookie('http://www.shop.test/')!.secure).toBe(false);
  });

  it("sits on the registrable domain the click's answer names, so www. and app. share it", async () => {
    const b = new Browser();
    const landing = await b.open('https://www.shop.test/?red=alice');
    await b.settle(landing);
    expect(b.cookie('https://www.shop.test/')!.domain).toBe('shop.test');
    // No domain the browser refuses was tried: only the host itself, or the answer's.
    expect(others(b, 'www.shop.test', 'shop.test')).toEqual([]);
    const w = await b.open('https://app.shop.test/signup');
    expect(cookieReferral(b, 'https://app.shop.test/')?.pk).toBe('alice');
    expect(await w.gr.track('new@user.test')).toEqual({ id: 'ref-1', state: 'converted' });
    expect(others(b, 'app.shop.test', 'shop.test')).toEqual([]);
  });

  it('never tries a public suffix such as uk or co.uk', async () => {
    const b = new Browser();
    const w = await b.open('https://www.shop.example.co.uk/?red=alice');
    await b.settle(w);
    expect(b.cookie('https://www.shop.example.co.uk/')!.domain).toBe('example.co.uk');
    expect(others(b, 'www.shop.example.co.uk', 'example.co.uk')).toEqual([]);
  });

  it('a later page of a referred visitor writes to the remembered domain only: no search', async () => {
    const b = new Browser();
    await b.settle(await b.open('https://www.shop.test/?red=alice'));
    b.cookieWrites = [];
    const w = await b.open('https://www.shop.test/pricing');
    await b.settle(w);
    expect(b.clicks()).toHaveLength(1);
    expect(others(b, 'www.shop.test', 'shop.test')).toEqual([]);
    expect(b.cookie('https://www.shop.test/')!.domain).toBe('shop.test');
  });

  it('host-only for an IP address or localhost: no domain attribute at all', async () => {
    for (const [url, host] of [
      ['http://127.0.0.1:8080/?red=alice', '127.0.0.1'],
      ['http://localhost:3000/?red=alice', 'localhost'],
    ] as const) {
      const b = new Browser();
      await b.settle(await b.open(url));
      await b.settle(await b.open(url.replace('?red=alice', 'next')));
      expect(b.cookie(url)!.domain).toBe(host);
      expect(b.cookie(url)!.hostOnly).toBe(true);
      expect(cookieReferral(b, url)?.pk).toBe('alice');
      expect(
        b.cookieDomains(host).every((d) => d === ''),
        host,
      ).toBe(true);
    }
  });

  it("host-only while the click is unanswered, and after an older collector's empty 202", async () => {
    const b = new Browser();
    b.clickAnswer = 202;
    const w = await b.open('https://www.shop.test/?red=alice');
    await b.settle(w);
    expect(b.cookie('https://www.shop.test/')!.hostOnly).toBe(true);
    expect(b.cookieDomains('www.shop.test').every((d) => d === '')).toBe(true);
    expect(b.logs).toEqual([]);
    const next = await b.open('https://www.shop.test/signup');
    expect(await next.gr.track('old@user.test')).toEqual({ id: 'ref-1', state: 'converted' });
    expect(b.conversions()[0]!.body.pk).toBe('alice');
  });

  it('uses data-cookie-domain when given, and tries no other domain', async () => {
    const b = new Browser();
    const w = await b.open('https://www.shop.example.co.uk/?red=alice', { attrs: { 'cookie-domain': 'shop.example.co.uk' } });
    await b.settle(w);
    expect(b.cookie('https://www.shop.example.co.uk/')!.domain).toBe('shop.example.co.uk');
    expect(others(b, 'www.shop.example.co.uk', 'shop.example.co.uk')).toEqual([]);
  });

  it("a domain the browser refuses after all (a newer suffix list than the collector's): the stored copy carries the referral", async () => {
    const b = new Browser();
    // shop.test is named, but from the host www.shop.example the browser refuses it.
    b.clickAnswer = { status: 202, body: { data: { cookie_domain: 'shop.test' } } };
    const w = await b.open('https://www.shop.example/?red=alice');
    await b.settle(w);
    expect(b.cookie('https://www.shop.example/')).toBeUndefined();
    expect(JSON.parse(w.localStorage.getItem('_gr_id')!).pk).toBe('alice');
    const next = await b.open('https://www.shop.example/signup');
    expect(await next.gr.track('refused@user.test')).toEqual({ id: 'ref-1', state: 'converted' });
    expect(b.conversions()[0]!.body.pk).toBe('alice');
  });
});

describe('the localStorage mirror', () => {
  it('holds the same referral as the cookie', async () => {
    const b = new Browser();
    const w = await b.open('https://www.shop.test/?red=alice');
    expect(JSON.parse(w.localStorage.getItem('_gr_id')!)).toEqual(cookieReferral(b, 'https://www.shop.test/'));
  });

  it('restores a lost cookie while the flag says a copy is stored', async () => {
    const b = new Browser();
    await b.open('https://www.shop.test/?red=alice');
    const before = cookieReferral(b, 'https://www.shop.test/');
    b.loseCookie('https://www.shop.test/', '_gr_id');
    expect(b.flag('https://www.shop.test/')).toBeDefined();
    await b.open('https://www.shop.test/next');
    expect(cookieReferral(b, 'https://www.shop.test/')).toEqual(before);
  });

  it('all cookies cleared, storage kept: the copy is neither read nor removed, and a new referral replaces it', async () => {
    // The decision of docs/decisions/0069-cookies-cleared-storage-kept.md.
    const b = new Browser();
    await b.open('https://www.shop.test/?red=alice');
    b.jar.removeAllCookiesSync();
    const w = await b.open('https://www.shop.test/next');
    let seen: unknown = 'not called';
    w.gr('ready', (r: unknown) => (seen = r));
    expect(seen).toBeNull();
    expect(await w.gr.track('a@b.test')).toBeNull();
    expect(b.cookie('https://www.shop.test/')).toBeUndefined();
    expect(JSON.parse(w.localStorage.getItem('_gr_id')!).pk).toBe('alice');
    const again = await b.open('https://www.shop.test/?red=bob');
    expect(JSON.parse(again.localStorage.getItem('_gr_id')!).pk).toBe('bob');
    expect(b.flag('https://www.shop.test/')).toBeDefined();
  });

  it('is restored from the cookie when it was cleared', async () => {
    const b = new Browser();
    await b.open('https://www.shop.test/?red=alice');
    b.storage.clear();
    const w = await b.open('https://www.shop.test/next');
    expect(JSON.parse(w.localStorage.getItem('_gr_id')!).pk).toBe('alice');
  });

  it('a stored value that is not ours is ignored without an error', async () => {
    const b = new Browser();
    b.store('https://www.shop.test', { _gr_id: '{not json', _gr_outbox: 'nope' });
    const w = await b.open('https://www.shop.test/');
    expect(await w.gr.track('a@b.test')).toBeNull();
    expect(b.logs.filter(([level]) => level !== 'log')).toEqual([]);
  });
});

describe('the flag cookie _gr_s', () => {
  it('is host-only, path=/, SameSite=Lax, Secure on https, and lasts seven windows', async () => {
    const b = new Browser();
    await b.settle(await b.open('https://www.shop.test/?red=alice', { attrs: { 'cookie-days': '30' } }));
    const f = b.flag('https://www.shop.test/')!;
    expect(f.hostOnly).toBe(true);
    expect(f.path).toBe('/');
    expect(f.sameSite).toBe('lax');
    expect(f.secure).toBe(true);
    expect(f.maxAge).toBe(7 * 30 * 86400);
    // The referral's cookie is shared by the site's hosts; the flag, like localStorage, is not.
    expect(b.cookie('https://app.shop.test/')).toBeDefined();
    expect(b.flag('https://app.shop.test/')).toBeUndefined();
  });

  it('a visitor without a referral gets neither the flag nor anything stored', async () => {
    const b = new Browser();
    const w = await b.open('https://www.shop.test/pricing');
    w.gr('consent', true);
    await b.settle(w);
    expect(w.document.cookie).toBe('');
    expect(w.localStorage.length).toBe(0);
    expect(b.cookieWrites.filter((c) => c.cookie.startsWith('_gr_s'))).toEqual([]);
  });

  it('is removed with the last stored item', async () => {
    const b = new Browser();
    const w = await b.open('https://www.shop.test/?red=alice');
    expect(b.flag('https://www.shop.test/')).toBeDefined();
    w.gr('consent', false);
    expect(w.localStorage.length).toBe(0);
    expect(b.flag('https://www.shop.test/')).toBeUndefined();
  });

  it('a first page on another host of the site, whose cookie holds the referral, stores the copy there and sets the flag', async () => {
    const b = new Browser();
    await b.settle(await b.open('https://www.shop.test/?red=alice'));
    const w = await b.open('https://app.shop.test/signup');
    expect(JSON.parse(w.localStorage.getItem('_gr_id')!).pk).toBe('alice');
    expect(b.flag('https://app.shop.test/')).toBeDefined();
  });
});

describe('the attribution window', () => {
  it('a referral older than data-cookie-days is forgotten', async () => {
    const b = new Browser();
    const attrs = { 'cookie-days': '30' };
    // Settled: the click's answer has moved the cookie to the site's domain.
    await b.settle(await b.open('https://www.shop.test/?red=alice', { attrs }));
    const old = { ...cookieReferral(b, 'https://www.shop.test/')!, at: Date.now() - 31 * 864e5 };
    const value = encodeURIComponent(JSON.stringify(old));
    b.jar.setCookieSync(`_gr_id=${value}; Domain=shop.test; Path=/`, 'https://www.shop.test/');
    b.storage.set('https://www.shop.test', { _gr_id: JSON.stringify(old) });
    const w = await b.open('https://www.shop.test/signup', { attrs });
    expect(await w.gr.track('late@user.test')).toBeNull();
    expect(b.conversions()).toHaveLength(0);
  });

  it('is clamped to 1..365 days', async () => {
    for (const [days, expected] of [
      ['1000', 365],
      ['0.2', 60],
      ['-5', 1],
      ['abc', 60],
      ['7', 7],
    ] as const) {
      const b = new Browser();
      await b.open('https://www.shop.test/?red=alice', { attrs: { 'cookie-days': days } });
      expect(b.cookie('https://www.shop.test/')!.maxAge, days).toBe(expected * 86400);
    }
  });
});

describe('consent', () => {
  const attrs = { consent: 'required' };

  it('stores and sends nothing before consent, even with a referral in the address', async () => {
    const b = new Browser();
    const w = await b.open('https://www.shop.test/?red=alice', { attrs });
    expect(await w.gr.track('a@b.test')).toBeNull();
    await b.settle(w);
    expect(b.sent).toEqual([]);
    expect(w.document.cookie).toBe('');
    expect(w.localStorage.length).toBe(0);
    let seen: unknown = 'not called';
    w.gr('ready', (r: unknown) => (seen = r));
    expect(seen).toBeNull();
  });

  it("gr('consent', true) records the referral in the address and posts its click", async () => {
    const b = new Browser();
    const w = await b.open('https://www.shop.test/?red=alice', { attrs });
    w.gr('consent', true);
    await b.settle(w);
    expect(cookieReferral(b, 'https://www.shop.test/')?.pk).toBe('alice');
    expect(b.clicks()).toHaveLength(1);
  });

  it("gr('consent', false) deletes the cookie and the stored copy", async () => {
    const b = new Browser();
    const w = await b.open('https://www.shop.test/?red=alice');
    expect(b.cookie('https://www.shop.test/')).toBeDefined();
    w.gr('consent', false);
    expect(b.cookie('https://www.shop.test/')).toBeUndefined();
    expect(w.localStorage.getItem('_gr_id')).toBeNull();
    expect(await w.gr.track('a@b.test')).toBeNull();
  });

  it("gr('consent', false) on a later page deletes the cookie a subdomain set on the shared domain", async () => {
    const b = new Browser();
    await b.settle(await b.open('https://www.shop.test/?red=alice'));
    expect(b.cookie('https://app.shop.test/')?.domain).toBe('shop.test');
    const w = await b.open('https://app.shop.test/settings', { attrs });
    w.gr('consent', false);
    expect(b.cookie('https://app.shop.test/')).toBeUndefined();
    expect(b.cookie('https://www.shop.test/')).toBeUndefined();
  });
});
