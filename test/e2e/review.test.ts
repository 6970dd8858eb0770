// Review in Chromium, as an owner works the queue: conversions the public tracker sent are
// held by their signals (an address at mailinator.com as disposable, one without a landing
// before it as no landing) while the company's own server's is not judged on its visitor;
// the Review page lists them with their partner and reasons in words, the record tables tag
// what is held, and one selected shows its evidence side by side (the click's landing and
// referrer, the address's tag and how many others came from it, the browser, the
// customer's e-mail beside the partner's). One is approved, one rejected, one's partner
// banned (the partnership declined, every pending commission rejected), each behind a
// confirmation with a required reason; a commission its own signal held (a quick payment)
// on a referral that is not held is approved from the same queue; the decisions list who
// made them. Settings → Review
// turns a signal on (paid ads), which then holds a landing from a Google ad. Each page and
// dialog clean under axe-core and readable at 360 px.

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptedPartner,
  apiWith,
  axeFindings,
  overflowsSideways,
  press,
  redeemLink,
  waitForText,
  type Api,
  signInFirst,
  OWNER,
} from './dashboard.js';
import { consoleProblems } from './driver.js';
import { launchChromium, startDemoCollector } from './stack.js';

const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) ReviewTest/1.0';

let browser: Browser;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let url: string;
let api: Api;
let page: Page;
let problems: string[];
type Made = { id: string; partnershipId: string; key: string };
let ann: Made;
let bob: Made;
let cy: Made;
let dee: Made;
let eve: Made;
/** The referrals made, by customer e-mail. */
const referral: Record<string, string> = {};

/** A call of the public tracker, with the publishable token, from a browser. */
async function track(kind: 'click' | 'conversion', body: Record<string, string>): Promise<any> {
  const res = await fetch(`${url}/v1/tracking/${kind}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${collector.server.firstProgram!.tokens.publishable}`,
      'content-type': 'application/json',
      'user-agent': BROWSER_UA,
    },
    body: JSON.stringify(body),
  });
  expect(res.ok, `${kind}: ${res.status}`).toBe(true);
  return res.json();
}

/** A public conversion; its referral's id is kept by e-mail. */
async function convert(email: string, grId: string, key: string): Promise<void> {
  await track('conversion', { email, gr_id: grId, pk: key });
  const [made] = (await api('GET', `/v1/referrals?email_eq=${encodeURIComponent(email)}`)).data;
  referral[email] = made.id;
}

const referralOf = async (email: string) => (await api('GET', `/v1/referrals/${referral[email]}`)).data.attributes;
const commissionsOf = async (partner: Made) => (await api('GET', `/v1/commissions?partner_id_eq=${partner.id}`)).data;

beforeAll(async () => {
  browser = await launchChromium();
  collector = await startDemoCollector();
  url = collector.server.url;
  api = apiWith(url, collector.server.firstProgram!.tokens.secret);
  page = await (await browser.newContext()).newPage();
  problems = consoleProblems(page);

  ann = await acceptedPartner(api, 'Ann');
  bob = await acceptedPartner(api, 'Bob');
  cy = await acceptedPartner(api, 'Cy');
  // Ann's customer landed through her link, then signed up with a throwaway address.
  await track('click', {
    gr_id: 'ann-visitor',
    pk: ann.key,
    url: 'https://www.shop.test/pricing?utm_source=ann',
    referrer: 'https://ann.blog.test/best-tools',
  });
  await convert('quick@mailinator.com', 'ann-visitor', ann.key);
  // Bob's and Cy's never landed anywhere before converting.
  await convert('ghost@customer.test', 'bob-never-landed', bob.key);
  await convert('cy-buyer@customer.test', 'cy-never-landed', cy.key);
  // The company's own server sends no visitor to judge: no landing holds nothing there.
  await api('POST', '/v1/tracking/conversion', { email: 'server@customer.test', gr_id: 'server-side', pk: cy.key });
  referral['server@customer.test'] = (await api('GET', '/v1/referrals?email_eq=server%40customer.test')).data[0].id;
  // Payments: Ann's and Cy's held referrals earn held commissions; Cy's server-sent one a payable one.
  for (const [email, key] of [
    ['quick@mailinator.com', 'pay-ann'],
    ['cy-buyer@customer.test', 'pay-cy-held'],
    ['server@customer.test', 'pay-cy-server'],
  ] as const) {
    await api('POST', '/v1/payments', { amount: 10_000, currency: 'USD', referral_id: referral[email], idempotency_key: key });
  }
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
});

