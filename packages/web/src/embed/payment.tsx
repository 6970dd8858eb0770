// How the partner is paid and their tax form, inside the embed: the portal's panels
// (common/payment/) over the embed's routes, with its session. A chunk of its own, loaded
// after the first screen: the forms and their words are most of the embed's weight.

import { api } from '../common/api.js';
import { PayoutMethod } from '../common/payment/method.js';
import type { PaymentPlace } from '../common/payment/place.js';
import { TaxForm } from '../common/payment/tax-form.js';
import { PAYOUT_WORDS } from '../common/payment/words.js';
import { part } from './language.js';
import { type Account, auth } from './session.js';

const t = part('payout', PAYOUT_WORDS);

const place = (ownEmail: string): PaymentPlace => ({
  key: 'embed',
  ownEmail,
  // Stripe refuses to be framed, and the top page is the company's app (decision 0376).
  stripeWindow: true,
  t,
  method: async (signal) => (await api.GET('/v1/embed/payout_method', { ...auth(), signal })).data.attributes,
  choose: async (body) => (await api.POST('/v1/embed/payout_method', { ...auth(), body })).data.attributes,
  onboarding: async () => (await api.POST('/v1/embed/payout_method/onboarding', auth())).data.attributes.url,
  refresh: async () => (await api.POST('/v1/embed/payout_method/refresh', auth())).data.attributes,
  wiseRequirements: async (currency, signal) =>
    (await api.GET('/v1/embed/payout_method/wise_requirements', { ...auth(), params: { query: { currency } }, signal })).data,
  taxForm: async (signal) => (await api.GET('/v1/embed/tax_form', { ...auth(), signal })).data.attributes,
  giveTaxForm: async (body) => (await api.POST('/v1/embed/tax_form', { ...auth(), body })).data.attributes,
});

export function Payment({ account }: { account: Account }) {
  const at = place(account.attributes.email);
  return (
    <>
      <PayoutMethod place={at} />
      <TaxForm place={at} />
    </>
  );
}
