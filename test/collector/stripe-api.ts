// Stripe's API as a local server, for the few calls Tally makes with a program's key:
// coupons and promotion codes, made and turned off, with Stripe's error answers for a
// code that exists already and for a key it does not know; Connect's Express accounts
// (made, with the Idempotency-Key replayed as Stripe replays it, and read) and their
// onboarding Account Links; and Transfers to them, refused for an account without payouts enabled, and
// their reversals, in part or whole
// (as https://docs.stripe.com/api documents them). The `stripe` package itself talks to it (its host, port and protocol set).

import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Held, holder } from './held.js';

export interface StripeApi {
  url: string;
  /** The requests received, as method, path and the form fields sent. */
  calls: Array<{ method: string; path: string; form: Record<string, string>; key: string | undefined }>;
  promotionCodes: Map<string, { code: string; coupon: string; active: boolean }>;
  /** Connected accounts by id, as GET /v1/accounts/:id answers them: a test changes one as onboarding would. */
  accounts: Map<string, Account>;
  /** Transfers made, by id: what Stripe moved (a replayed request moves nothing more). */
  transfers: Map<string, Account>;
  /** How many of the next requests are done and remembered, and then their answers lost (the connection cut). */
  loseAnswers: number;
  /** The next call to `path` is done (a replay's key remembered), then its answer waits for release(). */
  hold(path: string): Held;
  close(): Promise<void>;
}

const body = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => resolve(text));
  });

let ids = 0;
const id = (prefix: string) => `${prefix}_${(++ids).toString(36).padStart(14, '0')}`;

