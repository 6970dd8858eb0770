// The README's screenshots of the dashboard, made anew from a seeded database:
// `npm run build && node scripts/screenshots.mjs` writes docs/dashboard-overview.png,
// docs/dashboard-partner.png, docs/portal-apply.png and docs/portal-home.png. Sixty days of a small program: four partners, their
// visitors' clicks, signups and payments, with a clock the script moves; the first partner's promotion code (MAYA20, 20 % off),
// on her page and in her portal under her link.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createLogger, startServer } from '../packages/collector/dist/index.js';

const DOCS = fileURLToPath(new URL('../docs/', import.meta.url));
const DAY = 86_400;
const dir = mkdtempSync(join(tmpdir(), 'tally-shots-'));
const end = Math.floor(Date.now() / 1000);
const clock = { now: end - 60 * DAY };
const server = await startServer(
  { port: 0, host: '127.0.0.1', databaseUrl: join(dir, 'tally.db'), logLevel: 'silent' },
  createLogger('silent'),
  { now: () => clock.now },
);
const secret = server.firstProgram.tokens.secret;
const api = async (method, path, body) => {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  return res.status === 204 ? undefined : res.json();
};

/** A small deterministic generator, so the pictures are the same each time. */
let seed = 7;
const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;

const OWNER = { email: 'owner@acme.example', password: 'a long owner password' };

try {
  // The first owner takes the printed link now, while it is fresh on the script's clock.
  const token = server.firstSignInLink.split('#')[1];
  await fetch(`${server.url}/v1/auth/redeem`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, ...OWNER }),
  });
  await api('PATCH', '/v1/program', { name: 'Acme Analytics' });
  const partners = [];
  for (const [name, weight] of [
    ['Maya Lindqvist', 5],
    ['Devtools Weekly', 3],
    ['Ravi Shah', 2],
    ['Nordic SaaS Blog', 1],
  ]) {
    const slug = name.toLowerCase().replace(/\W+/g, '.');
    const p = await api('POST', '/v1/partners', { name, email: `${slug}@partners.example`, paypal_email: `pay.${slug}@partners.example` });
    const ps = await api('POST', '/v1/partnerships', { partner_id: p.data.id, state: 'accepted' });
    partners.push({ id: p.data.id, partnershipId: ps.data.id, key: ps.data.attributes.key, weight });
  }
  // Maya's promotion code: on her page in the dashboard, and in her portal under her link with its copy button.
  const discount = await api('POST', '/v1/discounts', {
    name: 'Partners 20 %',
    kind: 'percent',
    amount: 2000,
    duration: { kind: 'forever' },
  });
  await api('POST', '/v1/discount_codes', { partnership_id: partners[0].partnershipId, code: 'MAYA20', discount_id: discount.data.id });
  let n = 0;
  for (let day = 0; day < 60; day++) {
    for (const p of partners) {
      const visits = Math.round(p.weight * (2 + rnd() * 4) * (1 + day / 60));
      for (let v = 0; v < visits; v++) {
        clock.now = end - (60 - day) * DAY + Math.floor(rnd() * DAY);
        const gr = `v${n++}`;
        await api('POST', '/v1/tracking/click', { gr_id: gr, pk: p.key });
        if (rnd() < 0.18) {
          const ref = await api('POST', '/v1/tracking/conversion', { email: `customer${n}@mail.example`, gr_id: gr, pk: p.key });
          if (ref?.data && rnd() < 0.55) {
            await api('POST', '/v1/payments', {
              amount: [2900, 4900, 9900][Math.floor(rnd() * 3)],
              currency: 'USD',
              referral_id: ref.data.id,
              idempotency_key: `inv_${n}`,
            });
          }
        }
      }
    }
  }
  clock.now = end;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
  await page.goto(`${server.url}/dashboard/sign-in`);
  await page.fill('input[name=email]', OWNER.email);
  await page.fill('input[name=password]', OWNER.password);
  await page.click('button[type=submit]');
  await page.waitForSelector('text=Top partners');
  await page.waitForSelector('.chart .plot canvas');
  await page.screenshot({ path: join(DOCS, 'dashboard-overview.png'), fullPage: true });
  await page.click('ol.top-partners a');
  await page.waitForSelector('text=Referral link');
  await page.waitForSelector('code:text-is("MAYA20")');
  await page.waitForSelector('.chart .plot canvas');
  await page.screenshot({ path: join(DOCS, 'dashboard-partner.png'), fullPage: true });

  // The partners' side: the program's public page, and Maya's portal from her invitation.
  await api('PATCH', '/v1/program', {
    slug: 'acme',
    page_enabled: true,
    description: 'Privacy-first analytics for SaaS teams. Tell your readers about us.',
    recurring_months: 12,
    hold_days: 30,
  });
  const partnerPage = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
  await partnerPage.goto(`${server.url}/p/acme/`);
  await partnerPage.waitForSelector('text=What you earn');
  await partnerPage.screenshot({ path: join(DOCS, 'portal-apply.png'), fullPage: true });
  const invitation = await api('POST', `/v1/partners/${partners[0].id}/invitation`);
  await partnerPage.goto(invitation.meta.link.replace(/^https?:\/\/[^/]+/, server.url));
  await partnerPage.fill('input[name=password]', 'a long partner password');
  await partnerPage.click('button[type=submit]');
  await partnerPage.waitForSelector('text=Earnings per click');
  await partnerPage.waitForSelector('.chart .plot canvas');
  await partnerPage.waitForSelector('.codes-card code.promo-code');
  await partnerPage.screenshot({ path: join(DOCS, 'portal-home.png'), fullPage: true });
  await browser.close();
  console.log('wrote docs/dashboard-overview.png, docs/dashboard-partner.png, docs/portal-apply.png and docs/portal-home.png');
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
