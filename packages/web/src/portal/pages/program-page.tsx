// A program's public page, /p/<slug>/: what it pays and on which terms, its partner groups
// that take applications, and the form to apply; each group's own page, /p/<slug>/<group>/,
// with its rewards in words and the form that joins it. The applicant is signed in to the
// portal at once, where they see the outcome.

import { useLocation } from 'preact-iso/router';
import { api, type Answer } from '../../common/api.js';
import { Card, text, useSubmit } from '../../common/forms.js';
import { minimumsText, percent } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Failure, Show } from '../../common/ui.js';
import { href } from '../session.js';

type Terms = { commission_rate_bps: number; recurring_months: number; hold_days: number; minimum_payout: Record<string, number> };

/** The terms in words a partner reads in one go. */
function termsOf(t: Terms): string[] {
  return [
    `${percent(t.commission_rate_bps / 10000)} of every payment of the customers you refer`,
    t.recurring_months === 0
      ? 'for as long as they pay'
      : `for their first ${t.recurring_months} month${t.recurring_months === 1 ? '' : 's'}`,
    t.hold_days === 0 ? 'payable at the next payout' : `payable ${t.hold_days} days after each payment`,
    Object.keys(t.minimum_payout).length === 0
      ? 'paid by PayPal, any amount'
      : `paid by PayPal from ${minimumsText(t.minimum_payout).replace(/\n/g, ', ')}`,
  ];
}

type Page = Answer<'/v1/public/programs/{slug}'>['data']['attributes'];
type OpenGroup = Page['groups'][number];

/** The groups a program's page lists, each with its rewards and its own page; left out when the one group says no more than the terms. */
function Groups({ slug, p }: { slug: string; p: Page }) {
  if (p.groups.length < 2 && (p.groups[0]?.rewards.length ?? 0) < 2) return null;
  return (
    <>
      <h2>Partner groups</h2>
      <p>Each group pays its own rewards; apply through the page of the one that suits you.</p>
      <ul class="groups">
        {p.groups.map((g) => (
          <li key={g.slug}>
            <h3>{g.name}</h3>
            <ul class="terms">{g.rewards.length ? g.rewards.map((r) => <li>{r}</li>) : <li>rewards to be announced</li>}</ul>
            <a href={`/p/${encodeURIComponent(slug)}/${encodeURIComponent(g.slug)}/`}>Apply to {g.name}</a>
          </li>
        ))}
      </ul>
    </>
  );
}

function ApplyForm({ slug, p, group }: { slug: string; p: Page; group: OpenGroup | undefined }) {
  const { route } = useLocation();
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    await api.POST('/v1/public/programs/{slug}/applications', {
      params: { path: { slug } },
      body: {
        name: text(form, 'name'),
        email: text(form, 'email'),
        password: text(form, 'password'),
        paypal_email: text(form, 'paypal_email') || null,
        note: text(form, 'note') || null,
        ...(group ? { group: group.slug } : {}),
        website: text(form, 'website') || undefined,
      },
    });
    route(href('/'));
  });
  return (
    <form onSubmit={onSubmit}>
      <label>
        Your name
        <input name="name" autocomplete="name" required maxLength={200} />
      </label>
      <label>
        E-mail
        <input name="email" type="email" autocomplete="email" required />
      </label>
      <label>
        Password{' '}
        <span class="hint">(at least 10 characters, for your partner portal; a partner here already? the one you sign in with)</span>
        <input name="password" type="password" autocomplete="new-password" minLength={10} required />
      </label>
      <label>
        PayPal e-mail <span class="hint">(where you are paid; you can add it later)</span>
        <input name="paypal_email" type="email" />
      </label>
      <label>
        Anything to tell {p.name}? <span class="hint">(your site, your audience)</span>
        <textarea name="note" rows={3} maxLength={2000} />
      </label>
      {/* Hidden from people (and from assistive technology): only robots fill it in. */}
      <label class="trap" aria-hidden="true">
        Website
        <input name="website" tabIndex={-1} autocomplete="off" />
      </label>
      {error !== undefined ? <Failure error={error} /> : null}
      <button type="submit" disabled={busy}>
        {(group ?? p).auto_accept ? 'Join the program' : 'Apply'}
      </button>
    </form>
  );
}

/**
 * /p/<slug>/: the program's terms, its groups that take applications, and the form (which
 * joins the default group). /p/<slug>/<group>/: that group alone, its rewards in words, and
 * the form that joins it.
 */
export function ProgramPage() {
  const { path } = useLocation();
  const [, , rawSlug = '', rawGroup = ''] = path.split('/');
  const slug = decodeURIComponent(rawSlug);
  const groupSlug = decodeURIComponent(rawGroup);
  const loaded = useLoad((signal) => api.GET('/v1/public/programs/{slug}', { params: { path: { slug } }, signal }), slug);
  const home = `/p/${encodeURIComponent(slug)}/`;
  return (
    <Show loaded={loaded}>
      {({ data: { attributes: p } }) => {
        const group = groupSlug ? p.groups.find((g) => g.slug === groupSlug) : undefined;
        if (groupSlug && !group) {
          return (
            <Card title={`Partner with ${p.name}`}>
              <p role="alert">No group of {p.name} takes applications at this address.</p>
              <p>
                <a href={home}>See what {p.name} pays, and apply</a>.
              </p>
            </Card>
          );
        }
        return (
          <Card title={`Partner with ${p.name}`}>
            {group && (
              <p class="group-name">
                The <strong>{group.name}</strong> group
              </p>
            )}
            {p.description ? <p class="description">{p.description}</p> : null}
            <h2>What you earn</h2>
            {group ? (
              <ul class="terms">
                {group.rewards.length ? group.rewards.map((r) => <li>{r}</li>) : <li>rewards to be announced</li>}
                <li>paid by PayPal once each commission's holding period is over</li>
              </ul>
            ) : (
              <ul class="terms">
                {termsOf(p).map((t) => (
                  <li>{t}</li>
                ))}
              </ul>
            )}
            {!group && <Groups slug={slug} p={p} />}
            <h2>{group ? `Apply to ${group.name}` : 'Apply'}</h2>
            <ApplyForm key={group?.slug ?? ''} slug={slug} p={p} group={group} />
            <p class="hint">
              A partner already? <a href={href('/sign-in')}>Sign in</a>.
              {group && p.groups.length > 1 && (
                <>
                  {' '}
                  <a href={home}>Every group of {p.name}</a>.
                </>
              )}
            </p>
          </Card>
        );
      }}
    </Show>
  );
}