/** `validKey`: the only key answered; any other is refused as Stripe refuses an unknown key. */
export async function startStripeApi(validKey: string): Promise<StripeApi> {
  const calls: StripeApi['calls'] = [];
  const promotionCodes: StripeApi['promotionCodes'] = new Map();
  const accounts: StripeApi['accounts'] = new Map();
  const transfers: StripeApi['transfers'] = new Map();
  const api = { loseAnswers: 0 };
  const replays = new Map<string, { status: number; json: unknown }>();
  const holds = holder();
  /** Idempotency keys whose first request has not been answered yet (held). */
  const inFlight = new Set<string>();
  const error = (status: number, e: Record<string, string>) => ({ status, json: { error: { type: 'invalid_request_error', ...e } } });
  const server = createServer(async (req, res) => {
    const form = Object.fromEntries(new URLSearchParams(await body(req)));
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const key = req.headers['idempotency-key'];
    calls.push({ method: req.method ?? '', path, form, key: typeof key === 'string' ? key : undefined });
    // An Idempotency-Key seen before gets the first answer again, as Stripe's does for 24 hours, doing nothing more.
    const reply = async (a: Answer, headers: Record<string, string>) => {
      await holds.wait(path);
      if (api.loseAnswers > 0) {
        api.loseAnswers--;
        res.destroy();
        return;
      }
      res.writeHead(a.status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(a.json));
    };
    // A key whose first request is still going through is refused, as Stripe does, saving nothing.
    if (typeof key === 'string' && inFlight.has(key)) {
      const message = `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ${key}. Please try again later.`;
      return void reply(error(409, { code: 'idempotency_key_in_use', message }), {});
    }
    const replayed = typeof key === 'string' ? replays.get(key) : undefined;
    if (replayed) return void reply(replayed, { 'idempotent-replayed': 'true' });
    const answer = (() => {
      if (req.headers.authorization !== `Bearer ${validKey}`) {
        return { status: 401, json: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: rk_test_********' } } };
      }
      if (req.method === 'POST' && path === '/v1/coupons') {
        return { status: 200, json: { id: id('co'), object: 'coupon', valid: true, ...form } };
      }
      if (req.method === 'POST' && path === '/v1/promotion_codes') {
        const code = form.code ?? '';
        if ([...promotionCodes.values()].some((p) => p.active && p.code.toLowerCase() === code.toLowerCase())) {
          return error(400, {
            code: 'resource_already_exists',
            message: `An active promotion code with \`code: ${code}\` already exists.`,
            param: 'code',
          });
        }
        const made = id('promo');
        const coupon = form['promotion[coupon]'] ?? '';
        promotionCodes.set(made, { code, coupon, active: true });
        return { status: 200, json: { id: made, object: 'promotion_code', code, active: true, promotion: { type: 'coupon', coupon } } };
      }
      if (req.method === 'POST' && path === '/v1/transfers') return transferAnswer(form, accounts, transfers, error);
      const reversal = /^\/v1\/transfers\/(tr_\w+)\/reversals$/.exec(path);
      if (req.method === 'POST' && reversal) return reversalAnswer(form, transfers.get(reversal[1]!), error);
      const connect = connectAnswer(req.method ?? '', path, form, accounts, error);
      if (connect) return connect;
      const update = /^\/v1\/promotion_codes\/(promo_\w+)$/.exec(path);
      const found = update ? promotionCodes.get(update[1]!) : undefined;
      if (req.method === 'POST' && found) {
        found.active = form.active === 'true';
        return { status: 200, json: { id: update![1], object: 'promotion_code', code: found.code, active: found.active } };
      }
      return error(404, { code: 'resource_missing', message: `Unrecognized request URL (${req.method}: ${path}).` });
    })();
    if (typeof key === 'string' && answer.status < 500) replays.set(key, answer);
    if (typeof key === 'string') inFlight.add(key);
    void reply(answer, { 'request-id': id('req') }).finally(() => typeof key === 'string' && inFlight.delete(key));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(api, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    promotionCodes,
    accounts,
    transfers,
    hold: holds.hold,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

type Answer = { status: number; json: unknown };

// any: an account is Stripe's JSON, which tests change freely.
type Account = Record<string, any>;

/** An Express account as Stripe makes it: nothing submitted yet, so payouts are off and the onboarding fields are due. */
const metadataOf = (form: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(form)
      .filter(([k]) => k.startsWith('metadata['))
      .map(([k, v]) => [k.slice(9, -1), v]),
  );

/**
 * POST /v1/transfers from the platform's balance to a connected account: refused when the
 * account is unknown or cannot take payouts, as Stripe refuses a destination without the
 * transfers capability.
 */
function transferAnswer(
  form: Record<string, string>,
  accounts: Map<string, Account>,
  transfers: Map<string, Account>,
  error: (status: number, e: Record<string, string>) => Answer,
): Answer {
  for (const param of ['amount', 'currency', 'destination'])
    if (!form[param]) return error(400, { code: 'parameter_missing', message: `Missing required param: ${param}.`, param });
  const account = accounts.get(form.destination!);
  if (!account)
    return error(400, { code: 'resource_missing', message: `No such destination: '${form.destination}'`, param: 'destination' });
  if (!account.payouts_enabled) {
    return error(400, {
      code: 'insufficient_capabilities_for_transfer',
      message:
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
      param: 'destination',
    });
  }
  const transfer = {
    id: id('tr'),
    object: 'transfer',
    amount: Number(form.amount),
    amount_reversed: 0,
    currency: form.currency,
    description: form.description ?? null,
    destination: form.destination,
    destination_payment: id('py'),
    livemode: false,
    metadata: metadataOf(form),
    reversals: { object: 'list', data: [], has_more: false, total_count: 0, url: '/v1/transfers/reversals' },
    reversed: false,
    source_type: 'card',
    transfer_group: form.transfer_group ?? null,
    created: Math.floor(Date.now() / 1000),
  };
  transfers.set(transfer.id, transfer);
  return { status: 200, json: transfer };
}

/**
 * POST /v1/transfers/:id/reversals: a reversal of `amount` (the rest when absent), newest first in
 * the transfer's `reversals` list, as Stripe keeps it; `reversed` once nothing is left.
 */
function reversalAnswer(
  form: Record<string, string>,
  transfer: Account | undefined,
  error: (status: number, e: Record<string, string>) => Answer,
): Answer {
  if (!transfer) return error(404, { code: 'resource_missing', message: 'No such transfer' });
  const left = transfer.amount - transfer.amount_reversed;
  const amount = form.amount ? Number(form.amount) : left;
  if (amount <= 0 || amount > left)
    return error(400, {
      code: 'parameter_invalid_integer',
      message: 'Amount must be no more than what is left to reverse',
      param: 'amount',
    });
  const made = { id: id('trr'), object: 'transfer_reversal', amount, currency: transfer.currency, transfer: transfer.id, created: 0 };
  transfer.amount_reversed += amount;
  transfer.reversed = transfer.amount_reversed === transfer.amount;
  transfer.reversals = { ...transfer.reversals, data: [made, ...transfer.reversals.data], total_count: transfer.reversals.total_count + 1 };
  return { status: 200, json: made };
}

function expressAccount(form: Record<string, string>): Account {
  const metadata = metadataOf(form);
  return {
    id: id('acct'),
    object: 'account',
    type: 'express',
    country: form.country ?? 'US',
    email: form.email ?? null,
    business_type: null,
    capabilities: { transfers: 'inactive' },
    charges_enabled: false,
    payouts_enabled: false,
    details_submitted: false,
    default_currency: 'usd',
    metadata,
    requirements: {
      currently_due: ['business_type', 'external_account', 'tos_acceptance.date', 'tos_acceptance.ip'],
      eventually_due: ['business_type', 'external_account', 'tos_acceptance.date', 'tos_acceptance.ip'],
      past_due: ['business_type', 'external_account', 'tos_acceptance.date', 'tos_acceptance.ip'],
      pending_verification: [],
      disabled_reason: 'requirements.past_due',
      current_deadline: null,
      errors: [],
    },
    created: Math.floor(Date.now() / 1000),
  };
}

/** Connect's routes: POST /v1/accounts, GET /v1/accounts/:id, POST /v1/account_links; undefined for any other. */
function connectAnswer(
  method: string,
  path: string,
  form: Record<string, string>,
  accounts: Map<string, Account>,
  error: (status: number, e: Record<string, string>) => Answer,
): Answer | undefined {
  const missing = (param: string) => error(400, { code: 'parameter_missing', message: `Missing required param: ${param}.`, param });
  if (method === 'POST' && path === '/v1/accounts') {
    if (form.type !== 'express')
      return error(400, { code: 'parameter_invalid_empty', message: 'This fake makes Express accounts only.', param: 'type' });
    const account = expressAccount(form);
    accounts.set(account.id, account);
    return { status: 200, json: account };
  }
  const one = /^\/v1\/accounts\/(acct_\w+)$/.exec(path);
  if (method === 'GET' && one) {
    const account = accounts.get(one[1]!);
    return account
      ? { status: 200, json: account }
      : error(404, { code: 'resource_missing', message: `No such account: '${one[1]}'`, param: 'account' });
  }
  if (method === 'POST' && path === '/v1/account_links') {
    for (const param of ['account', 'type']) if (!form[param]) return missing(param);
    if (!accounts.has(form.account!))
      return error(400, { code: 'resource_missing', message: `No such account: '${form.account}'`, param: 'account' });
    if (!form.refresh_url) return missing('refresh_url');
    const created = Math.floor(Date.now() / 1000);
    return {
      status: 200,
      json: {
        object: 'account_link',
        created,
        expires_at: created + 300,
        url: `https://connect.stripe.com/setup/e/${form.account}/${id('link')}`,
      },
    };
  }
  return undefined;
}
