// Notifications by e-mail (docs/notifications.md), through a real SMTP server: each kind's
// subject, words and links in both parts, the day's commissions in one digest, one-click
// unsubscribe (RFC 8058), preferences, a server that refuses and then accepts, and the
// claim that keeps two senders off one row (both engines; the rest runs on SQLite).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDue } from '../../packages/collector/src/modules/notifications/repo.js';
import { notice } from '../../packages/collector/src/modules/notifications/derive.js';
import { insert } from '../../packages/collector/src/modules/notifications/repo.js';
import { disable, markFailing } from '../../packages/collector/src/modules/webhooks/repo.js';
import { insertRow } from '../../packages/collector/src/platform/db/rows.js';
import { PUBLIC_URL, seedPartner, startCollector, T0, type Collector } from './harness.js';
import { ownerSession } from './session.js';
import { type Inbox, type Mail, portalLinkIn, read, startSmtp } from './smtp.js';

const SQLITE = (process.env.TALLY_TEST_ENGINE ?? 'sqlite') === 'sqlite';
// The messages are the same on either engine: on PostgreSQL only the claim is registered
// (nothing is skipped, the rest is simply not its tests).
const sqliteOnly = (name: string, body: () => void) => (SQLITE ? describe(name, body) : undefined);

let inbox: Inbox;
let c: Collector;
beforeAll(async () => {
  inbox = await startSmtp();
  c = await startCollector({ smtpUrl: inbox.url });
});
afterAll(async () => {
  await c?.close();
  await inbox?.close();
});

const drain = () => c.running.work.sendMail();
const subject = (m: Mail) => /^Subject: (.*)$/m.exec(m.raw)?.[1];
const ok = async (method: string, path: string, body?: unknown, token?: string) => {
  const reply = await c.call(method, path, { body, token });
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300);
  return reply.body;
};
let n = 0;
/** A program of its own with its public page on, and its owner signed in. */
async function program() {
  const p = await c.otherProgram();
  const slug = `notify-${++n}`;
  await ok('PATCH', '/v1/program', { slug, page_enabled: true, name: `Shop ${n}` }, p.secret);
  const owner = await ownerSession(c, { programId: p.id });
  return { ...p, slug, name: `Shop ${n}`, owner };
}

function expectLetter(m: Mail, words: RegExp, link: string) {
  expect(m.raw).toMatch(/Content-Type: multipart\/alternative/);
  expect(m.raw).toMatch(/Content-Type: text\/plain/);
  expect(m.raw).toMatch(/Content-Type: text\/html/);
  expect(m.text).toMatch(words);
  expect(m.text).toContain(link);
  const headers = m.raw.replace(/\r\n[ \t]+/g, ' ');
  expect(headers).toMatch(/^List-Unsubscribe: <http:\/\/localhost:8787\/v1\/notifications\/unsubscribe\?token=[\w-]+>/m);
  expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
}
const unsubscribeLink = (m: Mail) => /^List-Unsubscribe: <([^>]+)>/m.exec(m.raw.replace(/\r\n[ \t]+/g, ' '))?.[1] ?? '';
/** The portal's preferences, with the session a sign-in or an application answered. */
const portalOf = (signedIn: { headers: Headers }) => {
  const cookie = signedIn.headers
    .getSetCookie()
    .map((x) => x.split(';')[0])
    .join('; ');
  return (method: string, body?: unknown) =>
    c.call(method, '/v1/portal/notifications', { token: null, body, headers: { cookie, origin: c.url } });
};

