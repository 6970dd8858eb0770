// What each kind of notification says, made when it is sent from the row and what the
// database holds then: the recipient, their language, the words, and the page that shows
// more. Undefined: nothing to send (the partner has gone, the referral was not the first).

import type { TFunction } from 'i18next';
import type { Tx } from '../platform/db/db.js';
import { type Locale, localeOf } from '../core/locale.js';
import { majorUnits } from '../core/money.js';
import * as partners from '../modules/partners/repo.js';
import * as partnerships from '../modules/partnerships/repo.js';
import { referralLink } from '../modules/partnerships/present.js';
import * as programs from '../modules/programs/repo.js';
import type { ProgramRow } from '../modules/programs/model.js';
import { statsSeries } from '../modules/stats/service.js';
import * as runs from '../modules/payout-runs/repo.js';
import * as leads from '../modules/leads/repo.js';
import { translate } from '../modules/notifications/i18n.js';
import * as repo from '../modules/notifications/repo.js';
import type { NotificationRow } from '../modules/notifications/repo.js';
import type { Draft } from '../modules/notifications/letter.js';

type Data = Record<string, unknown>;
interface Context {
  tx: Tx;
  row: NotificationRow;
  data: Data;
  program: ProgramRow;
  now: number;
}

const money = (amount: number, currency: string, locale: Locale): string =>
  new Intl.NumberFormat(locale, { style: 'currency', currency }).format(Number(majorUnits(amount, currency)));
const date = (unix: number, locale: Locale): string =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(unix * 1000));

/** The words of a partner's message, given their name, language and `t`. */
type PartnerWords = (
  c: Context & { name: string; locale: Locale; t: TFunction },
) => Promise<Omit<Draft, 'to' | 'personId' | 'locale' | 'program' | 'path'> | undefined>;

const PORTAL = '/portal/';

/** A bounty's message: its name and reward, and a rejection's reason. */
function bountyWords(subject: string, body: string): PartnerWords {
  return async ({ t, name, locale, program, data }) => {
    const v = {
      name,
      program: program.name,
      bounty: data.bounty,
      amount: money(Number(data.amount), String(data.currency), locale),
      reason: data.reason,
    };
    return { subject: t(subject, v), paragraphs: [t(body, v)] };
  };
}

const partnerWords: Record<string, PartnerWords> = {
  async application_received({ t, name, program }) {
    const v = { name, program: program.name };
    return { subject: t('application_received.subject', v), paragraphs: [t('application_received.body', v)] };
  },
  async application_approved({ t, name, program, tx, data }) {
    const p = await partnerships.get(tx, program.id, String(data.partnership_id));
    const v = { name, program: program.name, link: p ? referralLink(program.site_url, p.key) : program.site_url };
    return { subject: t('application_approved.subject', v), paragraphs: [t('application_approved.body', v)] };
  },
  async application_declined({ t, name, program, data }) {
    const v = { name, program: program.name, reason: data.reason };
    const reason = data.reason ? [t('application_declined.reason', v)] : [];
    return { subject: t('application_declined.subject', v), paragraphs: [t('application_declined.body', v), ...reason] };
  },
  async first_referral({ t, name, program, tx, data }) {
    // Still the partnership's first: a later referral's row (after the first's was pruned) sends nothing.
    if ((await repo.firstReferralOf(tx, String(data.partnership_id))) !== data.referral_id) return undefined;
    const v = { name, program: program.name };
    return { subject: t('first_referral.subject', v), paragraphs: [t('first_referral.body', v)] };
  },
  async commission_digest({ t, name, locale, program, tx, row, data }) {
    const day = Number(data.day);
    const earned = await repo.commissionsOfDay(tx, program.id, row.recipient_id ?? '', day, day + 86_400);
    const count = earned.reduce((n, e) => n + Number(e.n), 0);
    if (count === 0) return undefined;
    const total = earned.map((e) => money(Number(e.amount), e.currency, locale)).join(' + ');
    const v = { name, program: program.name, count, total, day: date(day, locale) };
    return { subject: t('commission_digest.subject', v), paragraphs: [t('commission_digest.body', v)] };
  },
  async payout_sent({ t, name, locale, program, data }) {
    const v = { name, program: program.name, amount: money(Number(data.amount), String(data.currency), locale), count: Number(data.count) };
    return { subject: t('payout_sent.subject', v), paragraphs: [t('payout_sent.body', v)] };
  },
  async clawback({ t, name, locale, program, data }) {
    const v = { name, program: program.name, amount: money(Math.abs(Number(data.amount)), String(data.currency), locale) };
    return { subject: t('clawback.subject', v), paragraphs: [t('clawback.body', v)] };
  },
  async code_created({ t, name, program, data }) {
    const v = { name, program: program.name, code: data.code };
    return { subject: t('code_created.subject', v), paragraphs: [t('code_created.body', v)] };
  },
  async message_waiting({ t, name, program, tx, data }) {
    // Read since it was written: nothing waits any more.
    const thread = await repo.messageThread(tx, String(data.thread_id));
    const body = thread && thread.partner_unread > 0 ? await repo.latestMessage(tx, String(data.thread_id), 'team') : undefined;
    if (body === undefined) return undefined;
    const v = { name, program: program.name };
    return { subject: t('message_waiting.subject', v), paragraphs: [t('message_waiting.body', v), body, t('message_waiting.answer', v)] };
  },
  bounty_awarded: bountyWords('bounty_awarded.subject', 'bounty_awarded.body'),
  submission_approved: bountyWords('submission_approved.subject', 'submission_approved.body'),
  submission_rejected: bountyWords('submission_rejected.subject', 'submission_rejected.body'),
  async lead_stage({ t, name, program, tx, data }) {
    // The lead as it is now: erased, or moved on again, it tells of the stage it reached.
    const lead = await leads.get(tx, program.id, String(data.lead_id));
    if (!lead || lead.stage === 'new') return undefined;
    const v = { name, program: program.name, lead: lead.name, reason: lead.lost_reason };
    const reason = lead.lost_reason ? [t('lead_stage.reason', v)] : [];
    return { subject: t('lead_stage.subject', v), paragraphs: [t(`lead_stage.${lead.stage}`, v), ...reason] };
  },
  async new_recruit({ t, name, program, tx, data }) {
    const recruit = await partners.get(tx, program.id, String(data.recruit_partner_id));
    if (!recruit) return undefined;
    const v = { name, program: program.name, recruit: recruit.name };
    return { subject: t('new_recruit.subject', v), paragraphs: [t('new_recruit.body', v)] };
  },
  async link_approved({ t, name, program, data }) {
    const v = { name, program: program.name, key: data.key };
    return { subject: t('link_approved.subject', v), paragraphs: [t('link_approved.body', v)] };
  },
};

