// A program's public page, /p/<slug>/: what it pays and on which terms, and the form to
// apply. The applicant is signed in to the portal at once, where they see the outcome.

import { useLocation } from 'preact-iso/router';
import { api } from '../../common/api.js';
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

export function ProgramPage() {
  const { path, route } = useLocation();
  const slug = decodeURIComponent(path.split('/')[2] ?? '');
  const loaded = useLoad((signal) => api.GET('/v1/public/programs/{slug}', { params: { path: { slug } }, signal }), slug);
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    await api.POST('/v1/public/programs/{slug}/applications', {
      params: { path: { slug } },
      body: {
        name: text(form, 'name'),
        email: text(form, 'email'),
        password: text(form, 'password'),
        paypal_email: text(form, 'paypal_email') || null,
        note: text(form, 'note') || null,
        website: text(form, 'website') || undefined,
      },
    });
    route(href('/'));
  });
  return (
    <Show loaded={loaded}>
      {({ data: { attributes: p } }) => (
        <Card title={`Partner with ${p.name}`}>
          {p.description ? <p class="description">{p.description}</p> : null}
          <h2>What you earn</h2>
          <ul class="terms">
            {termsOf(p).map((t) => (
              <li>{t}</li>
            ))}
          </ul>
          <h2>Apply</h2>
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
              {p.auto_accept ? 'Join the program' : 'Apply'}
            </button>
          </form>
          <p class="hint">
            A partner already? <a href={href('/sign-in')}>Sign in</a>.
          </p>
        </Card>
      )}
    </Show>
  );
}
