// How the partner is paid in the current partnership's program (docs/payouts.md, "How
// partners are paid"): the method, whether a payout can pay it now and why not, and the
// choice among the methods offered. PayPal at the sign-in address is ready at once; Stripe
// is set up on Stripe's own pages, through the onboarding link.

import { useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { Saving, text, useSubmit } from '../../common/forms.js';
import { useLoad } from '../../common/use-api.js';
import { Show } from '../../common/ui.js';
import { usePortal } from '../session.js';
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
    </>
  );
}

function MethodForm({ id, m, saved }: { id: string; m: Method; saved: (m: Method) => void }) {
  const { account } = usePortal();
  const choices = m.offered.filter((o): o is 'paypal' | 'stripe_connect' => o !== 'wise');
  const [chosen, setChosen] = useState(choices.find((c) => c === m.method) ?? choices[0]);
  const [done, setDone] = useState(false);
  const submit = useSubmit(async (form) => {
    setDone(false);
    const country = text(form, 'country').trim().toUpperCase();
    const body =
      chosen === 'stripe_connect'
        ? { method: 'stripe_connect' as const, country }
        : { method: 'paypal' as const, paypal_email: text(form, 'paypal_email').trim() };
    saved((await api.POST('/v1/portal/partnerships/{id}/payout_method', { params: { path: { id } }, body })).data.attributes);
    setDone(true);
  });
  const onboard = useSubmit(async () => {
    const link = await api.POST('/v1/portal/partnerships/{id}/payout_method/onboarding', { params: { path: { id } } });
    location.assign(link.data.attributes.url);
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
        {chosen === 'stripe_connect' && (
          <label>
            {t('method.country')} <span class="hint">{t('method.countryHint')}</span>
            <input name="country" required pattern="[A-Za-z]{2}" maxLength={2} value={m.country ?? ''} autocomplete="country" />
          </label>
        )}
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

/** The panel, under the partnership the portal shows. */
export function PayoutMethod({ id }: { id: string }) {
  const loaded = useLoad((signal) => api.GET('/v1/portal/partnerships/{id}/payout_method', { params: { path: { id } }, signal }), id);
  const [latest, setLatest] = useState<{ id: string; m: Method }>();
  return (
    <section class="panel" aria-labelledby="payout-method">
      <h2 id="payout-method">{t('method.title')}</h2>
      <Show loaded={loaded}>
        {(answer) => {
          const m = latest?.id === id ? latest.m : answer.data.attributes;
          return (
            <>
              <Readiness m={m} />
              {m.offered.includes('wise') && <p class="hint">{t('method.wiseElsewhere')}</p>}
              <MethodForm key={id} id={id} m={m} saved={(next) => setLatest({ id, m: next })} />
            </>
          );
        }}
      </Show>
    </section>
  );
}
