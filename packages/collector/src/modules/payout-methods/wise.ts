// Wise's API (https://docs.wise.com/api-reference) for partners' bank accounts, with the
// program's own API token: the recipient account requirements for a currency, and the
// recipient made from what the partner filled in. Tally keeps Wise's recipient id and a
// masked line for display, never the bank details themselves.

import { fail } from '../../platform/errors.js';
import { obj, str, type Json } from '../billing/facts.js';

export const WISE_API = 'https://api.wise.com';

/** A field of a requirement as the partner's form needs it (Wise's `fields[].group[]`). */
export interface RequiredField {
  key: string;
  name: string;
  type: string;
  required: boolean;
  example: string | null;
  validation_regexp: string | null;
  min_length: number | null;
  max_length: number | null;
  /** The choices of a `select` or `radio` field. */
  values: Array<{ key: string; name: string }> | null;
  /** Wise asks for the requirements again when this field changes (a country's states). */
  refresh_on_change: boolean;
}

export interface Requirement {
  /** The account type to create: `iban`, `sort_code`, `aba`… */
  type: string;
  title: string;
  fields: RequiredField[];
}

export interface Recipient {
  id: string;
  currency: string;
  type: string;
  display: string;
}

const arr = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj).filter((x): x is Json => x !== undefined) : []);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function fieldOf(g: Json, name: string): RequiredField {
  const values = arr(g.valuesAllowed).map((v) => ({ key: str(v.key) ?? '', name: str(v.name) ?? '' }));
  return {
    key: str(g.key) ?? '',
    name,
    type: str(g.type) ?? 'text',
    required: g.required === true,
    example: str(g.example) ?? null,
    validation_regexp: str(g.validationRegexp) ?? null,
    min_length: num(g.minLength),
    max_length: num(g.maxLength),
    values: Array.isArray(g.valuesAllowed) ? values : null,
    refresh_on_change: g.refreshRequirementsOnChange === true,
  };
}

function requirementOf(r: Json): Requirement {
  return {
    type: str(r.type) ?? '',
    title: str(r.title) ?? '',
    fields: arr(r.fields).flatMap((f) => arr(f.group).map((g) => fieldOf(g, str(f.name) ?? ''))),
  };
}

/** The last four characters of the number that names the account, behind dots. */
function masked(type: string, details: Record<string, unknown>): string {
  const number = ['iban', 'accountNumber', 'clabe', 'cardNumber', 'email'].map((k) => str(details[k])).find(Boolean) ?? '';
  const tail = number.replace(/\s+/g, '').slice(-4);
  return tail ? `${type} •••• ${tail}` : type;
}

/** Wise's answer to one call: its status and JSON body (undefined when it was not JSON). */
export interface WiseReply {
  ok: boolean;
  status: number;
  json: unknown;
}

/** One call to Wise's API with a program's token; undefined when Wise did not answer at all (each caller says what that leaves). */
export async function wiseCall(
  token: string,
  apiUrl: string | undefined,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<WiseReply | undefined> {
  try {
    const res = await fetch(new URL(path, apiUrl ?? WISE_API), {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      // A proxy's HTML page, say: no answer Wise gave.
      if (res.ok) return undefined;
    }
    return { ok: res.ok, status: res.status, json };
  } catch {
    return undefined;
  }
}

export class WiseApi {
  constructor(
    private readonly token: string,
    private readonly apiUrl: string | undefined = WISE_API,
  ) {}

  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const res = await wiseCall(this.token, this.apiUrl, method, path, body);
    if (!res) throw fail('unavailable', 'Wise did not answer; nothing was made: try again');
    if (res.ok) return res.json;
    throw refused(res.status, res.json);
  }

  /** GET /v1/account-requirements: the forms a recipient of `target` may fill in. */
  async requirements(source: string, target: string, sourceAmount: number): Promise<Requirement[]> {
    const q = new URLSearchParams({ source, target, sourceAmount: String(sourceAmount) });
    return arr(await this.call('GET', `/v1/account-requirements?${q}`)).map(requirementOf);
  }

  /** POST /v1/accounts: a recipient of the program's profile, owned by the partner. */
  async createRecipient(input: {
    profile: string;
    currency: string;
    type: string;
    accountHolderName: string;
    details: Record<string, unknown>;
  }): Promise<Recipient> {
    const made = obj(await this.call('POST', '/v1/accounts', { ...input, ownedByCustomer: false })) ?? {};
    const id = made.id;
    if (typeof id !== 'number' && typeof id !== 'string') throw fail('unavailable', 'Wise answered without a recipient id');
    return { id: String(id), currency: str(made.currency) ?? input.currency, type: input.type, display: masked(input.type, input.details) };
  }
}

/** Wise's refusal as the API's error: a field Wise names is the partner's to fix, the token the owner's. */
function refused(status: number, json: unknown): Error {
  if (status === 401 || status === 403) {
    return fail('invalid_field', "Wise refused the program's API token: the owner sets a valid one in the payout settings", {
      field: 'wise_api_token',
    });
  }
  if (status === 429 || status >= 500) return fail('unavailable', `Wise answered ${status}; nothing was made: try again`);
  const [first] = arr(obj(json)?.errors);
  const path = str(first?.path);
  const message = str(first?.message) ?? `Wise answered ${status}`;
  return fail('invalid_field', `Wise refused the bank details: ${message}`, { field: path ? `details/${path}` : 'details' });
}
