// Shopify's GraphQL Admin API as a local server, for the one call Tally makes with a shop's
// Admin API access token: discountCodeBasicCreate, answered as shopify.dev's reference
// documents it (POST /admin/api/<version>/graphql.json, X-Shopify-Access-Token; the payload's
// codeDiscountNode and userErrors, TAKEN for a code the shop has; a 401 with its `errors`
// string for a token it does not know).

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, any>;

export interface ShopifyAdminApi {
  url: string;
  /** Each mutation's variables, as received. */
  created: Json[];
  /** The codes the shop has, in upper case (Shopify compares them so). */
  codes: Set<string>;
  /** Each request's path. */
  paths: string[];
  /** A userError to answer the next mutations with while set, as Shopify words one. */
  refuse: { field: string; code: string; message: string } | undefined;
  close(): Promise<void>;
}

const userError = (field: string, code: string, message: string) => ({ field: ['basicCodeDiscount', field], code, message });

/** What Shopify refuses of a DiscountCodeBasicInput, as its userErrors say it. */
function refusals(input: Json, codes: Set<string>) {
  const errors = [];
  if (!input.code) errors.push(userError('code', 'BLANK', "Code can't be blank"));
  else if (codes.has(String(input.code).toUpperCase()))
    errors.push(userError('code', 'TAKEN', 'Code must be unique. Please try a different code.'));
  if (!input.title) errors.push(userError('title', 'BLANK', "Title can't be blank"));
  if (!input.context && !input.customerSelection) errors.push(userError('context', 'BLANK', "Context can't be blank"));
  const pct = input.customerGets?.value?.percentage;
  if (pct !== undefined && (pct <= 0 || pct > 1)) {
    errors.push({
      field: ['basicCodeDiscount', 'customerGets', 'value', 'percentage'],
      code: 'VALUE_OUTSIDE_RANGE',
      message: 'Value must be between 0.0 and 1.0',
    });
  }
  return errors;
}

export async function startShopifyAdminApi(validToken: string): Promise<ShopifyAdminApi> {
  let next = 1_057_371_000;
  const api: ShopifyAdminApi = {
    url: '',
    created: [],
    codes: new Set(),
    paths: [],
    refuse: undefined,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://x');
    api.paths.push(url.pathname);
    const send = (status: number, json: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(json));
    if (req.headers['x-shopify-access-token'] !== validToken) {
      return send(401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
    }
    if (req.method !== 'POST' || !/^\/admin\/api\/\d{4}-\d{2}\/graphql\.json$/.test(url.pathname))
      return send(404, { errors: 'Not Found' });
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
    const input = body.variables?.basicCodeDiscount ?? {};
    if (!/discountCodeBasicCreate/.test(String(body.query)))
      return send(200, { errors: [{ message: 'Field does not exist on type Mutation' }] });
    api.created.push(input);
    const errors = api.refuse ? [userError(api.refuse.field, api.refuse.code, api.refuse.message)] : refusals(input, api.codes);
    const cost = {
      requestedQueryCost: 10,
      actualQueryCost: 10,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1990, restoreRate: 100 },
    };
    if (errors.length > 0)
      return send(200, { data: { discountCodeBasicCreate: { codeDiscountNode: null, userErrors: errors } }, extensions: { cost } });
    api.codes.add(String(input.code).toUpperCase());
    const id = `gid://shopify/DiscountCodeNode/${++next}`;
    send(200, { data: { discountCodeBasicCreate: { codeDiscountNode: { id }, userErrors: [] } }, extensions: { cost } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return api;
}
