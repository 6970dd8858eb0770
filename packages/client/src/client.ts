// createTally: openapi-fetch's client over the API's generated types (every route, its
// parameters, body and answer), with the secret token on every request, plus the calls a
// company's backend makes most, which answer plain records or throw a TallyError.

import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './api.js';
import { answered } from './errors.js';

type Post<P extends keyof paths> = paths[P] extends { post: infer Op } ? Op : never;
type BodyOf<Op> = Op extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type AnswerOf<Op, S extends number> = Op extends { responses: { [K in S]: { content: { 'application/json': infer A } } } } ? A : never;

/** What `recordConversion` takes: the fields of `POST /v1/tracking/conversion`. */
export type ConversionInput = BodyOf<Post<'/v1/tracking/conversion'>>;
/** What `recordLead` takes: the fields of `POST /v1/leads`. */
export type LeadInput = BodyOf<Post<'/v1/leads'>>;
/** What `recordPayment` takes: the fields of `POST /v1/payments`. */
export type PaymentInput = BodyOf<Post<'/v1/payments'>>;

type PaymentAnswer = AnswerOf<Post<'/v1/payments'>, 201>;
export type Referral = AnswerOf<Post<'/v1/tracking/conversion'>, 201>['data'];
export type Lead = AnswerOf<Post<'/v1/leads'>, 201>['data'];
export type Payment = PaymentAnswer['data'];
export type Commission = PaymentAnswer['included'][number];

export interface TallyOptions {
  /** The collector's address, as PUBLIC_URL names it: `https://tally.example.com`. */
  baseUrl: string;
  /** A secret token (`tly_sec_…`): every /v1 route. Keep it on your servers. */
  token: string;
  /** The fetch to call (one with a proxy, say); Node's own by default. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request besides the token. */
  headers?: Record<string, string>;
}

/** A call's own options: a signal to give up on it. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface Helpers {
  /**
   * A referred person signed up: a referral for the partner whose link they followed (`gr_id`,
   * the click id the snippet keeps; `pk`, the link's key) or whose code they typed. `created` is
   * false for a retry of the same conversion, which answers the same referral.
   */
  recordConversion(input: ConversionInput, options?: CallOptions): Promise<{ referral: Referral; created: boolean }>;
  /** A lead submitted on a partner's behalf (docs/leads.md): stage `new`. */
  recordLead(input: LeadInput, options?: CallOptions): Promise<Lead>;
  /**
   * A referred customer paid: the payment and the commission it earned. Sending the same
   * `idempotency_key` again answers the same records, with `created` false.
   */
  recordPayment(input: PaymentInput, options?: CallOptions): Promise<{ payment: Payment; commission: Commission; created: boolean }>;
}

/** The typed client (`GET`, `POST`, `PATCH`, `DELETE` on any route, as openapi-fetch calls them) and the helpers. */
export type Tally = Client<paths> & Helpers;

export function createTally(options: TallyOptions): Tally {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { ...options.headers, authorization: `Bearer ${options.token}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const helpers: Helpers = {
    async recordConversion(input, call) {
      const { data, response } = await answered(client.POST('/v1/tracking/conversion', { body: input, signal: call?.signal }));
      return { referral: data.data, created: response.status === 201 };
    },
    async recordLead(input, call) {
      return (await answered(client.POST('/v1/leads', { body: input, signal: call?.signal }))).data.data;
    },
    async recordPayment(input, call) {
      const { data, response } = await answered(client.POST('/v1/payments', { body: input, signal: call?.signal }));
      return { payment: data.data, commission: data.included[0]!, created: response.status === 201 };
    },
  };
  return Object.assign(client, helpers);
}
