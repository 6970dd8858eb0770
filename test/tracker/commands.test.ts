// The gr(...) interface: the stub and its queue, the hosted service's snippet, and the
// commands of docs/tracker.md §3.

import { describe, expect, it } from 'vitest';
import { hostedSnippet } from '../fixtures/hosted-snippet.js';
import { Browser, cookieReferral, SCRIPT_SRC } from './browser.js';

const SITE = 'https://www.shop.test/';
const STUB = 'window.gr=window.gr||function(){(gr.q=gr.q||[]).push(arguments)};';

describe('the stub and its queue', () => {
  it('calls made before the script loads run in order once it does, and the stub is replaced', async () => {
    const b = new Browser();
    await b.open(`${SITE}?red=alice`);
    const w = await b.open(`${SITE}signup`, {
      before: `${STUB}
        window.order = [];
        gr('ready', function (r) { order.push('ready:' + (r && r.pk)); });
        gr('track', 'conversion', { email: 'queued@user.test' });
        gr('ready', function () { order.push('after-track'); });`,
    });
    await b.settle(w);
    expect(w.order).toEqual(['ready:alice', 'after-track']);
    expect(b.conversions().map((s) => s.body.email)).toEqual(['queued@user.test']);
    expect(w.gr.q).toBeUndefined();
    expect(typeof w.gr.track).toBe('function');
  });
});

describe("the hosted service's snippet", () => {
  const hosted = (calls: string) => hostedSnippet(SCRIPT_SRC, calls, 30);

  it('works unchanged: initCustomer gives the token, gr.ce the cookie lifetime', async () => {
    const b = new Browser();
    const landing = await b.open(`${SITE}?red=alice`, {
      html: hosted(`gr('initCustomer', 'tly_pub_hosted'); gr('track', 'pageview');`),
    });
    await b.settle(landing);
    expect(b.clicks()).toHaveLength(1);
    expect(b.clicks()[0]!.headers.Authorization).toBe('Bearer tly_pub_hosted');
    expect(b.cookie(SITE)!.maxAge).toBe(30 * 86400);

    const signup = await b.open(`${SITE}signup`, {
      html: hosted(`gr('initCustomer', 'tly_pub_hosted'); gr('track', 'conversion', { email: 'hosted@user.test', uid: 'u-1' });`),
    });
    await b.settle(signup);
    expect(b.conversions().map((s) => s.body)).toEqual([
      { email: 'hosted@user.test', gr_id: cookieReferral(b, SITE)?.gr_id, pk: 'alice', uid: 'u-1' },
    ]);
  });
});

describe('commands', () => {
  it("gr('ready', cb) gives {gr_id, pk, uid}, or null without a referral", async () => {
    const b = new Browser();
    const none = await b.open(SITE);
    let seen: unknown = 'not called';
    none.gr('ready', (r: unknown) => (seen = r));
    expect(seen).toBeNull();
    const w = await b.open(`${SITE}?red=alice&gr_uid=u5`);
    w.gr('ready', (r: unknown) => (seen = r));
    expect(seen).toEqual({ gr_id: cookieReferral(b, SITE)?.gr_id, pk: 'alice', uid: 'u5' });
  });

  it("gr('decorate', el) adds gr_id to a link, keeping its query, and to a form as a field", async () => {
    const b = new Browser();
    const w = await b.open(`${SITE}?red=alice`);
    const grId = cookieReferral(b, SITE)?.gr_id as string;
    const link = w.document.getElementById('out') as HTMLAnchorElement;
    w.gr('decorate', link);
    expect(link.href).toBe(`https://app.other.test/start?x=1&gr_id=${grId}`);
    const form = w.document.getElementById('form') as HTMLFormElement;
    w.gr('decorate', form);
    const field = form.querySelector('input[name=gr_id]') as HTMLInputElement;
    expect(field.type).toBe('hidden');
    expect(field.value).toBe(grId);
  });

  it("gr('decorate') does nothing without a referral", async () => {
    const b = new Browser();
    const w = await b.open(SITE);
    const link = w.document.getElementById('out') as HTMLAnchorElement;
    w.gr('decorate', link);
    expect(link.href).toBe('https://app.other.test/start?x=1');
  });

  it('unknown commands and bad arguments never throw into the page', async () => {
    const b = new Browser();
    const w = await b.open(`${SITE}?red=alice`);
    const gr = w.gr;
    expect(() => {
      gr('no-such-command');
      gr('ready', 'not a function');
      gr('decorate', null);
      gr('decorate', 42);
      gr('track', 'conversion');
      gr('track', 'conversion', null);
      gr();
    }).not.toThrow();
    await expect(gr.track(undefined)).resolves.toBeNull();
    expect(b.logs.filter(([level]) => level === 'jsdomError')).toEqual([]);
  });
});

