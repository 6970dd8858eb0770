// How the partner is paid in the current partnership's program (docs/payouts.md, "How
// partners are paid"): the method, whether a payout can pay it now and why not, and the
// choice among the methods offered. PayPal at the sign-in address is ready at once; Stripe
// is set up on Stripe's own pages, through the onboarding link, which comes back here
// (?stripe=return: read the account again; ?stripe=refresh: the link expired, ask another);
// Wise asks the bank details its requirements list (wise.tsx).

import { useLocation } from 'preact-iso/router';
import { useEffect, useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { Saving, text, useSubmit } from '../../common/forms.js';
import { useLoad } from '../../common/use-api.js';
import { Failure, Loading, Show } from '../../common/ui.js';
import { usePortal } from '../session.js';
import { WiseFields, wiseBody } from './wise.js';
import { t } from './words.js';

type Method = Answer<'/v1/portal/partnerships/{id}/payout_method'>['data']['attributes'];

/** What the method is and whether it is ready, in a sentence each. */
function Readiness({ m }: { m: Method }) {
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

function MethodForm({ id, m, saved }: { id: string; m: Method; saved: (m: Method) => void }) {
  const { account } = usePortal();
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
    saved((await api.POST('/v1/portal/partnerships/{id}/payout_method', { params: { path: { id } }, body })).data.attributes);
    setDone(true);
  });
  const onboard = useSubmit(async () => {
    location.assign(await onboardingUrl(id));
  });
  return (
    <>
      <form onSubmit={submit.onSubmit}>
        <fieldset class="choices">
          <legend>{t('method.choose')}</legend>
          {choices.map((o) => (
            <label>
              <input type="radio" name="method" value={o} checked={chosen === o} onChange={() => setChosen(o)} /> {t(`methods.${o}`)}
            </label>
          ))}
        </fieldset>
        {chosen === 'paypal' && (
          <label>
            {t('method.paypalEmail')} <span class="hint">{t('method.paypalHint')}</span>
            <input name="paypal_email" type="email" required value={m.paypal_email ?? account.attributes.email} />
          </label>
        )}
        {(chosen === 'stripe_connect' || chosen === 'wise') && (
          <label>
            {t('method.country')} <span class="hint">{t('method.countryHint')}</span>
            <input name="country" required pattern="[A-Za-z]{2}" maxLength={2} value={m.country ?? ''} autocomplete="country" />
          </label>
        )}
        {chosen === 'wise' && <WiseFields id={id} currency={m.wise_currency} />}
        <Saving error={submit.error} done={done && t('method.saved')} busy={submit.busy} label={t('method.save')} />
      </form>
      {m.method === 'stripe_connect' && !m.ready && (
        <form onSubmit={onboard.onSubmit}>
          <Saving error={onboard.error} done={false} busy={onboard.busy} label={t('method.onboard')} />
        </form>
      )}
    </>
  );
}

const onboardingUrl = async (id: string) =>
  (await api.POST('/v1/portal/partnerships/{id}/payout_method/onboarding', { params: { path: { id } } })).data.attributes.url;

let leaving = false;

/**
 * Back from Stripe's onboarding: at the return URL the account is read again now (account.updated
 * may not have come yet); at the refresh URL the link had expired, so a fresh one is asked.
 */
function StripeBack({ id, back, saved }: { id: string; back: string; saved: (m: Method) => void }) {
  const { path, query, route } = useLocation();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    const run = async () => {
      if (back === 'refresh') {
        // Once per page: a remount while the link is asked must not ask Stripe for a second one.
        if (leaving) return;
        leaving = true;
        return location.assign(await onboardingUrl(id));
      }
      saved((await api.POST('/v1/portal/partnerships/{id}/payout_method/refresh', { params: { path: { id } } })).data.attributes);
      // The panel now shows what Stripe said; a reload then reads the method, not Stripe again.
      route(`${path}?${new URLSearchParams({ p: query.p ?? id })}`, true);
    };
    run().catch(setError);
  }, [id, back]);
  if (error !== undefined) return <Failure error={error} />;
  return <Loading what={back === 'refresh' ? t('method.stripeAgain') : t('method.stripeReading')} />;
}

/** The panel, under the partnership the portal shows. */
export function PayoutMethod({ id }: { id: string }) {
  const loaded = useLoad((signal) => api.GET('/v1/portal/partnerships/{id}/payout_method', { params: { path: { id } }, signal }), id);
  const [latest, setLatest] = useState<{ id: string; m: Method }>();
  const back = useLocation().query.stripe;
  return (
    <section class="panel" aria-labelledby="payout-method">
      <h2 id="payout-method">{t('method.title')}</h2>
      <Show loaded={loaded}>
        {(answer) => {
          const m = latest?.id === id ? latest.m : answer.data.attributes;
          return (
            <>
              {(back === 'return' || back === 'refresh') && <StripeBack id={id} back={back} saved={(next) => setLatest({ id, m: next })} />}
              <Readiness m={m} />
              <MethodForm key={id} id={id} m={m} saved={(next) => setLatest({ id, m: next })} />
            </>
          );
        }}
      </Show>
    </section>
  );
}
