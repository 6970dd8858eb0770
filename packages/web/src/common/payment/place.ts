// Where the payout-method and tax-form panels speak to the API: the portal under one of the
// partner's partnerships, the embed with its session. The routes answer alike (the collector
// mounts one set of handlers at both), so the panels are one, and each app gives its calls,
// its words and how to reach Stripe's onboarding (the portal leaves for it; the embed, in a
// frame Stripe refuses, opens it in a window of its own).

import type { Answer, RequestBody } from '../api.js';
import type { Key, Vars } from '../words.js';
import type en from './locales/en.js';

export type Method = Answer<'/v1/portal/partnerships/{id}/payout_method'>['data']['attributes'];
export type MethodBody = RequestBody<'/v1/portal/partnerships/{id}/payout_method', 'post'>;
export type Requirement = Answer<'/v1/portal/partnerships/{id}/payout_method/wise_requirements'>['data'][number];
export type TaxStatus = Answer<'/v1/portal/partnerships/{id}/tax_form'>['data']['attributes'];
export type TaxBody = RequestBody<'/v1/portal/partnerships/{id}/tax_form', 'post'>;

export interface PaymentPlace {
  /** What the answers are of: a new key loads them again (the portal's partnership id). */
  key: string;
  /** The address PayPal is offered at first: the partner's own. */
  ownEmail: string;
  /** Stripe's onboarding opens in a window of its own (the embed: no frame may show it), not in place of the page. */
  stripeWindow?: boolean;
  t: (key: Key<typeof en>, vars?: Vars) => string;
  method(signal: AbortSignal): Promise<Method>;
  choose(body: MethodBody): Promise<Method>;
  /** A Stripe Account Link's url. */
  onboarding(): Promise<string>;
  /** The connected account read from Stripe now. */
  refresh(): Promise<Method>;
  wiseRequirements(currency: string, signal: AbortSignal): Promise<Requirement[]>;
  taxForm(signal: AbortSignal): Promise<TaxStatus>;
  giveTaxForm(body: TaxBody): Promise<TaxStatus>;
}
