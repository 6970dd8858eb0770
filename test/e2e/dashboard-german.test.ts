// The dashboard in German, in Chromium (docs/languages.md): an owner who chose Deutsch in
// the header reads the shell, the pages (the groups' with their reward editor, the settings'
// sections with Security, the payouts', the review queue and the audit log too), money and
// dates in German, after a reload too, and "Your browser's language" gives the choice back to
// an English browser; an owner with a German browser and no choice reads German from the
// sign-in page on. axe-core clean.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedPartner, axeFindings, bodyText, choose, dashboardStack, OWNER, signInFirst, waitForText } from './dashboard.js';
import { consoleProblems } from './driver.js';

let stack: Awaited<ReturnType<typeof dashboardStack>>;
let url: string;
let page: Page;

beforeAll(async () => {
  stack = await dashboardStack();
  ({ url, page } = stack);
  const maya = await acceptedPartner(stack.api, 'Maya');
  await stack.api('POST', '/v1/commissions', { partner_id: maya.id, amount: 1500, currency: 'USD' });
});
afterAll(() => stack?.close());

const lang = (p: Page) => p.evaluate(() => document.documentElement.lang);
const sessionLocale = (p: Page) => p.evaluate(async () => (await (await fetch('/v1/auth/session')).json()).data.attributes.locale);
// A date with its time as German writes it (Intl's medium style): "03.12.2026, 14:05".
const GERMAN_DATE = /\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}/;

