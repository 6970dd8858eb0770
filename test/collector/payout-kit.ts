// Payout runs against real `tally serve` processes (the crash tests, two processes on one
// PostgreSQL): the three providers' fakes, the servers' environment, and a program whose
// partners are paid through PayPal, Stripe Connect and Wise, set up over the API and, where
// a partner's own steps would take a portal session, with the payout methods' service.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseStripe, chooseWise, payoutMethodOf, refreshStripe } from '../../packages/collector/src/modules/payout-methods/service.js';
import { findProgram } from '../../packages/collector/src/modules/programs/service.js';
import { withDb } from './database.js';
import { CLIENT, FakePaypal, WEBHOOK_ID } from './paypal-api.js';
import { startStripeApi, type StripeApi } from './stripe-api.js';
import { startWiseApi, type WiseApi } from './wise-api.js';

const STRIPE_KEY = 'rk_test_payoutkit0123456789';
const WISE_TOKEN = 'wise-kit-token-4567';
export const WISE_PROFILE = 7_300_002;

export interface Fakes {
  paypal: FakePaypal;
  stripe: StripeApi;
  wise: WiseApi;
  close(): Promise<void>;
}

export async function startFakes(): Promise<Fakes> {
  const dir = mkdtempSync(join(tmpdir(), 'tally-payout-kit-'));
  const paypal = new FakePaypal(dir);
  const [stripe, wise] = await Promise.all([startStripeApi(STRIPE_KEY), startWiseApi(WISE_TOKEN, WISE_PROFILE), paypal.start()]);
  return {
    paypal,
    stripe,
    wise,
    async close() {
      await Promise.all([paypal.close(), stripe.close(), wise.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What `tally serve` needs to reach the fakes, on `databaseUrl`. */
export const serveEnv = (databaseUrl: string, f: Fakes) => ({
  DATABASE_URL: databaseUrl,
  RATE_LIMIT_IP: '0',
  RATE_LIMIT_TOKEN: '0',
  PAYPAL_API_URL: f.paypal.url,
  STRIPE_API_URL: f.stripe.url,
  WISE_API_URL: f.wise.url,
  WISE_WEBHOOK_PUBLIC_KEY: f.wise.publicKey,
});

// any: each check reads the JSON it expects.
export type Call = (url: string, method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** Calls with the secret token; `url` is the server's, so one caller serves several processes. */
export function caller(secret: string): Call {
  return async (url, method, path, body) => {
    const res = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

/** The program's PayPal app, Stripe key and Wise account, all three methods offered; resolves to the program's id. */
export async function configure(call: Call, url: string): Promise<string> {
  for (const [path, body] of [
    ['/v1/integrations/paypal', { client_id: CLIENT.id, client_secret: CLIENT.secret, webhook_id: WEBHOOK_ID }],
    ['/v1/program', { stripe_api_key: STRIPE_KEY }],
    [
      '/v1/program/payout_settings',
      {
        offered: ['paypal', 'stripe_connect', 'wise'],
        wise_api_token: WISE_TOKEN,
        wise_profile_id: WISE_PROFILE,
        wise_source_currency: 'EUR',
      },
    ],
  ] as const) {
    const set = await call(url, 'PATCH', path, body);
    if (set.status !== 200) throw new Error(`${path}: ${JSON.stringify(set.body)}`);
  }
  return (await call(url, 'GET', '/v1/program')).body.data.id;
}

export type Method = 'paypal' | 'stripe_connect' | 'wise';

/** An accepted partner paid by `method`, ready; resolves to their id and the payout's address (e-mail, acct_…, Wise recipient). */
export async function payee(call: Call, url: string, databaseUrl: string, f: Fakes, method: Method, name: string) {
  const email = `${name.toLowerCase()}@payee.test`;
  const paypal = method === 'paypal' ? { paypal_email: `pay-${email}` } : {};
  const partner = await call(url, 'POST', '/v1/partners', { name, email, ...paypal });
  const partnerId = partner.body.data.id as string;
  await call(url, 'POST', '/v1/partnerships', { partner_id: partnerId, state: 'accepted' });
  if (method === 'paypal') return { partnerId, address: `pay-${email}` };
  const now = Math.floor(Date.now() / 1000);
  const programId = (await call(url, 'GET', '/v1/program')).body.data.id as string;
  return withDb(databaseUrl, async (db) => {
    if (method === 'wise') {
      const input = {
        country: 'DE',
        currency: 'EUR',
        type: 'iban',
        accountHolderName: `${name} Doe`,
        details: { iban: 'DE89370400440532013000' },
      };
      const recipient = await chooseWise(db, programId, partnerId, input, f.wise.url, now);
      return { partnerId, address: String(recipient.id) };
    }
    const program = (await findProgram(db, programId))!;
    await chooseStripe(db, program, partnerId, { country: 'US', email }, f.stripe.url, now);
    const account = (await payoutMethodOf(db, programId, partnerId)).stripeAccountId!;
    // Onboarded at Stripe, and read back as the partner's return from onboarding reads it.
    Object.assign(f.stripe.accounts.get(account)!, { payouts_enabled: true, requirements: { currently_due: [], past_due: [] } });
    await refreshStripe(db, program, partnerId, f.stripe.url, now);
    return { partnerId, address: account };
  });
}

/** The currency each method's payee is paid in here: a Wise recipient takes euros. */
export const currencyOf = (method: Method) => (method === 'wise' ? 'EUR' : 'USD');

/** A commission of `amount` for the partner; resolves to its id. */
export async function commission(call: Call, url: string, partnerId: string, amount: number, currency: string): Promise<string> {
  const made = await call(url, 'POST', '/v1/commissions', { partner_id: partnerId, amount, currency });
  if (made.status !== 201) throw new Error(JSON.stringify(made.body));
  return made.body.data.id;
}

/** A run of what is payable now, approved; resolves to its id. */
export async function approvedRun(call: Call, url: string): Promise<string> {
  const made = await call(url, 'POST', '/v1/payout_runs');
  if (made.status !== 201) throw new Error(JSON.stringify(made.body));
  await call(url, 'POST', `/v1/payout_runs/${made.body.data.id}/approve`);
  return made.body.data.id;
}

/** The run's payouts by address. */
export async function itemsOf(call: Call, url: string, run: string): Promise<Record<string, any>> {
  const read = await call(url, 'GET', `/v1/payout_runs/${run}`);
  return Object.fromEntries(read.body.included.map((i: any) => [i.attributes.address, { id: i.id, ...i.attributes }]));
}