sqliteOnly('partners hear of their application, referrals, earnings, payouts and codes', () => {
  it('application received, then approved with the link; the owner hears of the application; nothing is sent inside the request', async () => {
    const p = await program();
    inbox.take();
    const applied = await c.call('POST', `/v1/public/programs/${p.slug}/applications`, {
      token: null,
      body: { name: 'Ada', email: 'ada@partners.test', password: 'a long password', note: 'I run a blog' },
    });
    expect(applied.status).toBe(201);
    // The request only wrote the rows: nothing reached the mail server before the sender ran.
    expect(inbox.mails).toHaveLength(0);
    await drain();
    const [received, owner] = [inbox.mails.find((m) => m.to === 'ada@partners.test')!, inbox.mails.find((m) => m.to === p.owner.email)!];
    expect(subject(received)).toBe(`${p.name} received your application`);
    expectLetter(received, /thank you for applying/, `${PUBLIC_URL}/portal/`);
    expect(subject(owner)).toBe(`Ada applied to ${p.name}`);
    expectLetter(owner, /Their note: I run a blog/, `${PUBLIC_URL}/dashboard/partners/`);
    inbox.take();

    await ok('PATCH', `/v1/partnerships/${applied.body.data.id}`, { state: 'accepted' }, p.secret);
    await drain();
    const [approved] = inbox.take();
    expect(subject(approved!)).toBe(`Welcome to the ${p.name} partner program`);
    expectLetter(approved!, /has been approved\. Your referral link is https:\/\/other\.example\/\?red=/, `${PUBLIC_URL}/portal/`);
  });

  it("declined, with the reason, in the partner's language", async () => {
    const p = await program();
    const partner = await ok('POST', '/v1/partners', { name: 'Bea', email: 'bea@partners.test' }, p.secret);
    await c.running.db.run('UPDATE partners SET locale = ? WHERE id = ?', ['de', partner.data.id]);
    const ship = await ok('POST', '/v1/partnerships', { partner_id: partner.data.id, state: 'pending' }, p.secret);
    inbox.take();
    await ok(
      'PATCH',
      `/v1/partnerships/${ship.data.id}`,
      { state: 'declined', decline_reason: 'We only work with video creators.' },
      p.secret,
    );
    await drain();
    const [declined] = inbox.take();
    expect(subject(declined!)).toBe(`Ihre Bewerbung bei ${p.name}`);
    expectLetter(declined!, /wurde abgelehnt\.[\s\S]*Der angegebene Grund: We only work with video creators\./, `${PUBLIC_URL}/portal/`);
  });

  it("the first referral once; the day's commissions in one digest after the day; a code; a payout; a clawback", async () => {
    const p = await program();
    const s = await seedPartner(c, { token: p.secret, email: 'cy@partners.test', paypal_email: 'cy@pay.test' });
    const referralIds: string[] = [];
    for (const buyer of ['one', 'two', 'three']) {
      const conv = await c.call('POST', '/v1/tracking/conversion', {
        body: { email: `${buyer}@buyers.test`, gr_id: `g-${buyer}`, pk: s.key },
        token: p.secret,
      });
      expect(conv.status).toBe(201);
      referralIds.push(conv.body.data.id);
    }
    await drain();
    const first = inbox.take().filter((m) => m.to === 'cy@partners.test');
    expect(first.map(subject)).toEqual([`Your first referral for ${p.name}`]);

    // Three payments on one day: their commissions wait for the day's end, then make one e-mail.
    const payments: string[] = [];
    for (const [i, id] of referralIds.entries()) {
      payments.push(
        (
          await ok(
            'POST',
            '/v1/payments',
            { amount: 10_000 * (i + 1), currency: 'USD', referral_id: id, idempotency_key: `${p.id}-${i}` },
            p.secret,
          )
        ).data.id,
      );
    }
    await drain();
    expect(inbox.mails).toHaveLength(0);
    c.clock.now = Math.floor(c.clock.now / 86_400) * 86_400 + 86_400;
    await drain();
    const digest = inbox.take();
    expect(digest).toHaveLength(1);
    expect(subject(digest[0]!)).toBe(`You earned $120.00 with ${p.name} today (3 commissions)`);
    expectLetter(digest[0]!, /you earned 3 commissions with .*, \$120\.00 in all/, `${PUBLIC_URL}/portal/`);

    await ok('POST', '/v1/discount_codes', { partnership_id: s.partnershipId, code: `CY${n}` }, p.secret);
    await drain();
    expect(inbox.take().map(subject)).toEqual([`Your new code for ${p.name}: CY${n}`]);

    const batches = await ok('POST', '/v1/payout_batches', {}, p.secret);
    await ok('POST', `/v1/payout_batches/${batches.data[0].id}/paid`, undefined, p.secret);
    await drain();
    const [paid] = inbox.take();
    expect(subject(paid!)).toBe(`${p.name} sent you $120.00`);

    await ok('POST', '/v1/refunds', { payment_id: `${p.id}-0` }, p.secret);
    await drain();
    const [clawback] = inbox.take();
    expect(subject(clawback!)).toBe(`A commission from ${p.name} was taken back`);
    expect(clawback!.text).toContain('$20.00');
  });
});

