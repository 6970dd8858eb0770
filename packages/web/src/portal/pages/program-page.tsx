// A program's public page, /p/<slug>/: what it pays and on which terms, its partner groups
// that take applications, and the form to apply; each group's own page, /p/<slug>/<group>/,
// with its rewards in words and the form that joins it. The applicant is signed in to the
// portal at once, where they see the outcome.

import { useLocation } from 'preact-iso/router';
import { api, type Answer } from '../../common/api.js';
import { useAccent } from '../../common/brand.js';
import { Card, text, useSubmit } from '../../common/forms.js';
import { minimumsText, percent } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Failure, Show } from '../../common/ui.js';
import { t, tx, useLanguage } from '../language.js';
import { href } from '../session.js';
import { type RewardTerms, rewardWords } from '../rewards/words.js';

type Terms = { commission_rate_bps: number; recurring_months: number; hold_days: number; minimum_payout: Record<string, number> };

/** The terms in words a partner reads in one go. */
function termsOf(terms: Terms): string[] {
  return [
    t('page.rate', { rate: percent(terms.commission_rate_bps / 10000) }),
    terms.recurring_months === 0 ? t('page.forever') : t('page.months', { count: terms.recurring_months }),
    terms.hold_days === 0 ? t('page.atNextPayout') : t('page.afterDays', { count: terms.hold_days }),
    Object.keys(terms.minimum_payout).length === 0
      ? t('page.anyAmount')
      : t('page.fromMinimum', { minimum: minimumsText(terms.minimum_payout).replace(/\n/g, ', ') }),
  ];
}

type Page = Answer<'/v1/public/programs/{slug}'>['data']['attributes'];
type OpenGroup = Page['groups'][number];

/** A group's rewards, each an item of its list of terms, in the page's language; none yet is said so. */
function Rewards({ group }: { group: OpenGroup }) {
  if (group.terms.length === 0) return <li>{t('page.toBeAnnounced')}</li>;
  return (
    <>
      {group.terms.map((r) => (
        <li>{rewardWords(r as RewardTerms)}</li>
      ))}
    </>
  );
}

/** The groups a program's page lists, each with its rewards and its own page; left out when the one group says no more than the terms. */
function Groups({ slug, p }: { slug: string; p: Page }) {
  if (p.groups.length < 2 && (p.groups[0]?.terms.length ?? 0) < 2) return null;
  return (
    <>
      <h2>{t('page.groups')}</h2>
      <p>{t('page.groupsText')}</p>
      <ul class="groups">
        {p.groups.map((g) => (
          <li key={g.slug}>
            <h3>{g.name}</h3>
            <ul class="terms">
              <Rewards group={g} />
            </ul>
            <a href={`/p/${encodeURIComponent(slug)}/${encodeURIComponent(g.slug)}/`}>{t('page.applyTo', { group: g.name })}</a>
          </li>
        ))}
      </ul>
    </>
  );
}

function ApplyForm({ slug, p, group }: { slug: string; p: Page; group: OpenGroup | undefined }) {
  const { route, query } = useLocation();
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
        // A recruiter's link (docs/two-tier.md): the page's ?via= goes with the application.
        ...(query.via ? { via: query.via } : {}),
        website: text(form, 'website') || undefined,
      },
    });
    route(href('/'));
  });
  return (
    <form onSubmit={onSubmit}>
      <label>
        {t('page.yourName')}
        <input name="name" autocomplete="name" required maxLength={200} />
      </label>
      <label>
        {t('page.email')}
        <input name="email" type="email" autocomplete="email" required />
      </label>
      <label>
        {t('page.password')} <span class="hint">{t('page.passwordHint')}</span>
        <input name="password" type="password" autocomplete="new-password" minLength={10} required />
      </label>
      <label>
        {t('page.paypal')} <span class="hint">{t('page.paypalHint')}</span>
        <input name="paypal_email" type="email" />
      </label>
      <label>
        {t('page.note', { program: p.name })} <span class="hint">{t('page.noteHint')}</span>
        <textarea name="note" rows={3} maxLength={2000} />
      </label>
      {/* Hidden from people (and from assistive technology): only robots fill it in. */}
      <label class="trap" aria-hidden="true">
        {t('page.website')}
        <input name="website" tabIndex={-1} autocomplete="off" />
      </label>
      {error !== undefined ? <Failure error={error} /> : null}
      <button type="submit" disabled={busy}>
        {t((group ?? p).auto_accept ? 'page.join' : 'page.apply')}
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
  // The visitor's browser's language, else the program's default, once the page is known.
  useLanguage(undefined, loaded.data?.data.attributes.locale);
  // The program's name, logo and colour in Tally's place (docs/branding.md).
  const page = loaded.data?.data.attributes;
  useAccent(page?.brand.accent);
  const mark = page?.brand.logo_url ? <img src={page.brand.logo_url} alt={page.name} /> : page?.name;
  return (
    <Show loaded={loaded}>
      {({ data: { attributes: p } }) => {
        const group = groupSlug ? p.groups.find((g) => g.slug === groupSlug) : undefined;
        if (groupSlug && !group) {
          return (
            <Card title={t('page.title', { program: p.name })} brand={mark}>
              <p role="alert">{t('page.noSuchGroup', { program: p.name })}</p>
              <p>
                <a href={home}>{t('page.seeAll', { program: p.name })}</a>.
              </p>
            </Card>
          );
        }
        return (
          <Card title={t('page.title', { program: p.name })} brand={mark}>
            {group && <p class="group-name">{tx('page.theGroup', { group: <strong>{group.name}</strong> })}</p>}
            {p.description ? <p class="description">{p.description}</p> : null}
            <h2>{t('page.earn')}</h2>
            {group ? (
              <ul class="terms">
                <Rewards group={group} />
                <li>{t('page.holding')}</li>
              </ul>
            ) : (
              <ul class="terms">
                {termsOf(p).map((term) => (
                  <li>{term}</li>
                ))}
              </ul>
            )}
            {!group && <Groups slug={slug} p={p} />}
            <h2>{group ? t('page.applyTo', { group: group.name }) : t('page.apply')}</h2>
            <ApplyForm key={group?.slug ?? ''} slug={slug} p={p} group={group} />
            <p class="hint">
              {tx('page.already', { link: <a href={href('/sign-in')}>{t('page.signIn')}</a> })}
              {group && p.groups.length > 1 && (
                <>
                  {' '}
                  <a href={home}>{t('page.everyGroup', { program: p.name })}</a>.
                </>
              )}
            </p>
          </Card>
        );
      }}
    </Show>
  );
}
