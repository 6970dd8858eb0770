// Wise's API as a local server, for the calls Tally makes with a program's token (as
// https://docs.wise.com/api-reference documents them): the recipient account requirements
// of a currency route (GET /v1/account-requirements) and a recipient made from them
// (POST /v1/accounts), checked field by field against those requirements, with Wise's
// 401 for an unknown token and its 422 `errors` naming the field for details it refuses.
// For payout runs: quotes (POST /v3/profiles/{id}/quotes, refusing a targetAmount with more
// decimals than the currency has), transfers (POST /v1/transfers, the same transfer again for
// a customerTransactionId it has seen; GET /v1/transfers/{id}), their funding from the
// profile's balance (REJECTED with transfer.insufficient_funds when short), answers lost on
// request, and transfers#state-change webhooks signed as Wise signs them (RSA-SHA256 in
// X-Signature-SHA256) with a test key.

import { createSign, generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Held, holder } from './held.js';

type Json = Record<string, unknown>;

export interface WiseApi {
  url: string;
  calls: Array<{ method: string; path: string; query: Record<string, string>; body: Json | undefined }>;
  /** The recipients made, by id: what Wise keeps (the bank details), which Tally must not. */
  recipients: Map<number, Json>;
  quotes: Map<string, Json>;
  /** The transfers made, by id, each with its status as Wise moves it. */
  transfers: Map<number, Json>;
  /** The fundings taken, in order: a transfer funded twice would show twice. */
  payments: Array<{ transferId: number; type: unknown }>;
  /** The profile's balance per currency, in major units (funding takes the quote's sourceAmount). */
  balances: Record<string, number>;
  /** Wise's fee per currency, in major units, added to the source amount. */
  fees: Record<string, number>;
  /** The next `count` calls to `path` (a prefix) are done, then their connection dropped: the answer lost. */
  lose(path: string, count?: number): void;
  /**
   * The next call to `path` (a prefix) is done, then `taken` resolves and its answer waits for
   * `release()`: a test kills the caller meanwhile, or lets another process run first.
   */
  hold(path: string): Held;
  /** The public half of the key the fake signs webhooks with (PEM), as Wise publishes its own. */
  publicKey: string;
  /** A transfers#state-change event for the transfer (its status moved), signed: its raw body and X-Signature-SHA256. */
  stateChange(transferId: number, state: string): { raw: string; signature: string };
  close(): Promise<void>;
}

interface Field {
  key: string;
  name: string;
  example: string;
  regexp: string;
}

/** The account types per target currency, with the fields each requires: a slice of Wise's real answers. */
const TYPES: Record<string, Array<{ type: string; title: string; fields: Field[] }>> = {
  EUR: [
    {
      type: 'iban',
      title: 'IBAN',
      fields: [{ key: 'iban', name: 'IBAN', example: 'DE89370400440532013000', regexp: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$' }],
    },
  ],
  JPY: [
    {
      type: 'japanese',
      title: 'Local bank account',
      fields: [
        { key: 'bankCode', name: 'Bank code', example: '0001', regexp: '^[0-9]{4}$' },
        { key: 'branchCode', name: 'Branch code', example: '001', regexp: '^[0-9]{3}$' },
        { key: 'accountNumber', name: 'Account number', example: '1234567', regexp: '^[0-9]{7}$' },
      ],
    },
  ],
  GBP: [
    {
      type: 'sort_code',
      title: 'Local bank account',
      fields: [
        { key: 'sortCode', name: 'UK sort code', example: '040075', regexp: '^[0-9]{6}$' },
        { key: 'accountNumber', name: 'Account number', example: '37778842', regexp: '^[0-9]{8}$' },
      ],
    },
    {
      type: 'iban',
      title: 'IBAN',
      fields: [{ key: 'iban', name: 'IBAN', example: 'GB29NWBK60161331926819', regexp: '^GB[0-9]{2}[A-Z]{4}[0-9]{14}$' }],
    },
  ],
};

/** A requirement as Wise's answer has it: each field in a `group`, with its validation. */
const requirement = (r: (typeof TYPES)[string][number]) => ({
  type: r.type,
  title: r.title,
  usageInfo: null,
  fields: [
    { name: 'Full name of the account holder', group: [group({ key: 'accountHolderName', name: '', example: 'Jane Doe', regexp: '' })] },
    ...r.fields.map((f) => ({ name: f.name, group: [group(f)] })),
  ],
});

const group = (f: Field) => ({
  key: f.key,
  type: 'text',
  refreshRequirementsOnChange: false,
  required: true,
  displayFormat: null,
  example: f.example,
  minLength: null,
  maxLength: null,
  validationRegexp: f.regexp || null,
  validationAsync: null,
  valuesAllowed: null,
});

const read = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => resolve(text));
  });

