// The flows of docs/tracker.md in real browsers, from referral link to conversion,
// with the collector and the company's site on two different origins: every flow in
// Chromium, and in Firefox all but the outage (the outbox's retries are the tracker's own
// timers, the same in every engine, and take five seconds).

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hostedSnippet } from '../fixtures/hosted-snippet.js';
import { consoleProblems, type Browser } from './driver.js';
import { ENGINES, LAUNCH_TIMEOUT } from './engines.js';
import { Stack, STUB, trackerReady, type Captured } from './stack.js';

let browser: Browser;
let s: Stack;

const page = (head: string, body = '') =>
  // An icon of its own, so the browser asks for no /favicon.ico (a 404 is a console error).
  `<!doctype html><html><head><link rel="icon" href="data:,">${head}</head><body>${body}</body></html>`;
const clicks = (sent: Captured[]) => sent.filter((r) => r.url.endsWith('/v1/tracking/click'));
const conversions = (sent: Captured[]) => sent.filter((r) => r.url.endsWith('/v1/tracking/conversion'));

for (const engine of ENGINES) {
  describe(`in ${engine.name}`, () => {
    beforeAll(async () => {
      browser = await engine.launch();
    }, LAUNCH_TIMEOUT);
    afterAll(async () => {
      await browser?.close();
    });
    beforeEach(async () => {
      s = new Stack();
      await s.start(browser);
    });
    afterEach(async () => {
      await s.close();
    });

    it('1. a referral link, then a signup that navigates away at once: credited to the right partner', async () => {
      const alice = await s.partner('Alice');
      await s.partner('Bob');
      s.site.set('/', page(s.tag(), 'landing'));
      s.site.set('/signup', page(s.tag(), 'signup'));
      s.site.set('/thanks', page('', 'thanks'));
      const { page: tab, sent, context } = await s.context();

      await tab.goto(`${s.site.origin()}/?red=${alice.key}`);
      await trackerReady(tab);
      await expect.poll(() => clicks(sent).length).toBe(1);
      const click = clicks(sent)[0]!.body;
      expect(click).toMatchObject({ pk: alice.key, url: `${s.site.origin()}/?red=${alice.key}` });

      await tab.goto(`${s.site.origin()}/signup`);
      await trackerReady(tab);
      await tab.evaluate(() => {
        void window.gr.track('jane@buyer.test');
        location.href = '/thanks';
      });
      await tab.waitForURL('**/thanks');

      const referral = await s.referralFor('jane@buyer.test');
      expect(referral?.relationships.partnership.data.id).toBe(alice.partnershipId);
      expect(conversions(sent).map((r) => r.body)).toEqual([{ email: 'jane@buyer.test', gr_id: click.gr_id, pk: alice.key }]);
      const clicksStored = await s.collector.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM clicks');
      expect(clicksStored?.n).toBe(1);
      await context.close();
    });

    it("2. the hosted service's own snippet, unchanged but for its src", async () => {
      const alice = await s.partner('Alice');
      const hosted = (calls: string) => hostedSnippet(`${s.collectorUrl}/tracker.js`, calls);
      s.site.set('/', page(hosted(`gr('initCustomer', '${s.publishable}'); gr('track', 'pageview');`)));
      s.site.set(
        '/signup',
        page(hosted(`gr('initCustomer', '${s.publishable}'); gr('track', 'conversion', { email: 'hosted@buyer.test', uid: 'cus_42' });`)),
      );
      const { page: tab, sent, context } = await s.context();
      await tab.goto(`${s.site.origin()}/?red=${alice.key}`);
      await expect.poll(() => clicks(sent).length).toBe(1);
      await tab.goto(`${s.site.origin()}/signup`);
      const referral = await s.referralFor('hosted@buyer.test');
      expect(referral?.relationships.partnership.data.id).toBe(alice.partnershipId);
      expect(referral?.attributes.uid).toBe('cus_42');
      const cookies = await context.cookies();
      const cookie = cookies.find((c) => c.name === '_gr_id')!;
      expect(cookie.expires - Date.now() / 1000).toBeGreaterThan(59 * 86400);
      await context.close();
    });

    it('3. the collector is down when track is called; the next page load delivers from the outbox', async () => {
      const alice = await s.partner('Alice');
      // The site serves its own copy of tracker.js, so pages work while the collector is down.
      const local = `${STUB}<script async src="/tracker.js" data-key="${s.publishable}" data-api="${s.collectorUrl}"></script>`;
      s.site.set('/', page(local));
      s.site.set('/signup', page(local));
      s.site.set('/thanks', page('', 'thanks'));
      s.site.set('/dashboard', page(local));
      const { page: tab, context } = await s.context();
      await tab.goto(`${s.site.origin()}/?red=${alice.key}`);
      await trackerReady(tab);

      const port = s.collectorPort;
      await s.collector.close();
      await tab.goto(`${s.site.origin()}/signup`);
      await trackerReady(tab);
      const result = await tab.evaluate(() => window.gr.track('outage@buyer.test'));
      expect(result).toBeNull(); // not delivered on this page
      const queued = await tab.evaluate(() => localStorage.getItem('_gr_outbox'));
      expect(JSON.parse(queued!)).toHaveLength(1);
      await tab.goto(`${s.site.origin()}/thanks`);

      await s.startCollector(port);
      await tab.goto(`${s.site.origin()}/dashboard`);
      const referral = await s.referralFor('outage@buyer.test');
      expect(referral?.relationships.partnership.data.id).toBe(alice.partnershipId);
      await expect.poll(() => tab.evaluate(() => localStorage.getItem('_gr_outbox'))).toBeNull();
      await context.close();
    });

    it('4. www. and app. subdomains of one site share the attribution', async () => {
      const alice = await s.partner('Alice');
      s.site.set('/', page(s.tag(), 'marketing site'));
      s.site.set('/signup', page(s.tag(), 'the app'));
      const { page: tab, sent, context } = await s.context();
      await tab.goto(`${s.site.origin('www.shop.test')}/?red=${alice.key}`);
      await trackerReady(tab);
      await expect.poll(() => clicks(sent).length).toBe(1);
      // On the site's domain once the click's answer names it; before that, on www. alone.
      await expect
        .poll(async () => (await context.cookies()).filter((c) => c.name === '_gr_id').map((c) => c.domain))
        .toEqual(['.shop.test']);

      await tab.goto(`${s.site.origin('app.shop.test')}/signup`);
      await trackerReady(tab);
      const result = await tab.evaluate(() => window.gr.track('subdomain@buyer.test'));
      expect(result).toMatchObject({ state: 'converted' });
      const referral = await s.referralFor('subdomain@buyer.test');
      expect(referral?.relationships.partnership.data.id).toBe(alice.partnershipId);
      expect(conversions(sent)[0]!.body.gr_id).toBe(clicks(sent)[0]!.body.gr_id);
      await context.close();
    });

    it('5. a single-page app that changes the address with pushState, replaceState and back', async () => {
      const alice = await s.partner('Alice');
      const bob = await s.partner('Bob');
      s.site.set('/app', page(s.tag(), 'spa'));
      const { page: tab, sent, context } = await s.context();
      await tab.goto(`${s.site.origin()}/app`);
      await trackerReady(tab);
      const pk = () => tab.evaluate(() => new Promise((done) => window.gr('ready', (r: { pk: string } | null) => done(r?.pk))));
      expect(sent).toEqual([]);
      await tab.evaluate((key) => history.pushState({}, '', `/app/pricing?red=${key}`), alice.key);
      await expect.poll(() => clicks(sent).length).toBe(1);
      await tab.evaluate((key) => history.replaceState({}, '', `/app/pricing?red=${key}`), bob.key);
      await expect.poll(() => clicks(sent).map((c) => c.body.pk)).toEqual([alice.key, bob.key]);
      await tab.evaluate((key) => history.pushState({}, '', `/app/compare?via=${key}`), alice.key);
      await expect.poll(pk).toBe(alice.key);
      // Back and forward (popstate) read the entry's address again: last click wins.
      await tab.goBack();
      await expect.poll(pk).toBe(bob.key);
      await tab.goForward();
      await expect.poll(pk).toBe(alice.key);
      await expect.poll(() => clicks(sent).map((c) => c.body.pk)).toEqual([alice.key, bob.key, alice.key, bob.key, alice.key]);
      // The page's own history methods are left as they were.
      expect(await tab.evaluate(() => history.pushState.toString())).toContain('[native code]');
      await tab.evaluate(() => history.pushState({}, '', '/app/signup'));
      const result = await tab.evaluate(() => window.gr.track('spa@buyer.test'));
      expect(result).toMatchObject({ state: 'converted' });
      expect((await s.referralFor('spa@buyer.test'))?.relationships.partnership.data.id).toBe(alice.partnershipId);
      await context.close();
    });

    it('7. decorate hands the click to the app on another domain, by a link and by a GET form', async () => {
      const alice = await s.partner('Alice');
      const app = s.site.origin('app.other.test');
      s.site.set(
        '/',
        page(
          s.tag(),
          `<a id="link" href="${app}/signup?plan=pro">Start</a>` +
            `<form id="form" method="get" action="${app}/signup"><input name="plan" value="team"></form>`,
        ),
      );
      s.site.set('/signup', page(s.tag(), 'the app'));
      const { page: tab, sent, context } = await s.context();
      await tab.goto(`${s.site.origin()}/?red=${alice.key}`);
      await trackerReady(tab);
      await expect.poll(() => clicks(sent).length).toBe(1);
      const grId = clicks(sent)[0]!.body.gr_id as string;
      await tab.evaluate(() => window.gr('decorate', document.getElementById('link')));
      expect(await tab.getAttribute('#link', 'href')).toBe(`${app}/signup?plan=pro&gr_id=${grId}`);

      await tab.click('#link');
      await tab.waitForURL(`${app}/signup?**`);
      await trackerReady(tab);
      // The app keeps the handed-over click id, and posts no second click for it.
      const appCookie = (await context.cookies(app)).find((c) => c.name === '_gr_id')!;
      expect(JSON.parse(decodeURIComponent(appCookie.value))).toMatchObject({ gr_id: grId, pk: null });
      const result = await tab.evaluate(() => window.gr.track('cross@buyer.test'));
      expect(result).toMatchObject({ state: 'converted' });
      // Polled: Firefox's driver tells of a request once it has fetched its body.
      await expect.poll(() => conversions(sent).map((r) => r.body)).toEqual([{ email: 'cross@buyer.test', gr_id: grId }]);
      expect((await s.referralFor('cross@buyer.test'))?.relationships.partnership.data.id).toBe(alice.partnershipId);
      expect(clicks(sent)).toHaveLength(1);

      // Back: Firefox restores the page from its back-forward cache, Chromium here loads it
      // again; the form is decorated once either way (a second call would add a second field).
      await tab.goBack();
      await trackerReady(tab);
      await tab.evaluate(() => {
        window.gr('decorate', document.getElementById('form'));
        (document.getElementById('form') as HTMLFormElement).submit();
      });
      await tab.waitForURL(`${app}/signup?**`);
      // The page's own address: Firefox's driver is told of no move back from its page cache.
      const submitted = new URL(await tab.evaluate(() => location.href));
      expect(submitted.searchParams.getAll('gr_id')).toEqual([grId]);
      expect(submitted.searchParams.get('plan')).toBe('team');
      await context.close();
    });

    it('8. data-clean-url: the address loses the referral once, and one click is posted', async () => {
      const alice = await s.partner('Alice');
      s.site.set('/pricing', page(s.tag('data-clean-url'), 'pricing'));
      s.site.set('/', page('', 'home'));
      const { page: tab, sent, context } = await s.context();
      await tab.goto(`${s.site.origin()}/`);
      const before = await tab.evaluate(() => history.length);
      await tab.goto(`${s.site.origin()}/pricing?plan=pro&red=${alice.key}&gr_uid=u1#top`);
      await trackerReady(tab);
      expect(await tab.evaluate(() => location.href)).toBe(`${s.site.origin()}/pricing?plan=pro#top`);
      // replaceState added no entry: the home page, then this one. (Counted from the home
      // page: Chromium keeps a new tab's about:blank in the history, Firefox replaces it.)
      expect(await tab.evaluate(() => history.length)).toBe(before + 1);
      await expect.poll(() => clicks(sent).map((c) => c.body.pk)).toEqual([alice.key]);
      const cookie = (await context.cookies()).find((c) => c.name === '_gr_id')!;
      expect(JSON.parse(decodeURIComponent(cookie.value))).toMatchObject({ pk: alice.key, uid: 'u1' });
      await tab.waitForTimeout(200);
      expect(clicks(sent)).toHaveLength(1);
      await context.close();
    });

    it('6. consent required: nothing is stored or sent before consent', async () => {
      const alice = await s.partner('Alice');
      s.site.set('/', page(s.tag('data-consent="required"')));
      const { page: tab, sent, context } = await s.context();
      await tab.goto(`${s.site.origin()}/?red=${alice.key}`);
      await trackerReady(tab);
      expect(await tab.evaluate(() => window.gr.track('early@buyer.test'))).toBeNull();
      await tab.waitForTimeout(300);
      expect(sent).toEqual([]);
      expect(await context.cookies()).toEqual([]);
      expect(await tab.evaluate(() => localStorage.length)).toBe(0);

      await tab.evaluate(() => window.gr('consent', true));
      await expect.poll(() => clicks(sent).length).toBe(1);
      expect((await context.cookies()).map((c) => c.name)).toContain('_gr_id');
      expect(await tab.evaluate(() => window.gr.track('consented@buyer.test'))).toMatchObject({ state: 'converted' });
      expect(await s.referralFor('early@buyer.test', 300)).toBeUndefined();
      await context.close();
    });

    it('9. a landing, a later page and a signup on app. log nothing to the console, and share the attribution', async () => {
      const alice = await s.partner('Alice');
      s.site.set('/', page(s.tag(), 'landing'));
      s.site.set('/pricing', page(s.tag(), 'pricing'));
      s.site.set('/signup', page(s.tag(), 'signup'));
      const { page: tab, sent, context } = await s.context();
      const problems = consoleProblems(tab);
      const failed: string[] = [];
      context.on('requestfailed', (req) => failed.push(`${req.method()} ${req.url()}`));
      const shared = async () => (await context.cookies()).filter((c) => c.name === '_gr_id').map((c) => c.domain);

      await tab.goto(`${s.site.origin('www.shop.test')}/?red=${alice.key}`);
      await trackerReady(tab);
      // The click's answer has moved the cookie to the site's domain: one copy, no host copy.
      await expect.poll(shared).toEqual(['.shop.test']);
      await tab.goto(`${s.site.origin('www.shop.test')}/pricing`);
      await trackerReady(tab);
      await tab.goto(`${s.site.origin('app.shop.test')}/signup`);
      await trackerReady(tab);
      expect(await tab.evaluate(() => window.gr.track('quiet@buyer.test'))).toMatchObject({ state: 'converted' });
      expect((await s.referralFor('quiet@buyer.test'))?.relationships.partnership.data.id).toBe(alice.partnershipId);
      expect(conversions(sent)[0]!.body.gr_id).toBe(clicks(sent)[0]!.body.gr_id);
      expect(clicks(sent)).toHaveLength(1);
      expect(await shared()).toEqual(['.shop.test']);
      await tab.waitForTimeout(100);
      expect(problems).toEqual([]);
      // The click's answer is read, so no engine lists the beacon as cancelled (net::ERR_ABORTED).
      expect(failed).toEqual([]);
      await context.close();
    });
  });
}
