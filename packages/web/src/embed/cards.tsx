// What the embed shows of the partner's records: the link (or why there is none), the
// promotion codes, the figures for a range (clicks, referrals, paying customers, earned),
// and the earnings per currency with what the next payout pays, or why it pays nothing.

import type { ComponentChildren } from 'preact';
import { api } from '../common/api.js';
import { CodeList, useEveryCode } from '../common/code-list.js';
import { dateTime, int, money, moneyMap } from '../common/format.js';
import { RangePicker, statsQuery, useRange } from '../common/range.js';
import { useLoad } from '../common/use-api.js';
import { CopyButton, Show } from '../common/ui.js';
import { t } from './language.js';
import { auth, type Partnership } from './session.js';

export function LinkCard({ p }: { p: Partnership }) {
  const { state, referral_link: link, key, program_name: program } = p.attributes;
  return (
    <section class="panel" aria-labelledby="link-title">
      <h2 id="link-title">{t('link.title')}</h2>
      {state === 'accepted' && link ? (
        <>
          <p class="copy-row">
            <code class="referral-link">{link}</code> <CopyButton text={link} label={t('link.copy')} />
          </p>
          <p class="hint">{t('link.anyPage', { key: key ?? '' })}</p>
        </>
      ) : (
        <p role="status">{t(state === 'declined' ? 'link.declined' : 'link.pending', { program })}</p>
      )}
    </section>
  );
}

export function Codes() {
  // Every page of them, as the portal shows them: a partner may have more than one page of codes.
  const loaded = useEveryCode(
    (after, signal) => api.GET('/v1/embed/codes', { ...auth(), params: { query: { per_page: 50, starting_after: after } }, signal }),
    'codes',
  );
  const on = loaded.data?.filter((c) => c.attributes.enabled) ?? [];
  if (on.length === 0) return null;
  return (
    <section class="panel" aria-labelledby="codes-title">
      <h2 id="codes-title">{t('codes.title')}</h2>
      <CodeList codes={on} copy={(code) => t('codes.copy', { code })} share={(code) => t('codes.share', { code })} />
    </section>
  );
}

/** One figure: its name, its value, and a sentence under it. */
function Figure({ label, value, wide, children }: { label: string; value: string; wide?: boolean; children?: ComponentChildren }) {
  return (
    <div class={wide ? 'figure wide' : 'figure'}>
      <dt>{label}</dt>
      <dd>
        <span class="value">{value}</span>
        {children}
      </dd>
    </div>
  );
}

export function Figures() {
  const picked = useRange();
  const { range } = picked;
  const stats = useLoad(
    (signal) => api.GET('/v1/embed/stats', { ...auth(), params: { query: statsQuery(range, { interval: range.interval }) }, signal }),
    `${range.from}/${range.to}`,
  );
  return (
    <section class="panel" aria-labelledby="figures-title">
      <h2 id="figures-title">{t('figures.title')}</h2>
      <RangePicker {...picked} />
      <Show loaded={stats}>
        {({ data: { attributes: s } }) => (
          <dl class="figures">
            <Figure label={t('figures.clicks')} value={int(s.totals.clicks)} />
            <Figure label={t('figures.referrals')} value={int(s.totals.referrals)} />
            <Figure label={t('figures.customers')} value={int(s.totals.customers)} />
            <Figure label={t('figures.earned')} value={moneyMap(s.totals.commissions)} />
          </dl>
        )}
      </Show>
    </section>
  );
}

type Earnings = Partnership['attributes']['earnings'][string];

/** What the next payout pays in a currency, in words: the API's reason when it pays nothing of what is payable. */
function nextPayoutWords(e: Earnings, currency: string): string {
  const { amount, reason, minimum } = e.next_payout;
  const payable = money(e.payable, currency);
  const words = reason
    ? t(`payout.${reason}`, { payable, minimum: money(minimum, currency) })
    : t(amount > 0 ? 'payout.next' : 'payout.nothing');
  return e.next_payable_at ? `${words} ${t('payout.later', { date: dateTime(e.next_payable_at) })}` : words;
}

export function Money({ p }: { p: Partnership }) {
  const rows = Object.entries(p.attributes.earnings);
  return (
    <section class="panel" aria-labelledby="money-title">
      <h2 id="money-title">{t('money.title')}</h2>
      {rows.length === 0 ? (
        <p class="hint">{t('money.none')}</p>
      ) : (
        rows.map(([currency, e]) => (
          <dl class="figures" key={currency}>
            <Figure label={t('money.pending', { currency })} value={money(e.pending, currency)} />
            <Figure label={t('money.paid', { currency })} value={money(e.paid, currency)} />
            <Figure label={t('money.next', { currency })} value={money(e.next_payout.amount, currency)} wide>
              <span class="hint">{nextPayoutWords(e, currency)}</span>
            </Figure>
          </dl>
        ))
      )}
    </section>
  );
}