/** The words of an owner's message (English, as the dashboard), and the dashboard's page. */
type OwnerWords = (c: Context & { t: TFunction }) => Promise<Pick<Draft, 'subject' | 'paragraphs' | 'path'> | undefined>;

const ownerWords: Record<string, OwnerWords> = {
  async link_waiting({ t, program, tx, data }) {
    const p = await partnerships.get(tx, program.id, String(data.partnership_id));
    const partner = p && (await partners.get(tx, program.id, p.partner_id));
    if (!partner) return undefined;
    const v = { name: partner.name, email: partner.email, program: program.name, key: data.key };
    return { subject: t('link_waiting.subject', v), paragraphs: [t('link_waiting.body', v)], path: `/dashboard/partners/${partner.id}` };
  },
  async new_application({ t, program, tx, data }) {
    const p = await partnerships.get(tx, program.id, String(data.partnership_id));
    const partner = p && (await partners.get(tx, program.id, p.partner_id));
    if (!p || !partner || p.state !== 'pending') return undefined;
    const v = { name: partner.name, email: partner.email, program: program.name, note: p.application_note };
    const note = p.application_note ? [t('new_application.note', v)] : [];
    return {
      subject: t('new_application.subject', v),
      paragraphs: [t('new_application.body', v), ...note],
      path: `/dashboard/partners/${partner.id}`,
    };
  },
  async new_lead({ t, program, tx, data }) {
    const lead = await leads.get(tx, program.id, String(data.lead_id));
    const partner = lead && (await partners.get(tx, program.id, lead.partner_id));
    if (!lead || !partner) return undefined;
    const v = { partner: partner.name, program: program.name, name: lead.name, email: lead.email, company: lead.company ?? '—' };
    return { subject: t('new_lead.subject', v), paragraphs: [t('new_lead.body', v)], path: '/dashboard/leads?stage=new' };
  },
  async webhook_failing({ t, program, data }) {
    const v = { program: program.name, url: data.url, since: date(Number(data.since), 'en'), reason: data.reason };
    const disabled = data.reason ? [t('webhook_failing.disabled', v)] : [];
    return {
      subject: t('webhook_failing.subject', v),
      paragraphs: [t('webhook_failing.body', v), ...disabled],
      path: `/dashboard/settings/webhooks/${String(data.endpoint_id)}`,
    };
  },
  async billing_failing({ t, program, data }) {
    const v = { program: program.name, count: Number(data.count), platform: data.platform, reason: data.reason ?? 'unknown' };
    return {
      subject: t('billing_failing.subject', v),
      paragraphs: [t('billing_failing.body', v)],
      path: '/dashboard/billing-events?outcome_eq=failed',
    };
  },
  async review_waiting({ t, program, tx }) {
    const count = await repo.heldCount(tx, program.id);
    if (count === 0) return undefined;
    const v = { program: program.name, count };
    return { subject: t('review_waiting.subject', v), paragraphs: [t('review_waiting.body', v)], path: '/dashboard/review' };
  },
  async payout_run_waiting({ t, program, tx, data }) {
    // Approved, sent or gone meanwhile: nothing waits any more.
    const run = await runs.getRun(tx, program.id, String(data.run_id));
    if (run?.state !== 'draft') return undefined;
    const items = await runs.itemsOf(tx, run.id);
    const sums = new Map<string, number>();
    for (const i of items) sums.set(i.currency, (sums.get(i.currency) ?? 0) + i.amount);
    const total = [...sums].map(([c, a]) => money(a, c, 'en')).join(' + ');
    const v = { program: program.name, count: items.length, total, period: data.period };
    return {
      subject: t('payout_run_waiting.subject', v),
      paragraphs: [t('payout_run_waiting.body', v)],
      path: '/dashboard/payouts',
    };
  },
  async partner_message({ t, program, tx, data }) {
    const threadId = String(data.thread_id);
    const thread = await repo.messageThread(tx, threadId);
    const body = thread && thread.team_unread > 0 ? await repo.latestMessage(tx, threadId, 'partner') : undefined;
    const partner = thread && (await partners.get(tx, program.id, thread.partner_id));
    if (body === undefined || !partner) return undefined;
    const v = { name: partner.name, email: partner.email, program: program.name };
    return {
      subject: t('partner_message.subject', v),
      paragraphs: [t('partner_message.body', v), body],
      path: `/dashboard/messages/${threadId}`,
    };
  },
  async new_submission({ t, program, data }) {
    const v = { program: program.name };
    return {
      subject: t('new_submission.subject', v),
      paragraphs: [t('new_submission.body', v)],
      path: `/dashboard/bounties/${String(data.bounty_id)}`,
    };
  },
  async weekly_summary({ t, program, tx, data }) {
    const from = String(data.from);
    const to = String(data.to);
    const before = String(data.before);
    const series = await statsSeries(tx, program.id, { from: before, to, tz: 'UTC', interval: 'week' });
    const [last, week] = [series.periods[0], series.periods[1]];
    if (!last || !week) return undefined;
    const sum = (m: Record<string, number>) =>
      Object.entries(m)
        .map(([c, a]) => money(a, c, 'en'))
        .join(' + ') || '0';
    const line = (label: string, value: string, was: string) => t('weekly_summary.line', { label, value, before: was });
    const v = { program: program.name, from, to };
    return {
      subject: t('weekly_summary.subject', v),
      paragraphs: [
        t('weekly_summary.intro', v),
        line(t('weekly_summary.clicks'), String(week.clicks), String(last.clicks)),
        line(t('weekly_summary.referrals'), String(week.referrals), String(last.referrals)),
        line(t('weekly_summary.customers'), String(week.customers), String(last.customers)),
        line(t('weekly_summary.revenue'), sum(week.revenue), sum(last.revenue)),
        line(t('weekly_summary.commissions'), sum(week.commissions), sum(last.commissions)),
      ],
      path: '/dashboard/',
    };
  },
};