/** `validToken`: the only token answered, as the program's API token in Wise's settings. */
export async function startWiseApi(validToken: string, profileId: number): Promise<WiseApi> {
  const calls: WiseApi['calls'] = [];
  const recipients: WiseApi['recipients'] = new Map();
  let next = 40_000_000;
  let nextTransfer = 50_000_000;
  const quotes: WiseApi['quotes'] = new Map();
  const transfers: WiseApi['transfers'] = new Map();
  const payments: WiseApi['payments'] = [];
  const balances: WiseApi['balances'] = { EUR: 10_000, JPY: 1_000_000, GBP: 10_000, USD: 10_000 };
  const fees: WiseApi['fees'] = { EUR: 0.41, JPY: 62, GBP: 0.35, USD: 0.5 };
  const losing = new Map<string, number>();
  const holds = holder();
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const sign = (raw: string) => createSign('RSA-SHA256').update(raw).sign(keys.privateKey, 'base64');
  const invalid = (path: string, message: string) => ({
    status: 422,
    json: { errors: [{ code: 'NOT_VALID', message, path, arguments: [path] }] },
  });
  /** The payout calls: quotes, transfers and their funding; undefined for another path. */
  const payouts = (method: string, path: string, body: Json | undefined): { status: number; json: unknown } | undefined => {
    const profile = path.match(/^\/v3\/profiles\/(\d+)\//)?.[1];
    if (profile !== undefined && profile !== String(profileId)) return { status: 403, json: { error: 'forbidden' } };
    if (method === 'POST' && path === `/v3/profiles/${profileId}/quotes` && body) return makeQuote(body);
    if (method === 'POST' && path === '/v1/transfers' && body) return makeTransfer(body);
    const shown = path.match(/^\/v1\/transfers\/(\d+)$/);
    if (method === 'GET' && shown) {
      const t = transfers.get(Number(shown[1]));
      return t ? { status: 200, json: t } : { status: 404, json: { errors: [{ code: 'NOT_FOUND', message: 'Transfer not found' }] } };
    }
    const funding = path.match(/^\/v3\/profiles\/\d+\/transfers\/(\d+)\/payments$/);
    if (method === 'POST' && funding && body) return fundTransfer(Number(funding[1]), body);
    return undefined;
  };
  const makeQuote = (body: Json) => {
    const currency = String(body.targetCurrency);
    const amount = body.targetAmount;
    const digits = currency === 'JPY' ? 0 : 2;
    if (body.sourceCurrency !== currency || !(currency in fees)) return invalid('targetCurrency', `No route for ${currency}`);
    // Decimals as sent, not amount * 100 in floats (10.05 * 100 is 1004.999…).
    if (typeof amount !== 'number' || amount <= 0 || (String(amount).split('.')[1] ?? '').length > digits) {
      return invalid('targetAmount', `targetAmount must be positive with at most ${digits} decimals in ${currency}`);
    }
    const fee = fees[currency]!;
    const sourceAmount = Math.round((amount + fee) * 10 ** digits) / 10 ** digits;
    const option = (payIn: string) => ({
      payIn,
      payOut: body.payOut,
      fee: { transferwise: fee, payIn: 0, discount: 0, partner: 0, total: fee },
      sourceAmount,
      targetAmount: amount,
      disabled: false,
    });
    const quote = {
      id: randomUUID(),
      sourceCurrency: currency,
      targetCurrency: currency,
      sourceAmount,
      targetAmount: amount,
      rate: 1,
      payOut: body.payOut,
      status: 'PENDING',
      profile: profileId,
      paymentOptions: [option('BANK_TRANSFER'), option('BALANCE')],
    };
    quotes.set(quote.id, quote);
    return { status: 200, json: quote };
  };
  const makeTransfer = (body: Json) => {
    const seen = [...transfers.values()].find((t) => t.customerTransactionId === body.customerTransactionId);
    if (seen) return { status: 200, json: seen };
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(String(body.customerTransactionId))) {
      return invalid('customerTransactionId', 'customerTransactionId must be a UUID');
    }
    const quote = quotes.get(String(body.quoteUuid));
    if (!quote) return invalid('quoteUuid', 'Quote not found');
    if (!recipients.has(Number(body.targetAccount))) return invalid('targetAccount', 'Recipient not found');
    const made = {
      id: ++nextTransfer,
      user: 1,
      targetAccount: body.targetAccount,
      quoteUuid: quote.id,
      status: 'incoming_payment_waiting',
      reference: (body.details as Json | undefined)?.reference ?? '',
      rate: 1,
      created: new Date().toISOString(),
      sourceCurrency: quote.sourceCurrency,
      sourceValue: quote.sourceAmount,
      targetCurrency: quote.targetCurrency,
      targetValue: quote.targetAmount,
      customerTransactionId: body.customerTransactionId,
    };
    transfers.set(made.id, made);
    return { status: 200, json: made };
  };
  const fundTransfer = (id: number, body: Json) => {
    const t = transfers.get(id);
    if (!t) return { status: 404, json: { errors: [{ code: 'NOT_FOUND', message: 'Transfer not found' }] } };
    if (body.type !== 'BALANCE') return invalid('type', 'Only BALANCE funding is available');
    if (t.status !== 'incoming_payment_waiting') {
      return { status: 409, json: { errors: [{ code: 'transfer.already_funded', message: 'The transfer is funded already' }] } };
    }
    const currency = String(t.sourceCurrency);
    if ((balances[currency] ?? 0) < Number(t.sourceValue)) {
      return { status: 200, json: { type: 'BALANCE', status: 'REJECTED', errorCode: 'transfer.insufficient_funds' } };
    }
    balances[currency] = (balances[currency] ?? 0) - Number(t.sourceValue);
    payments.push({ transferId: id, type: body.type });
    t.status = 'processing';
    return { status: 200, json: { type: 'BALANCE', status: 'COMPLETED', errorCode: null } };
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const text = await read(req);
    const body = text ? (JSON.parse(text) as Json) : undefined;
    calls.push({ method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), body });
    const answer = ((): { status: number; json: unknown } => {
      if (req.headers.authorization !== `Bearer ${validToken}`) {
        return { status: 401, json: { error: 'invalid_token', error_description: 'Invalid token' } };
      }
      if (req.method === 'GET' && url.pathname === '/v1/account-requirements') {
        const missing = ['source', 'target', 'sourceAmount'].find((p) => !url.searchParams.get(p));
        if (missing) return invalid(missing, `${missing} is required`);
        return { status: 200, json: (TYPES[url.searchParams.get('target') ?? ''] ?? []).map(requirement) };
      }
      if (req.method === 'POST' && url.pathname === '/v1/accounts' && body) {
        if (body.profile !== String(profileId) && body.profile !== profileId) return invalid('profile', 'Profile not found');
        const type = TYPES[String(body.currency)]?.find((t) => t.type === body.type);
        if (!type) return invalid('type', `Account type ${String(body.type)} is not available for ${String(body.currency)}`);
        if (!body.accountHolderName) return invalid('accountHolderName', 'Please enter the name of the account holder');
        const details = (body.details ?? {}) as Record<string, unknown>;
        for (const f of type.fields) {
          const v = details[f.key];
          if (typeof v !== 'string' || !new RegExp(f.regexp).test(v)) return invalid(f.key, `Please specify a valid ${f.name}`);
        }
        const id = ++next;
        const made = {
          id,
          business: null,
          profile: profileId,
          accountHolderName: body.accountHolderName,
          currency: body.currency,
          type: body.type,
          details,
          active: true,
          ownedByCustomer: false,
        };
        recipients.set(id, made);
        return { status: 200, json: made };
      }
      const paid = payouts(req.method ?? '', url.pathname, body);
      if (paid) return paid;
      return { status: 404, json: { errors: [{ code: 'NOT_FOUND', message: `No route ${req.method} ${url.pathname}` }] } };
    })();
    await holds.wait(url.pathname);
    const lost = [...losing.keys()].find((p) => url.pathname.startsWith(p));
    if (lost) {
      // Done, and then no answer: the connection drops before a byte of it.
      const left = losing.get(lost)! - 1;
      if (left > 0) losing.set(lost, left);
      else losing.delete(lost);
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.json));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    recipients,
    quotes,
    transfers,
    payments,
    balances,
    fees,
    lose: (path, count = 1) => losing.set(path, count),
    hold: holds.hold,
    publicKey: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    stateChange(transferId, state) {
      const t = transfers.get(transferId)!;
      const previous = t.status;
      t.status = state;
      const at = new Date().toISOString();
      const raw = JSON.stringify({
        data: {
          resource: { type: 'transfer', id: transferId, profile_id: profileId, account_id: t.targetAccount },
          current_state: state,
          previous_state: previous,
          occurred_at: at,
        },
        subscription_id: '01234567-89ab-cdef-0123-456789abcdef',
        event_type: 'transfers#state-change',
        schema_version: '2.0.0',
        sent_at: at,
      });
      return { raw, signature: sign(raw) };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
