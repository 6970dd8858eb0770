// Wise's API as a local server, for the calls Tally makes with a program's token (as
// https://docs.wise.com/api-reference documents them): the recipient account requirements
// of a currency route (GET /v1/account-requirements) and a recipient made from them
// (POST /v1/accounts), checked field by field against those requirements, with Wise's
// 401 for an unknown token and its 422 `errors` naming the field for details it refuses.

import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;

export interface WiseApi {
  url: string;
  calls: Array<{ method: string; path: string; query: Record<string, string>; body: Json | undefined }>;
  /** The recipients made, by id: what Wise keeps (the bank details), which Tally must not. */
  recipients: Map<number, Json>;
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
  const invalid = (path: string, message: string) => ({
    status: 422,
    json: { errors: [{ code: 'NOT_VALID', message, path, arguments: [path] }] },
  });
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
      return { status: 404, json: { errors: [{ code: 'NOT_FOUND', message: `No route ${req.method} ${url.pathname}` }] } };
    })();
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.json));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    recipients,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