/** The message of `row` to its person, in their language; undefined when there is nothing to send. */
export async function compose(tx: Tx, row: NotificationRow, now: number): Promise<Draft | undefined> {
  const program = await programs.get(tx, row.program_id);
  if (!program) return undefined;
  const c: Context = { tx, row, data: JSON.parse(row.data) as Data, program, now };
  if (row.audience === 'partner') {
    const partnerId = row.recipient_id ?? (await partnerships.get(tx, program.id, String(c.data.partnership_id)))?.partner_id;
    const partner = partnerId ? await partners.get(tx, program.id, partnerId) : undefined;
    if (!partner) return undefined;
    const locale = localeOf(partner.locale) ?? localeOf(program.locale) ?? 'en';
    const words = await partnerWords[row.kind]?.({
      ...c,
      row: { ...row, recipient_id: partner.id },
      name: partner.name,
      locale,
      t: translate(locale),
    });
    return words && { ...words, to: partner.email, personId: partner.id, locale, program, path: PORTAL };
  }
  const owner = row.recipient_id ? await repo.ownerEmail(tx, row.recipient_id, program.id) : undefined;
  if (!owner) return undefined;
  const words = await ownerWords[row.kind]?.({ ...c, t: translate('en') });
  return words && { ...words, to: owner, personId: row.recipient_id ?? '', locale: 'en', program };
}
