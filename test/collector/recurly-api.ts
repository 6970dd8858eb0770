// Recurly's API v3 as a local server, for the GETs Tally makes with a program's private API
// key (basic auth, the key as the user name): invoices, an invoice's coupon redemptions,
// accounts and subscriptions, answered as Recurly's API reference documents them, with its
// error object for a key it does not know (401) and an object it has not (404).

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;

export interface RecurlyApi {
  url: string;
  /** Each request's path. */
  calls: string[];
  /** The objects by path: `/invoices/<id>`, `/invoices/<id>/coupon_redemptions`, `/accounts/<id>`, `/subscriptions/<id>`. */
  objects: Map<string, Json>;
  /** The private API keys it takes. */
  keys: Set<string>;
  /** Answers this status to the next requests while set (a 429, a 500). */
  failWith: number | undefined;
  close(): Promise<void>;
}

const error = (type: string, message: string) => ({ error: { type, message } });

export async function startRecurlyApi(): Promise<RecurlyApi> {
  const api: RecurlyApi = {
    url: '',
    calls: [],
    objects: new Map(),
    keys: new Set(),
    failWith: undefined,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    api.calls.push(url.pathname);
    const send = (status: number, json: unknown) => {
      res.writeHead(status, {
        'content-type': 'application/vnd.recurly.v2021-02-25+json; charset=utf-8',
        'recurly-version': 'recurly.v2021-02-25',
      });
      res.end(JSON.stringify(json));
    };
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const user = basic ? Buffer.from(basic, 'base64').toString('utf8').replace(/:$/, '') : '';
    if (!api.keys.has(user)) return send(401, error('unauthorized', 'Invalid API key. Please check your API key and try again.'));
    if (!/^application\/vnd\.recurly\.v2021-02-25/.test(req.headers.accept ?? '')) {
      return send(406, error('invalid_api_version', 'Invalid API version'));
    }
    if (api.failWith) return send(api.failWith, error('rate_limited', 'You have made too many API requests in the last 5 minutes.'));
    const found = req.method === 'GET' ? api.objects.get(url.pathname) : undefined;
    if (!found) return send(404, error('not_found', `Couldn't find the resource at ${url.pathname}`));
    send(200, found);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return api;
}