const at = (path: string) => `${url}/dashboard${path}`;
const textOf = (selector: string) => page.locator(selector).innerText();
/** The first table's rows: on the Review page, the held referrals (the held commissions follow). */
const rows = () => page.locator('.table').first().locator('tbody tr').allInnerTexts();
const dialogGone = () => expect.poll(() => page.locator('dialog').count()).toBe(0);

/** Where each "Held for review" tag of the page leads. */
const heldTagLinks = () =>
  page.evaluate(() => [...document.querySelectorAll<HTMLAnchorElement>('a.tag.held')].map((a) => a.getAttribute('href')));

describe('review in Chromium', () => {
  it('holds public conversions by their signals, not the server-sent one', async () => {
    expect(await referralOf('quick@mailinator.com')).toMatchObject({
      review: 'held',
      review_reasons: [expect.objectContaining({ signal: 'disposable_email' })],
    });
    expect(await referralOf('ghost@customer.test')).toMatchObject({
      review: 'held',
      review_reasons: [expect.objectContaining({ signal: 'no_click' })],
    });
    expect((await referralOf('server@customer.test')).review ?? null).toBeNull();
    const cyCommissions = await commissionsOf(cy);
    expect(cyCommissions.map((c: any) => c.attributes.review ?? null).sort()).toEqual(['held', null]);
  });

  it('lists the held referrals with their partner, when, and the reasons in words', async () => {
    await signInFirst(page, collector.server.firstSignInLink!);
    await page.click('nav.side a:text-is("Review")');
    await page.waitForURL('**/dashboard/review');
    await waitForText(page, 'quick@mailinator.com');
    expect(await page.getAttribute('nav.side a[aria-current=page]', 'href')).toBe('/dashboard/review');
    // Newest first, each with its partner's name once it arrives.
    await expect
      .poll(rows)
      .toEqual([
        expect.stringMatching(/cy-buyer@customer\.test\s+Cy\s.*No landing before the conversion/s),
        expect.stringMatching(/ghost@customer\.test\s+Bob\s.*No landing before the conversion/s),
        expect.stringMatching(/quick@mailinator\.com\s+Ann\s.*A disposable e-mail domain/s),
      ]);
    expect(await textOf('.table >> nth=0')).not.toContain('server@customer.test');
    // Their held commissions are listed too, each to decide on its own.
    expect(await textOf('section[aria-labelledby=held-commissions]')).toMatch(/Ann[\s\S]*A disposable e-mail domain/);
    expect(await axeFindings(page)).toEqual([]);
  });

  it("tags what is held on the Commissions page and the partner's page, leading to its evidence", async () => {
    await page.goto(at('/commissions'));
    await waitForText(page, 'Held for review');
    const commissions = await rows();
    expect(commissions.filter((r) => r.includes('Held for review'))).toHaveLength(2);
    expect(commissions.filter((r) => r.includes('once approved'))).toHaveLength(2);

    await page.goto(at(`/partners/${ann.id}`));
    await waitForText(page, 'quick@mailinator.com');
    // Her referral and its commission: held with the referral, the commission is decided there too.
    await expect.poll(() => heldTagLinks()).toEqual([0, 1].map(() => `/dashboard/review?referral=${referral['quick@mailinator.com']}`));
    await page.click('a.tag.held >> nth=0');
    await page.waitForURL(`**/dashboard/review?referral=${referral['quick@mailinator.com']}`);
    await waitForText(page, 'Evidence: quick@mailinator.com');
  });

  it('shows the evidence side by side: the click, the address and browser, the e-mails', async () => {
    const evidence = (await api('GET', `/v1/referrals/${referral['quick@mailinator.com']}/evidence`)).data.attributes;
    expect(evidence.address_tag).toMatch(/^\w{8}$/);
    const click = await textOf('section[aria-labelledby=evidence-click]');
    expect(click).toContain('https://www.shop.test/pricing?utm_source=ann');
    expect(click).toContain('https://ann.blog.test/best-tools');
    expect(click).toMatch(/\d+ seconds? after the click/);
    const customer = await textOf('section[aria-labelledby=evidence-customer]');
    expect(customer).toContain('quick@mailinator.com');
    expect(customer).toContain(`${evidence.address_tag}, ${evidence.same_address_referrals} other referrals from it`);
    expect(evidence.same_address_referrals).toBe(2); // Bob's and Cy's customers, from this machine too
    expect(customer).toContain(BROWSER_UA);
    const partner = await textOf('section[aria-labelledby=evidence-partner]');
    expect(partner).toContain('Ann');
    expect(partner).toContain('ann@partners.test');
    expect(await textOf('.evidence .reasons')).toContain(
      "A disposable e-mail domain: the customer's address is at a disposable e-mail domain",
    );
    // Chosen, the evidence has the focus: a keyboard goes on from there.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('evidence-title');
    expect(await axeFindings(page)).toEqual([]);

    // Bob's: no landing at all.
    await page.click('button[aria-label="Show evidence of ghost@customer.test"]');
    await waitForText(page, 'Evidence: ghost@customer.test');
    expect(await textOf('section[aria-labelledby=evidence-click]')).toContain('No landing before the conversion');
    expect(await page.getAttribute('button[aria-label="Show evidence of ghost@customer.test"]', 'aria-pressed')).toBe('true');
  });

  it('approves one behind a confirmation that wants a reason: its commission becomes payable', async () => {
    await page.click('button[aria-label="Show evidence of quick@mailinator.com"]');
    await waitForText(page, 'Evidence: quick@mailinator.com');
    await press(page, 'Approve', '.evidence');
    await page.waitForSelector('dialog[open]');
    expect(await textOf('dialog h2')).toBe('Approve the referral of quick@mailinator.com?');
    expect(await textOf('dialog')).toContain('Its held commissions become payable as usual');
    // The reason is required: the dialog asks for it, nothing is decided.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('reason');
    await press(page, 'Approve', 'dialog');
    expect(await page.locator('dialog input[name=reason]:invalid').count()).toBe(1);
    expect((await api('GET', '/v1/review_decisions')).data).toEqual([]);
    expect(await axeFindings(page)).toEqual([]); // the dialog open

    await page.fill('dialog input[name=reason]', 'A real customer: they called support');
    await press(page, 'Approve', 'dialog');
    await dialogGone();
    await waitForText(page, `quick@mailinator.com: approved, by ${OWNER.email}`);
    await expect.poll(rows).toHaveLength(2);
    expect(await textOf('.table >> nth=0')).not.toContain('quick@mailinator.com');
    expect(await page.locator('.evidence').count()).toBe(0);
    expect((await referralOf('quick@mailinator.com')).review).toBe('approved');
    const [commission] = await commissionsOf(ann);
    expect(commission.attributes).toMatchObject({ review: 'approved', state: 'pending' });
  });

  it('rejects one with its reason', async () => {
    await page.click('button[aria-label="Show evidence of ghost@customer.test"]');
    await waitForText(page, 'Evidence: ghost@customer.test');
    await press(page, 'Reject', '.evidence');
    await page.waitForSelector('dialog[open]');
    expect(await textOf('dialog h2')).toBe('Reject the referral of ghost@customer.test?');
    expect(await axeFindings(page)).toEqual([]);
    await page.fill('dialog input[name=reason]', 'Never visited the site');
    await press(page, 'Reject', 'dialog');
    await dialogGone();
    await waitForText(page, `ghost@customer.test: rejected, by ${OWNER.email}`);
    await expect.poll(rows).toHaveLength(1);
    expect(await referralOf('ghost@customer.test')).toMatchObject({ review: 'rejected', state: 'rejected' });
  });

  it('bans a partner: the dialog says what a ban does; the partnership is declined, every pending commission rejected', async () => {
    await page.click('button[aria-label="Show evidence of cy-buyer@customer.test"]');
    await waitForText(page, 'Evidence: cy-buyer@customer.test');
    await press(page, 'Ban partner', '.evidence');
    await page.waitForSelector('dialog[open]');
    expect(await textOf('dialog h2')).toBe('Ban Cy?');
    const said = await textOf('dialog');
    expect(said).toContain('every pending commission of Cy');
    expect(said).toContain('declines their partnership: their link and codes credit nothing more');
    expect(await axeFindings(page)).toEqual([]);
    // Cancel decides nothing.
    await press(page, 'Cancel', 'dialog');
    await dialogGone();
    expect((await api('GET', `/v1/partnerships/${cy.partnershipId}`)).data.attributes.state).toBe('accepted');

    await press(page, 'Ban partner', '.evidence');
    await page.fill('dialog input[name=reason]', 'Self-referrals');
    await press(page, 'Ban partner', 'dialog');
    await dialogGone();
    await waitForText(page, `cy-buyer@customer.test: partner banned (Cy), by ${OWNER.email}`);
    expect((await api('GET', `/v1/partnerships/${cy.partnershipId}`)).data.attributes.state).toBe('declined');
    // The server-sent one's commission too, not only the held one's.
    const commissions = await commissionsOf(cy);
    expect(commissions).toHaveLength(2);
    for (const c of commissions) expect(c.attributes).toMatchObject({ state: 'rejected', reject_reason: 'banned: Self-referrals' });
  });

  it('decides about a commission its own signal held (a quick payment) on a referral that is not held', async () => {
    await api('PATCH', '/v1/program', { review_signals: { quick_payment: true } });
    eve = await acceptedPartner(api, 'Eve');
    await track('click', { gr_id: 'eve-visitor', pk: eve.key, url: 'https://www.shop.test/' });
    await convert('eve-buyer@customer.test', 'eve-visitor', eve.key);
    await api('POST', '/v1/payments', {
      amount: 5_000,
      currency: 'USD',
      referral_id: referral['eve-buyer@customer.test'],
      idempotency_key: 'pay-eve',
    });
    await api('PATCH', '/v1/program', { review_signals: { quick_payment: false } });
    expect((await referralOf('eve-buyer@customer.test')).review ?? null).toBeNull();
    const [held] = await commissionsOf(eve);
    expect(held.attributes.review).toBe('held');
    // Its tag, on her page and on Commissions, leads to the commission itself: its referral is not held.
    for (const where of [`/partners/${eve.id}`, '/commissions']) {
      await page.goto(at(where));
      await waitForText(page, 'Held for review');
      await expect.poll(() => heldTagLinks()).toContain(`/dashboard/review?commission=${held.id}`);
      expect(await heldTagLinks()).not.toContain(`/dashboard/review?referral=${referral['eve-buyer@customer.test']}`);
    }
    await page.click(`a.tag.held[href$="commission=${held.id}"]`);
    await page.waitForURL(`**/dashboard/review?commission=${held.id}`);
    await waitForText(page, 'for eve-buyer@customer.test');

    await page.goto(at('/review'));
    await waitForText(page, 'Paid within seconds of the landing');
    const decideButton = page.locator('section[aria-labelledby=held-commissions] button[aria-label*="of Eve"]');
    await decideButton.click();
    await page.waitForURL(`**/dashboard/review?commission=${held.id}`);
    await waitForText(page, 'for eve-buyer@customer.test');
    expect(await textOf('#evidence-title')).toMatch(/^Held commission: .*10\.00 for eve-buyer@customer\.test$/);
    expect(await textOf('.evidence .reasons')).toContain('Paid within seconds of the landing: the first payment came');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('evidence-title');
    expect(await axeFindings(page)).toEqual([]);
    await press(page, 'Approve', '.evidence');
    await page.waitForSelector('dialog[open]');
    expect(await textOf('dialog h2')).toMatch(/^Approve the commission of .*10\.00 for eve-buyer@customer\.test\?$/);
    expect(await textOf('dialog')).toContain('It becomes payable as usual');
    await page.fill('dialog input[name=reason]', 'A fast buyer, we checked');
    await press(page, 'Approve', 'dialog');
    await dialogGone();
    await waitForText(page, `eve-buyer@customer.test: approved, by ${OWNER.email}`);
    await waitForText(page, 'No commission is held.');
    expect((await api('GET', `/v1/commissions/${held.id}`)).data.attributes).toMatchObject({ review: 'approved', state: 'pending' });
    const [decided] = (await api('GET', '/v1/events?type_eq=review.decided&per_page=1')).data;
    expect(decided.attributes.data.attributes).toMatchObject({ commission_id: held.id, decision: 'approve' });
    const [updated] = (await api('GET', '/v1/events?type_eq=commission.updated&per_page=1')).data;
    expect(updated.attributes.data).toMatchObject({ id: held.id, attributes: { review: 'approved' } });
  });

  it('says when nothing is held, pointing to the signals; the decisions list who made them and when', async () => {
    await waitForText(page, 'Nothing is held for review');
    expect(await page.getAttribute('.empty a', 'href')).toBe('/dashboard/settings#review');
    expect(await axeFindings(page)).toEqual([]);

    await press(page, 'See the decisions');
    await page.waitForURL('**/dashboard/review?view=decided');
    expect(await page.getAttribute('nav.tabs a[aria-current=page]', 'href')).toBe('/dashboard/review?view=decided');
    await expect
      .poll(rows)
      .toEqual([
        expect.stringMatching(/approved\s+eve-buyer@customer\.test\s+Eve\s+A fast buyer, we checked\s+owner@company\.test/),
        expect.stringMatching(/partner banned\s+cy-buyer@customer\.test\s+Cy\s+Self-referrals\s+owner@company\.test/),
        expect.stringMatching(/rejected\s+ghost@customer\.test\s+Bob\s+Never visited the site\s+owner@company\.test/),
        expect.stringMatching(/approved\s+quick@mailinator\.com\s+Ann\s+A real customer: they called support\s+owner@company\.test/),
      ]);
    const decisions = (await api('GET', '/v1/review_decisions')).data;
    expect(decisions.map((d: any) => [d.attributes.decision, d.attributes.decided_by])).toEqual([
      ['approve', OWNER.email],
      ['ban', OWNER.email],
      ['reject', OWNER.email],
      ['approve', OWNER.email],
    ]);
    expect(await axeFindings(page)).toEqual([]);
  });

  it('turns a signal on in Settings → Review; a landing from a paid ad is then held', async () => {
    await page.goto(at('/settings#review'));
    await page.waitForSelector('#review fieldset');
    const box = (name: string) => page.locator(`#review input[name=${name}]`);
    const before = (await api('GET', '/v1/program')).data.attributes.review_signals;
    expect(before).toMatchObject({ paid_ads: false, disposable_email: true, email_match: true });
    for (const [name, on] of Object.entries(before)) expect(await box(name).isChecked(), name).toBe(on);
    expect(await textOf('#review')).toContain('Paid ads on the brand — The landing carried a paid ad’s click id (gclid, fbclid, msclkid');
    expect(await page.getByRole('checkbox', { name: /^Paid ads on the brand/ }).getAttribute('name')).toBe('paid_ads');

    await box('paid_ads').check();
    await box('email_match').uncheck();
    await press(page, 'Save signals', '#review');
    await expect.poll(() => textOf('#review [role=status]')).toBe('Saved.');
    expect((await api('GET', '/v1/program')).data.attributes.review_signals).toEqual({ ...before, paid_ads: true, email_match: false });
    expect(await axeFindings(page)).toEqual([]);

    dee = await acceptedPartner(api, 'Dee');
    await track('click', {
      gr_id: 'dee-visitor',
      pk: dee.key,
      url: 'https://www.shop.test/?gclid=Cj0KCQ',
      referrer: 'https://www.google.com/',
    });
    await convert('ad-click@customer.test', 'dee-visitor', dee.key);
    expect(await referralOf('ad-click@customer.test')).toMatchObject({
      review: 'held',
      review_reasons: [expect.objectContaining({ signal: 'paid_ads', explain: expect.stringContaining('gclid') })],
    });
    await api('POST', '/v1/payments', {
      amount: 5_000,
      currency: 'USD',
      referral_id: referral['ad-click@customer.test'],
      idempotency_key: 'pay-dee',
    });
  });

  it('is readable at 360 px: the queue with its evidence, the decisions, the settings', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    try {
      await page.goto(at(`/review?referral=${referral['ad-click@customer.test']}`));
      await waitForText(page, 'Evidence: ad-click@customer.test');
      await waitForText(page, 'Paid ads on the brand');
      expect(await overflowsSideways(page), '/review').toBe(false);
      for (const [path, shows] of [
        ['/review?view=decided', 'Self-referrals'],
        ['/settings/review', 'Hold a conversion when'],
      ] as const) {
        await page.goto(at(path));
        await waitForText(page, shows);
        expect(await overflowsSideways(page), path).toBe(false);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('shows the partner their held commission as under review in the portal, and nothing of the evidence', async () => {
    const link = (await api('POST', `/v1/partners/${dee.id}/invitation`)).meta.link as string;
    const portal = await (await browser.newContext()).newPage();
    const portalProblems = consoleProblems(portal);
    try {
      await redeemLink(portal, link);
      await portal.goto(`${url}/portal/earnings`);
      await waitForText(portal, 'Under review');
      const [row] = await portal.locator('table >> nth=0').locator('tbody tr').allInnerTexts();
      expect(row).toMatch(/pending\s*Under review\s+once the company has reviewed it/);
      const shown = await portal.evaluate(() => document.body.innerText);
      expect(shown).not.toContain('gclid');
      expect(shown).not.toContain('Paid ads');
      expect(await axeFindings(portal)).toEqual([]);
      expect(portalProblems).toEqual([]);
    } finally {
      await portal.context().close();
    }
  });

  it('left nothing in the console', () => {
    expect(problems).toEqual([]);
  });
});
