// A partner's page, how they are paid (docs/payouts.md, "How partners are paid"): the method
// they chose in the portal, whether a payout run may pay them now and if not why, and their
// tax form's state (the TIN only masked, as the API gives it).

import { api, type Answer } from '../common/api.js';
import { dateTime } from '../common/format.js';
import { useLoad } from '../common/use-api.js';
import { Show } from '../common/ui.js';

type Method = Answer<'/v1/partners/{id}/payout_method'>['data']['attributes'];

const WHY_NOT: Record<NonNullable<Method['reason']>, string> = {
  no_method: 'they have chosen no payout method yet',
  not_offered: 'the program no longer offers their method',
  country_not_allowed: "their method is not open to their country in the program's payout settings",
  unconfirmed: 'they have not confirmed their PayPal address from the e-mailed link yet',
  onboarding: 'their Stripe onboarding is not finished',
  requirements_due: 'Stripe still asks them for details',
};

/** The method in a few words: "PayPal, ana@example.com", "Wise, iban •••• 3000 in EUR". */
function methodText(m: Method): string {
  if (m.method === 'paypal') return `PayPal, ${m.paypal_email ?? ''}${m.paypal_confirmed === false ? ' (unconfirmed)' : ''}`;
  if (m.method === 'stripe_connect') return `Stripe Connect, account ${m.stripe_account_id ?? 'not made yet'}`;
  if (m.method === 'wise') return `Wise, ${m.wise_account ?? 'no account'} in ${m.wise_currency ?? '?'}`;
  return 'none';
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
      <h2 id="payout-method-title">How they are paid</h2>
      <Show loaded={loaded}>
        {({ method: m, tax }) => (
          <dl class="facts">
            <dt>Payout method</dt>
            <dd>{methodText(m)}</dd>
            <dt>Ready</dt>
            <dd>
              {m.ready ? (
                <span class="state paid">Ready: the next payout run pays them</span>
              ) : (
                <span class="warn">Not ready: {m.reason ? WHY_NOT[m.reason] : 'unknown'}</span>
              )}
              {m.currently_due && m.currently_due.length > 0 && <span class="hint"> (Stripe asks for: {m.currently_due.join(', ')})</span>}
            </dd>
            <dt>Tax form</dt>
            <dd>
              <span class={`state ${tax.status === 'valid' ? 'paid' : 'pending'}`}>{tax.status}</span>
              {tax.form && (
                <>
                  {' '}
                  signed {dateTime(tax.form.signature.signed_at)} by {tax.form.signature.name}
                  {tax.form.expires_at !== null && `, valid until ${dateTime(tax.form.expires_at)}`}
                </>
              )}
            </dd>
          </dl>
        )}
      </Show>
    </section>
  );
}