describe('the dashboard in German', () => {
  it('an owner who chose Deutsch reads it in German, money and dates too, after a reload; their browser’s gives it back', async () => {
    await signInFirst(page, stack.collector.server.firstSignInLink!);
    await waitForText(page, 'Overview');
    expect(await lang(page)).toBe('en');
    await choose(page, 'Language', 'de');
    await waitForText(page, 'Übersicht');
    expect(await lang(page)).toBe('de');
    expect(await sessionLocale(page)).toBe('de');
    const shell = await bodyText(page);
    for (const word of ['Partner', 'Empfehlungen', 'Provisionen', 'Auszahlungen', 'Einstellungen', 'Abmelden'])
      expect(shell).toContain(word);
    // The page under the shell too, its shared pieces (the range) and its money.
    await waitForText(page, 'Derzeit geschuldet');
    await waitForText(page, 'Letzte 30 Tage');
    expect(await bodyText(page)).toContain('15,00\u00a0$');
    expect(await page.title()).toBe('Tally Dashboard');
    expect(await axeFindings(page)).toEqual([]);

    // The groups' pages bring their words too: the list, a group's page and its reward editor.
    await page.goto(`${url}/dashboard/groups`);
    await waitForText(page, 'Bisher nur die Standardgruppe');
    expect(await page.locator('table').innerText()).toContain('Bewerbungen');
    await page.click('td a[href^="/dashboard/groups/"]');
    await waitForText(page, 'Wechselregeln');
    await page.click('button:text-is("Vergütung hinzufügen")');
    await waitForText(page, 'Welche Zahlungen sie erbringen');
    expect(await axeFindings(page)).toEqual([]);

    // A page loaded later brings its words; the choice is the account's, so a reload keeps it.
    await page.goto(`${url}/dashboard/commissions`);
    await waitForText(page, 'Als ausgezahlt markieren');
    const table = await page.locator('table').innerText();
    expect(table).toContain('15,00\u00a0$');
    expect(table).toContain('ausstehend');
    expect(table).toMatch(GERMAN_DATE);
    expect(await lang(page)).toBe('de');
    expect(await axeFindings(page)).toEqual([]);

    // The settings bring their words too: each section, its tables' dates and the API's words in German.
    await page.goto(`${url}/dashboard/settings/program`);
    await waitForText(page, 'Provisionssatz, %');
    await waitForText(page, 'Rechnungsangaben');
    expect(await page.locator('nav.sections').innerText()).toContain('Integrationen');
    await page.goto(`${url}/dashboard/settings/api-tokens`);
    await waitForText(page, 'Neuer geheimer Token');
    const tokens = await page.locator('table').innerText();
    expect(tokens).toContain('geheim');
    expect(tokens).toMatch(GERMAN_DATE);
    await page.goto(`${url}/dashboard/settings/integrations`);
    await waitForText(page, 'Nicht verbunden');
    await waitForText(page, 'Signaturgeheimnis');
    await page.goto(`${url}/dashboard/settings/webhooks`);
    await waitForText(page, 'Noch keine Webhook-Endpunkte');
    expect(await axeFindings(page)).toEqual([]);
    // Security: the second factors and the team's rule, the passkey's button in the page's language too.
    await page.goto(`${url}/dashboard/settings/security`);
    // Each part of a page loads on its own: every phrase is waited for, not read at once.
    await waitForText(
      page,
      'Authenticator-App hinzufügen',
      'Sicherheit',
      'Ein zweiter Faktor',
      'Passkey hinzufügen',
      'Das Team',
      'Regel des Teams speichern',
    );
    expect(await bodyText(page)).not.toContain('Add an authenticator app');
    expect(await axeFindings(page)).toEqual([]);

    // The audit log: its headings, who acted in words and its dates in German; the API's actions as recorded.
    await page.goto(`${url}/dashboard/audit`);
    await waitForText(page, 'Jede Änderung Ihres Teams');
    const log = await page.getByRole('table', { name: 'Änderungsprotokoll' }).innerText();
    for (const words of ['Wann', 'Wer', 'Aktion', 'Änderungen', 'API-Token', 'partner.create']) expect(log).toContain(words);
    expect(log).toMatch(GERMAN_DATE);
    expect(log).toMatch(/\d+ Felder?\b/);
    await waitForText(page, 'CSV herunterladen');
    expect(await bodyText(page)).not.toContain('Every change made');
    expect(await axeFindings(page)).toEqual([]);

    // The payouts and the review queue, each a chunk with its own words: their headings, empty states and money in German.
    await page.goto(`${url}/dashboard/payouts`);
    await waitForText(
      page,
      'Auszahlungsläufe',
      'Noch keine Auszahlungsläufe',
      'Auszahlungslauf erstellen',
      'PayPal-Datei exportieren',
      'Derzeit geschuldet',
      'Noch keine Gutschriften',
      '15,00\u00a0$',
    );
    expect(await bodyText(page)).not.toContain('Payout runs');
    expect(await axeFindings(page)).toEqual([]);
    await page.goto(`${url}/dashboard/review`);
    await waitForText(
      page,
      'Nichts wird zur Prüfung zurückgehalten',
      'Zurückgehalten',
      'Entschieden',
      'Prüfsignale',
      'Keine Provision wird zurückgehalten.',
    );
    expect(await bodyText(page)).not.toContain('Held commissions');
    expect(await axeFindings(page)).toEqual([]);

    await page.goto(`${url}/dashboard/commissions`);
    await waitForText(page, 'Als ausgezahlt markieren');
    await choose(page, 'Sprache', '');
    await waitForText(page, 'Mark paid');
    expect(await lang(page)).toBe('en');
    expect(await sessionLocale(page)).toBeNull();
    expect(await page.locator('table').innerText()).toContain('$15.00');
  });

  it('an owner with a German browser and no choice reads German from the first page', async () => {
    const context = await stack.browser.newContext({ locale: 'de-DE' });
    const german = await context.newPage();
    const problems = consoleProblems(german);
    try {
      await german.goto(`${url}/dashboard/sign-in`);
      // Signed out there is no owner's choice: the sign-in page speaks the browser's language.
      await waitForText(german, 'Passwort vergessen?');
      await waitForText(german, 'Mit einem Passkey anmelden');
      const signIn = await bodyText(german);
      for (const words of ['Anmelden', 'Noch kein Konto?', 'npx tally users invite']) expect(signIn).toContain(words);
      expect(signIn).not.toContain('Forgot your password?');
      expect(await lang(german)).toBe('de');
      expect(await axeFindings(german)).toEqual([]);
      await german.fill('input[name=email]', OWNER.email);
      await german.fill('input[name=password]', OWNER.password);
      await german.click('button[type=submit]');
      await german.waitForURL('**/dashboard/');
      // No choice on the account (the test before gave it back; asked again so this test stands alone).
      await german.evaluate(() =>
        fetch('/v1/auth/account', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"locale":null}' }),
      );
      await german.reload();
      await waitForText(german, 'Übersicht');
      expect(await lang(german)).toBe('de');
      expect(await sessionLocale(german)).toBeNull();
      await german.goto(`${url}/dashboard/partners`);
      await waitForText(german, 'Nach Namen suchen');
      await waitForText(german, 'Maya');
      expect(await german.locator('table').innerText()).toContain('15,00\u00a0$');
      expect(await axeFindings(german)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
