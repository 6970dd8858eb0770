// How the partner is paid (docs/payouts.md, "How partners are paid"): the method, whether a
// payout can pay it now and why not, and the choice among the methods offered. PayPal at the
// partner's own address is ready at once; Stripe is set up on Stripe's own pages, through the
// onboarding link; Wise asks the bank details its requirements list (wise.tsx). The portal
// and the embed show the same panel, each through its place (place.ts).

import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { Saving, text, useSubmit } from '../forms.js';
import { useLoad } from '../use-api.js';
import { Show } from '../ui.js';
import type { Method, PaymentPlace } from './place.js';
import { StripeWindow } from './stripe-window.js';
import { WiseFields, wiseBody } from './wise.js';

/** What the method is and whether it is ready, in a sentence each. */
function Readiness({ m, t }: { m: Method; t: PaymentPlace['t'] }) {
  return (
    <>
      <p>{m.method ? t('method.current', { method: t(`methods.${m.method}`) }) : t('method.none')}</p>
      <p role="status" class={m.ready ? 'ok' : 'hint'}>
        {m.ready ? t('method.ready') : t('method.notReady', { reason: t(`reasons.${m.reason ?? 'no_method'}`) })}
      </p>
      {m.method === 'wise' && m.wise_account && (
        <p>{t('method.wiseAccount', { account: m.wise_account, currency: m.wise_currency ?? '' })}</p>
      )}
      {m.method === 'stripe_connect' && m.stripe_account_id && (
        <p>{m.payouts_enabled ? t('method.stripeEnabled') : t('method.stripeDisabled')}</p>
      )}
      {m.method === 'stripe_connect' && m.currently_due?.length ? (
        <p>{t('method.stripeDue', { due: m.currently_due.join(', ') })}</p>
      ) : null}
    </>
  );
}

function MethodForm({ place, m, saved }: { place: PaymentPlace; m: Method; saved: (m: Method) => void }) {
  const { t } = place;
  const choices = m.offered;
  const [chosen, setChosen] = useState(choices.find((c) => c === m.method) ?? choices[0]);
  const [done, setDone] = useState(false);
  const submit = useSubmit(async (form) => {
    setDone(false);
    const country = text(form, 'country').trim().toUpperCase();
    const body =
      chosen === 'stripe_connect'
        ? { method: 'stripe_connect' as const, country }
        : chosen === 'wise'
          ? wiseBody(form, country)
          : { method: 'paypal' as const, paypal_email: text(form, 'paypal_email').trim() };
    saved(await place.choose(body));
    setDone(true);
  });
  return (
    <>
      <form onSubmit={submit.onSubmit}>
        <fieldset class="choices">
          <legend>{t('method.choose')}</legend>
          {choices.map((o) => (
            <label class="check">
              <input type="radio" name="method" value={o} checked={chosen === o} onChange={() => setChosen(o)} /> {t(`methods.${o}`)}
            </label>
          ))}
        </fieldset>
        {chosen === 'paypal' && (
          <label>
            {t('method.paypalEmail')} <span class="hint">{t('method.paypalHint')}</span>
            <input name="paypal_email" type="email" required value={m.paypal_email ?? place.ownEmail} />
          </label>
        )}
        {(chosen === 'stripe_connect' || chosen === 'wise') && (
          <label>
            {t('method.country')} <span class="hint">{t('method.countryHint')}</span>
            <input name="country" required pattern="[A-Za-z]{2}" maxLength={2} value={m.country ?? ''} autocomplete="country" />
          </label>
        )}
        {chosen === 'wise' && <WiseFields place={place} currency={m.wise_currency} />}
        <Saving error={submit.error} done={done && t('method.saved')} busy={submit.busy} label={t('method.save')} />
      </form>
      {m.method === 'stripe_connect' && !m.ready && <Onboarding place={place} saved={saved} />}
    </>
  );
}

/** Continue to Stripe: the page leaves for it, or (the embed) Stripe opens in a window of its own. */
function Onboarding({ place, saved }: { place: PaymentPlace; saved: (m: Method) => void }) {
  const onboard = useSubmit(async () => {
    location.assign(await place.onboarding());
  });
  if (place.stripeWindow) return <StripeWindow place={place} saved={saved} />;
  return (
    <form onSubmit={onboard.onSubmit}>
      <Saving error={onboard.error} done={false} busy={onboard.busy} label={place.t('method.onboard')} />
    </form>
  );
}

/** The panel; `back` is what the place shows above it (the portal's return from Stripe). */
export function PayoutMethod({ place, back }: { place: PaymentPlace; back?: (saved: (m: Method) => void) => ComponentChildren }) {
  const loaded = useLoad((signal) => place.method(signal), place.key);
  const [latest, setLatest] = useState<{ key: string; m: Method }>();
  const saved = (next: Method) => setLatest({ key: place.key, m: next });
  return (
    <section class="panel" aria-labelledby="payout-method">
      <h2 id="payout-method">{place.t('method.title')}</h2>
      <Show loaded={loaded}>
        {(answer) => {
          const m = latest?.key === place.key ? latest.m : answer;
          return (
            <>
              {back?.(saved)}
              <Readiness m={m} t={place.t} />
              <MethodForm key={place.key} place={place} m={m} saved={saved} />
            </>
          );
        }}
      </Show>
    </section>
  );
}
