// A group's rewards in the partner's language (issue 42): the German portal said them in
// the API's English. The portal and the public page now say each reward from its terms,
// in German, French or Spanish, and no English sentence of the API is left on the page.

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedPartner, apiWith, bodyText, redeemLink, waitForText, type Api } from './dashboard.js';
import { launchChromium, startDemoCollector } from './stack.js';

let browser: Browser;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let url: string;
let api: Api;
/** Every reward of the program as the API says it, in English. */
let english: string[];

beforeAll(async () => {
  browser = await launchChromium();
  collector = await startDemoCollector();
  url = collector.server.url;
  api = apiWith(url, collector.server.firstProgram!.tokens.secret);
  await api('PATCH', '/v1/program', { slug: 'acme', page_enabled: true });
  const group = (await api('GET', '/v1/groups?slug_eq=default')).data[0].id;
  await api('POST', `/v1/groups/${group}/rewards`, {
    event: 'sale',
    kind: 'percentage',
    amount: 5000,
    duration: { kind: 'months', months: 12 },
    conditions: {
      op: 'and',
      items: [
        { field: 'product_id', op: 'eq', value: 'prod_pro' },
        { field: 'customer_country', op: 'in', value: ['DE', 'FR'] },
      ],
    },
  });
  await api('POST', `/v1/groups/${group}/rewards`, { event: 'lead', kind: 'flat', amount: 250, currency: 'EUR' });
  english = (await api('GET', `/v1/rewards?group_id_eq=${group}`)).data.map((r: any) => r.attributes.description as string);
  expect(english).toHaveLength(3);
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
});

/** The English sentences of `english` the page shows. */
const englishOn = async (text: string) => english.filter((sentence) => text.includes(sentence));

describe("a group's rewards in the partner's language", () => {
  it("the German portal's home says each reward in German, and none of the API's English sentences", async () => {
    const maria = await acceptedPartner(api, 'Maria');
    const link = (await api('POST', `/v1/partners/${maria.id}/invitation`)).meta.link as string;
    const portal = await (await browser.newContext()).newPage();
    try {
      await redeemLink(portal, link, 'ein langes Passwort von Maria');
      // Maria chooses German, as the language select in Settings saves it.
      const chose = await portal.evaluate(async () => {
        const res = await fetch('/v1/portal/account', {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ locale: 'de' }),
        });
        return res.status;
      });
      expect(chose).toBe(200);
      await portal.reload();
      await waitForText(portal, 'Was Sie verdienen');
      await waitForText(portal, '50 % jeder Zahlung, 12 Monate lang, wenn das Produkt prod_pro ist und das Land des Kunden DE oder FR ist');
      await waitForText(portal, '2,50\u00a0€ je Anmeldung'); // Intl's space before the sign does not break
      const text = await bodyText(portal);
      expect(await englishOn(text)).toEqual([]);
      expect(text).not.toMatch(/ of each payment| per sign-up|, when /);
    } finally {
      await portal.context().close();
    }
  });

  it('the public page says them in French to a French browser, in Spanish to a Spanish one', async () => {
    for (const [locale, sentence] of [
      ['fr-FR', '50 % de chaque paiement pendant 12 mois, si le produit est prod_pro et le pays du client est DE ou FR'],
      ['es-ES', '50 % de cada pago durante 12 meses, si el producto es prod_pro y el país del cliente es DE o FR'],
    ] as const) {
      const visitor = await (await browser.newContext({ locale })).newPage();
      try {
        await visitor.goto(`${url}/p/acme/`);
        await waitForText(visitor, sentence);
        expect(await englishOn(await bodyText(visitor)), locale).toEqual([]);
      } finally {
        await visitor.context().close();
      }
    }
  });

  it('an English browser reads the sentence the API writes', async () => {
    const conditional = english.find((s) => s.includes('prod_pro'))!;
    const visitor = await (await browser.newContext({ locale: 'en-US' })).newPage();
    try {
      await visitor.goto(`${url}/p/acme/`);
      await waitForText(visitor, conditional);
    } finally {
      await visitor.context().close();
    }
  });
});
