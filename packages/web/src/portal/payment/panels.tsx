// How the partner is paid in the current partnership's program and their tax form for it: the
// shared panels (common/payment/) over the portal's routes, under that partnership. Stripe's
// onboarding comes back to the Earnings page (?stripe=return: read the account again;
// ?stripe=refresh: the link expired, ask another).

import { useLocation } from 'preact-iso/router';
import { useMemo } from 'preact/hooks';
import { api } from '../../common/api.js';
import { PayoutMethod as Panel } from '../../common/payment/method.js';
import type { PaymentPlace } from '../../common/payment/place.js';
import { StripeBack } from '../../common/payment/stripe-back.js';
import { TaxForm as TaxPanel } from '../../common/payment/tax-form.js';
import { PAYOUT_WORDS } from '../../common/payment/words.js';
import { part } from '../language.js';
import { usePortal } from '../session.js';

const t = part('payout', PAYOUT_WORDS);

function portalPlace(id: string, ownEmail: string): PaymentPlace {
  const path = { params: { path: { id } } };
  return {
    key: id,
    ownEmail,
    t,
    method: async (signal) => (await api.GET('/v1/portal/partnerships/{id}/payout_method', { ...path, signal })).data.attributes,
    choose: async (body) => (await api.POST('/v1/portal/partnerships/{id}/payout_method', { ...path, body })).data.attributes,
    onboarding: async () => (await api.POST('/v1/portal/partnerships/{id}/payout_method/onboarding', path)).data.attributes.url,
    refresh: async () => (await api.POST('/v1/portal/partnerships/{id}/payout_method/refresh', path)).data.attributes,
    wiseRequirements: async (currency, signal) =>
      (
        await api.GET('/v1/portal/partnerships/{id}/payout_method/wise_requirements', {
          params: { path: { id }, query: { currency } },
          signal,
        })
      ).data,
    taxForm: async (signal) => (await api.GET('/v1/portal/partnerships/{id}/tax_form', { ...path, signal })).data.attributes,
    giveTaxForm: async (body) => (await api.POST('/v1/portal/partnerships/{id}/tax_form', { ...path, body })).data.attributes,
  };
}

const usePlace = (id: string): PaymentPlace => {
  const email = usePortal().account.attributes.email;
  return useMemo(() => portalPlace(id, email), [id, email]);
};

export function PayoutMethod({ id }: { id: string }) {
  const place = usePlace(id);
  const { path, query, route } = useLocation();
  const back = query.stripe;
  return (
    <Panel
      place={place}
      back={(saved) =>
        (back === 'return' || back === 'refresh') && (
          <StripeBack
            place={place}
            back={back}
            saved={saved}
            done={() => route(`${path}?${new URLSearchParams({ p: query.p ?? id })}`, true)}
          />
        )
      }
    />
  );
}

export function TaxForm({ id }: { id: string }) {
  return <TaxPanel place={usePlace(id)} />;
}
