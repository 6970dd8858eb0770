// A partner's page, how they are paid (docs/payouts.md, "How partners are paid"): the method
// they chose in the portal, whether a payout run may pay them now and if not why, and their
// tax form's state (the TIN only masked, as the API gives it).

import { api, type Answer } from '../../common/api.js';
import { dateTime } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Show } from '../../common/ui.js';
import { t } from './words.js';

type Method = Answer<'/v1/partners/{id}/payout_method'>['data']['attributes'];

/** The method in a few words: "PayPal, ana@example.com", "Wise, iban •••• 3000 in EUR". */
function methodText(m: Method): string {
  if (m.method === 'paypal') return `PayPal, ${m.paypal_email ?? ''}${m.paypal_confirmed === false ? ` ${t('payout.unconfirmed')}` : ''}`;
  if (m.method === 'stripe_connect') return t('payout.stripe', { account: m.stripe_account_id ?? t('payout.notMade') });
  if (m.method === 'wise') return t('payout.wise', { account: m.wise_account ?? t('payout.noAccount'), currency: m.wise_currency ?? '?' });
  return t('payout.none');
}

export function PartnerPayout({ partnerId }: { partnerId: string }) {
  const loaded = useLoad(async (signal) => {
    const path = { params: { path: { id: partnerId } }, signal };
    const [method, tax] = await Promise.all([
      api.GET('/v1/partners/{id}/payout_method', path),
      api.GET('/v1/partners/{id}/tax_form', path),
    ]);
    return { method: method.data.attributes, tax: tax.data.attributes };
  }, `payout-${partnerId}`);
  return (
    <section class="panel" aria-labelledby="payout-method-title">
      <h2 id="payout-method-title">{t('payout.title')}</h2>
      <Show loaded={loaded}>
        {({ method: m, tax }) => (
          <dl class="facts">
            <dt>{t('payout.method')}</dt>
            <dd>{methodText(m)}</dd>
            <dt>{t('payout.ready')}</dt>
            <dd>
              {m.ready ? (
                <span class="state paid">{t('payout.readyText')}</span>
              ) : (
                <span class="warn">{t('payout.notReady', { why: m.reason ? t(`payout.whyNot.${m.reason}`) : t('payout.unknown') })}</span>
              )}
              {m.currently_due && m.currently_due.length > 0 && (
                <span class="hint"> {t('payout.stripeAsks', { fields: m.currently_due.join(', ') })}</span>
              )}
            </dd>
            <dt>{t('payout.taxForm')}</dt>
            <dd>
              <span class={`state ${tax.status === 'valid' ? 'paid' : 'pending'}`}>
                {t(`payout.taxStatus.${tax.status}`, { defaultValue: tax.status })}
              </span>
              {tax.form && (
                <>
                  {' '}
                  {t('payout.signed', { date: dateTime(tax.form.signature.signed_at), name: tax.form.signature.name })}
                  {tax.form.expires_at !== null && t('payout.validUntil', { date: dateTime(tax.form.expires_at) })}
                </>
              )}
            </dd>
          </dl>
        )}
      </Show>
    </section>
  );
}