sqliteOnly('unsubscribe and preferences', () => {
  it('GET shows a button and changes nothing; the one-click POST stops that kind only; the preferences show it and turn it on again', async () => {
    const p = await program();
    await c.call('POST', `/v1/public/programs/${p.slug}/applications`, {
      token: null,
      body: { name: 'Dee', email: 'dee@partners.test', password: 'a long password' },
    });
    await drain();
    const mail = inbox.take().find((m) => m.to === 'dee@partners.test')!;
    const link = unsubscribeLink(mail);
    const path = link.slice(PUBLIC_URL.length);

    const shown = await c.call('GET', path, { token: null });
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toMatch(/^text\/html/);
    expect(shown.body, String(shown.body)).toContain('<form method="post"');
    const signIn = await c.call('POST', '/v1/portal/auth/sign_in', {
      token: null,
      body: { email: 'dee@partners.test', password: 'a long password' },
    });
    const portal = portalOf(signIn);
    expect((await portal('GET')).body.data.attributes).toMatchObject({ application_received: true, application_approved: true });

    const posted = await c.call('POST', path, {
      token: null,
      raw: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.status).toBe(200);
    expect((await portal('GET')).body.data.attributes).toMatchObject({ application_received: false, application_approved: true });
    expect((await c.call('POST', '/v1/notifications/unsubscribe?token=not-a-token', { token: null })).status).toBe(404);

    // Stopped kind: nothing; another kind still goes.
    const ship = (await ok('GET', '/v1/partnerships?state_eq=pending', undefined, p.secret)).data[0];
    await ok('PATCH', `/v1/partnerships/${ship.id}`, { state: 'accepted' }, p.secret);
    await drain();
    expect(inbox.take().map(subject)).toEqual([`Welcome to the ${p.name} partner program`]);

    const changed = await portal('PATCH', { application_received: true, first_referral: false });
    expect(changed.body.data.attributes).toMatchObject({ application_received: true, first_referral: false });

    // An owner's own preferences.
    const mine = await p.owner.call('GET', '/v1/notifications/preferences');
    expect(mine.body.data.attributes).toEqual({
      new_application: true,
      webhook_failing: true,
      billing_failing: true,
      review_waiting: true,
      weekly_summary: true,
      payout_run_waiting: true,
      partner_message: true,
      new_submission: true,
      new_lead: true,
      link_waiting: true,
    });
    const off = await p.owner.call('PATCH', '/v1/notifications/preferences', { body: { weekly_summary: false } });
    expect(off.body.data.attributes.weekly_summary).toBe(false);
  });
});

// On both engines: which records are one person is a query of its own.
describe("a partner in two programs: one person's preferences", () => {
  /** One-click, as a mail client unsubscribes. */
  const oneClick = async (m: Mail) => {
    const posted = await c.call('POST', unsubscribeLink(m).slice(PUBLIC_URL.length), {
      token: null,
      raw: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.status).toBe(200);
  };

  it("an unsubscribe through either program's e-mail stops that kind from both, as the portal shows; turned on there, both send it", async () => {
    const [a, b] = [await program(), await program()];
    const email = 'eve@partners.test';
    const apply = async (to: { slug: string }) => {
      const applied = await c.call('POST', `/v1/public/programs/${to.slug}/applications`, {
        token: null,
        body: { name: 'Eve', email, password: 'a long password' },
      });
      expect(applied.status, JSON.stringify(applied.body)).toBe(201);
      return applied;
    };
    const eve = () => inbox.take().filter((m) => m.to === email);
    inbox.take();
    const first = await apply(a);
    await drain();
    const [received] = eve();
    expect(subject(received!)).toBe(`${a.name} received your application`);
    await oneClick(received!);

    // Program B's message of that kind is not sent: the person turned it off.
    await apply(b);
    await drain();
    expect(eve()).toEqual([]);

    const portal = portalOf(first);
    expect((await portal('GET')).body.data.attributes).toMatchObject({ application_received: false, application_approved: true });

    // The other way: B's approval unsubscribed stops A's.
    const shipOf = async (p: { secret: string }) => (await ok('GET', '/v1/partnerships?state_eq=pending', undefined, p.secret)).data[0];
    await ok('PATCH', `/v1/partnerships/${(await shipOf(b)).id}`, { state: 'accepted' }, b.secret);
    await drain();
    const [approved] = eve();
    expect(subject(approved!)).toBe(`Welcome to the ${b.name} partner program`);
    await oneClick(approved!);
    expect((await portal('GET')).body.data.attributes).toMatchObject({ application_received: false, application_approved: false });
    await ok('PATCH', `/v1/partnerships/${(await shipOf(a)).id}`, { state: 'accepted' }, a.secret);
    await drain();
    expect(eve()).toEqual([]);

    // On again in the portal: both programs send it.
    await portal('PATCH', { application_received: true });
    const [c1, c2] = [await program(), await program()];
    await apply(c1);
    await apply(c2);
    await drain();
    expect(eve().map(subject).sort()).toEqual([`${c1.name} received your application`, `${c2.name} received your application`].sort());
  });
});

sqliteOnly("invitations and password resets: the same letter, in the partner's language", () => {
  /** Both parts, in one language: the words, the link (the same in each), the HTML's lang. */
  function expectBoth(m: Mail, lang: string, words: string[]) {
    expect(m.raw).toMatch(/Content-Type: multipart\/alternative/);
    const { text, html } = read(m.raw);
    const link = portalLinkIn(m.raw)!;
    expect(link).toMatch(/^http:\/\/localhost:8787\/portal\/welcome#/);
    expect(text).toContain(link);
    expect(html).toContain(`href="${link}"`);
    expect(html).toMatch(new RegExp(`<html[^>]* lang="${lang}"`));
    for (const w of words) {
      expect(text).toContain(w);
      expect(html).toContain(w);
    }
    // Nothing of the English letter is left.
    expect(text).not.toMatch(/password|Choose/);
    expect(html).not.toMatch(/password|Choose/);
  }

  it('a German invitation to the portal and a French reset arrive with subject, text and HTML in their language', async () => {
    const p = await program();
    const gerd = await ok('POST', '/v1/partners', { name: 'Gerd', email: 'gerd@partners.test' }, p.secret);
    await c.running.db.run('UPDATE partners SET locale = ? WHERE id = ?', ['de', gerd.data.id]);
    inbox.take();
    expect((await ok('POST', `/v1/partners/${gerd.data.id}/invitation`, undefined, p.secret)).meta.emailed).toBe(true);
    await drain();
    const [invitation] = inbox.take();
    expect(invitation!.to).toBe('gerd@partners.test');
    expect(read(invitation!.raw).subject).toBe(`Ihr Partnerportal bei ${p.name}`);
    expectBoth(invitation!, 'de', [`${p.name} lädt Sie in sein Partnerportal ein`, 'Passwort wählen', p.name]);

    const applied = await c.call('POST', `/v1/public/programs/${p.slug}/applications`, {
      token: null,
      body: { name: 'Fanny', email: 'fanny@partners.test', password: 'a long password' },
    });
    expect(applied.status).toBe(201);
    await c.running.db.run('UPDATE partners SET locale = ? WHERE email = ?', ['fr', 'fanny@partners.test']);
    await drain();
    inbox.take();
    const asked = await c.call('POST', '/v1/portal/auth/reset', { token: null, body: { email: 'fanny@partners.test' } });
    expect(asked.status).toBe(202);
    await drain();
    const [reset] = inbox.take();
    expect(reset!.to).toBe('fanny@partners.test');
    expect(read(reset!.raw).subject).toBe('Choisissez un nouveau mot de passe pour votre espace partenaire');
    expectBoth(reset!, 'fr', ['Quelqu’un a demandé un nouveau mot de passe', 'Choisir un nouveau mot de passe']);
  });
});

sqliteOnly('owners', () => {
  it('a weekly summary, once per owner and week, however often the sender looks', async () => {
    const p = await program();
    c.clock.now += 7 * 86_400;
    inbox.take();
    await drain();
    const weekly = inbox.take().filter((m) => m.to === p.owner.email);
    expect(weekly).toHaveLength(1);
    expect(subject(weekly[0]!)).toMatch(new RegExp(`^${p.name}: your week from \\d{4}-\\d{2}-\\d{2} to \\d{4}-\\d{2}-\\d{2}$`));
    expectLetter(weekly[0]!, /Referrals: \d+ \(week before: \d+\)/, `${PUBLIC_URL}/dashboard/`);
    c.clock.now += 3600;
    await drain();
    expect(inbox.take().filter((m) => m.to === p.owner.email)).toHaveLength(0);
  });
});

sqliteOnly('owners hear of failing webhooks and billing, and of money held for review: each once', () => {
  /** The owner's messages whose subject matches, from what arrived (other programs' owners hear of their own). */
  const mine = (p: { owner: { email: string } }, about: RegExp) =>
    inbox.take().filter((m) => m.to === p.owner.email && about.test(subject(m) ?? ''));
  /** The sender's schedule looks again once 10 minutes have passed. */
  const later = async (seconds = 601) => {
    c.clock.now += seconds;
    await drain();
  };
  // An hour into a UTC day: the day's key (billing, review) stays the same while the test runs.
  const startOfADay = () => {
    c.clock.now = Math.floor(c.clock.now / 86_400) * 86_400 + 86_400 + 3600;
  };

  it('an endpoint failing for an hour, once; disabled, once more with the reason', async () => {
    const p = await program();
    const endpoint = (await ok('POST', '/v1/webhook_endpoints', { url: 'https://hooks.invalid/tally' }, p.secret)).data;
    // What the deliverer records as deliveries fail (modules/webhooks/deliver.ts).
    await markFailing(c.running.db, endpoint.id, c.clock.now);
    await later(1800);
    expect(mine(p, /webhook/), 'not before an hour').toHaveLength(0);
    await later(1801);
    const failing = mine(p, /webhook/);
    expect(failing.map(subject)).toEqual([`A webhook endpoint of ${p.name} is failing`]);
    expectLetter(
      failing[0]!,
      /Deliveries to https:\/\/hooks\.invalid\/tally have failed since/,
      `${PUBLIC_URL}/dashboard/settings/webhooks/${endpoint.id}`,
    );
    await later();
    expect(mine(p, /webhook/), 'once').toHaveLength(0);

    await disable(c.running.db, endpoint.id, 'it failed for 3 days', c.clock.now);
    await later();
    const disabled = mine(p, /webhook/);
    expect(disabled).toHaveLength(1);
    expectLetter(
      disabled[0]!,
      /Tally has disabled the endpoint: it failed for 3 days\./,
      `${PUBLIC_URL}/dashboard/settings/webhooks/${endpoint.id}`,
    );
    await later();
    expect(mine(p, /webhook/), 'once').toHaveLength(0);
  });

  it('billing events that failed: one message a day with their count and the last reason', async () => {
    const p = await program();
    startOfADay();
    // The rows an event's internal error leaves (modules/billing/events.ts).
    for (const id of ['evt_1', 'evt_2'])
      await insertRow(c.running.db, 'billing_events', {
        program_id: p.id,
        id,
        platform: 'stripe',
        type: 'invoice.paid',
        livemode: 0,
        platform_created: c.clock.now,
        created_at: c.clock.now,
        processed_at: c.clock.now,
        attempts: 1,
        outcome: 'failed',
        reason: 'an internal error; Stripe will send it again',
        touched: '[]',
        payload: '{}',
      });
    await later();
    const failed = mine(p, /billing/);
    expect(failed.map(subject)).toEqual([`${p.name}: billing events could not be applied`]);
    expectLetter(
      failed[0]!,
      /2 events from stripe could not be applied in the last day; the last one: an internal error; Stripe will send it again\./,
      `${PUBLIC_URL}/dashboard/billing-events?outcome_eq=failed`,
    );
    await later();
    expect(mine(p, /billing/), 'once that day').toHaveLength(0);
  });

  it('conversions held for review: one message that day, counting what waits when it is sent', async () => {
    const p = await program();
    startOfADay();
    const s = await seedPartner(c, { token: p.secret, email: 'hy@partners.test' });
    // A disposable address is held (review's default signals).
    for (const who of ['one', 'two']) {
      const conv = await ok('POST', '/v1/tracking/conversion', { email: `${who}@mailinator.com`, gr_id: `h-${who}`, pk: s.key }, p.secret);
      expect(conv.data.attributes.review).toBe('held');
    }
    await drain();
    const held = mine(p, /held for review/);
    expect(held.map(subject)).toEqual([`${p.name}: money held for review`]);
    expectLetter(
      held[0]!,
      /2 referrals and commissions of .* are held for review and wait for your decision\./,
      `${PUBLIC_URL}/dashboard/review`,
    );
    await ok('POST', '/v1/tracking/conversion', { email: 'three@mailinator.com', gr_id: 'h-three', pk: s.key }, p.secret);
    await later();
    expect(mine(p, /held for review/), 'once that day').toHaveLength(0);
  });
});

sqliteOnly('a mail server that refuses, then accepts', () => {
  it('the message is tried again later and delivered once', async () => {
    const p = await program();
    inbox.take();
    inbox.state.refuse = 451;
    await c.call('POST', `/v1/public/programs/${p.slug}/applications`, {
      token: null,
      body: { name: 'Eve', email: 'eve@partners.test', password: 'a long password' },
    });
    await drain();
    expect(inbox.mails).toHaveLength(0);
    inbox.state.refuse = 0;
    await drain();
    expect(inbox.mails, 'not before its retry is due').toHaveLength(0);
    c.clock.now += 31;
    await drain();
    await drain();
    expect(inbox.take().filter((m) => m.to === 'eve@partners.test')).toHaveLength(1);
  });
});

describe('the claim', () => {
  it('two senders at once take each due row once', async () => {
    const p = await c.otherProgram();
    const db = c.running.db;
    const at = c.clock.now + 10 * 86_400;
    await db.transaction(async (tx) => {
      for (let i = 0; i < 30; i++)
        await insert(tx, notice(p.id, 'code_created', 'partner', 'nobody', `claim-${p.id}-${i}`, {}, at - 1, at));
    });
    const [a, b] = await Promise.all([
      db.transaction((tx) => claimDue(tx, at, at + 30, 20)),
      db.transaction((tx) => claimDue(tx, at, at + 30, 20)),
    ]);
    const ids = [...a, ...b].map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(20);
    expect(T0).toBeLessThan(at);
  });
});

sqliteOnly('a backlog', () => {
  it('a message unsent a week after its change is left unsent: SMTP_URL set late sends no old news', async () => {
    const p = await program();
    const s = await seedPartner(c, { token: p.secret, email: 'old-news@partners.test' });
    await ok('POST', '/v1/discount_codes', { partnership_id: s.partnershipId, code: `OLD${n}` }, p.secret);
    await ok('POST', '/v1/discount_codes', { partnership_id: s.partnershipId, code: `NEW${n}` }, p.secret);
    // The first code's message waited eight days (no mail server yet), the second's one.
    await c.running.db.run("UPDATE notifications SET created_at = created_at - ? WHERE data LIKE ? AND state = 'pending'", [
      8 * 86_400,
      `%OLD${n}%`,
    ]);
    await c.running.db.run("UPDATE notifications SET created_at = created_at - ? WHERE data LIKE ? AND state = 'pending'", [
      86_400,
      `%NEW${n}%`,
    ]);
    await drain();
    expect(inbox.take().map(subject)).toEqual([`Your new code for ${p.name}: NEW${n}`]);
    const left = await c.running.db.all<{ state: string }>('SELECT state FROM notifications WHERE data LIKE ?', [`%OLD${n}%`]);
    expect(left.map((r) => r.state)).toEqual(['skipped']);
  });
});

sqliteOnly('without SMTP', () => {
  it('nothing sends them, so the hourly purge deletes the rows past their 90 days and keeps the younger', async () => {
    const bare = await startCollector();
    try {
      const db = bare.running.db;
      const old = notice(bare.programId, 'code_created', 'partner', 'nobody', 'prune-old', {}, bare.clock.now);
      const young = notice(bare.programId, 'code_created', 'partner', 'nobody', 'prune-young', {}, bare.clock.now + 86_400);
      await insert(db, old);
      await insert(db, young);
      bare.clock.now += 90 * 86_400 + 1;
      await bare.running.work.purge();
      const left = await db.all<{ id: string }>('SELECT id FROM notifications');
      expect(left.map((r) => r.id)).toEqual([young.id]);
    } finally {
      await bare.close();
    }
  });
});

describe('every kind has its name in every language', () => {
  it('the unsubscribe line and the preferences read `kinds.<kind>`: a kind without one would show the key', async () => {
    const { OWNER_KINDS, PARTNER_KINDS } = await import('../../packages/collector/src/modules/notifications/kinds.js');
    for (const lang of ['en', 'de', 'fr', 'es']) {
      const words = (await import(`../../packages/collector/src/modules/notifications/locales/${lang}.ts`)).default as {
        kinds: Record<string, string>;
      };
      const missing = [...PARTNER_KINDS, ...OWNER_KINDS].filter((k) => typeof words.kinds[k] !== 'string' || !words.kinds[k]);
      expect(missing, `${lang}.ts`).toEqual([]);
    }
  });
});