describe('the console', () => {
  it('stays silent without ?gr_debug=1', async () => {
    const b = new Browser();
    const w = await b.open(`${SITE}?red=alice`);
    w.gr('track', 'pageview');
    await w.gr.track('a@b.test');
    expect(b.logs).toEqual([]);
  });

  it('logs with ?gr_debug=1', async () => {
    const b = new Browser();
    const w = await b.open(`${SITE}?red=alice&gr_debug=1`);
    w.gr('track', 'pageview');
    expect(b.logs.some(([level, args]) => level === 'log' && String(args[0]).includes('tally'))).toBe(true);
  });

  it("logs that a ready callback ran, never the callback's source", async () => {
    const b = new Browser();
    const w = await b.open(`${SITE}?red=alice&gr_debug=1`);
    w.eval(`gr('ready', function mySecretCallback(r) { window.token = 'sk_' + r.pk; })`);
    const logged = b.logs.filter(([level]) => level === 'log').map(([, args]) => args.map(String).join(' '));
    expect(logged.some((line) => /tally ready function/.test(line))).toBe(true);
    expect(logged.join('\n')).not.toMatch(/mySecretCallback|sk_/);
    expect(w.token).toBe('sk_alice');
  });

  it("warns under ?gr_debug=1 of an unknown command or an e-mail address as a command's argument, as in gr('track', email), and sends no conversion for either", async () => {
    const b = new Browser();
    const w = await b.open(`${SITE}?red=alice&gr_debug=1`);
    await b.settle(w);
    const warnings = () => b.logs.filter(([level]) => level === 'warn').map(([, args]) => args.map(String).join(' '));
    w.gr('track', 'pageview');
    w.gr('track', 'conversion', { email: 'right@user.test' });
    await b.settle(w);
    expect(warnings()).toEqual([]);
    for (const wrong of [
      "gr('track', 'wrong@user.test')",
      "gr('trackConversion', 'wrong@user.test')",
      "gr('conversion', { email: 'wrong@user.test' })",
    ]) {
      w.eval(wrong);
    }
    await b.settle(w);
    expect(warnings()).toEqual([
      'tally track wrong@user.test',
      'tally trackConversion wrong@user.test',
      'tally conversion [object Object]',
    ]);
    expect(b.conversions().map((s) => s.body.email)).toEqual(['right@user.test']);
  });

  it('warns of nothing without ?gr_debug=1', async () => {
    const b = new Browser();
    const w = await b.open(`${SITE}?red=alice`);
    w.gr('track', 'wrong@user.test');
    w.gr('nothing');
    expect(b.logs).toEqual([]);
  });

  it('a second and a third copy of the script do nothing, and say so under ?gr_debug=1 alone', async () => {
    const b = new Browser();
    const tag = `<script src="${SCRIPT_SRC}" data-key="tly_pub_one"></script>`;
    const html = tag + tag.replace('one', 'two') + tag.replace('one', 'three');
    const quiet = await b.open(`${SITE}?red=alice`, { html });
    await b.settle(quiet);
    expect(b.logs).toEqual([]);
    const w = await b.open(`${SITE}?red=alice&gr_debug=1`, { html });
    await b.settle(w);
    expect(b.logs.filter(([level]) => level === 'warn').map(([, args]) => args.slice(0, 2).join(' '))).toEqual([
      'tally twice',
      'tally twice',
    ]);
    expect(b.clicks()).toHaveLength(1);
    expect(b.clicks()[0]!.headers.Authorization).toBe('Bearer tly_pub_one');
  });
});
