// Lemon Squeezy's API as a local server, for the one call Tally makes with a program's
// key: an order's discount redemptions (GET /v1/discount-redemptions?filter[order_id]=…),
// answered as docs.lemonsqueezy.com/api/discount-redemptions documents it (JSON:API), with
// its 401 for a key it does not know and a 429 when told to.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lsDiscountRedemption } from './lemonsqueezy-fixtures.js';

export interface LemonSqueezyApi {
  url: string;
  /** Each request's path and query. */
  calls: string[];
  /** The code each order was redeemed with. */
  redemptions: Map<string, string>;
  /** Answers this status to the next requests while set (a 429, a 500). */
  failWith: number | undefined;
  close(): Promise<void>;
}

export async function startLemonSqueezyApi(validKey: string): Promise<LemonSqueezyApi> {
  const api: LemonSqueezyApi = {
    url: '',
    calls: [],
    redemptions: new Map(),
    failWith: undefined,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    api.calls.push(url.pathname + url.search);
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/vnd.api+json' }).end(JSON.stringify(json));
    };
    if (req.headers.authorization !== `Bearer ${validKey}`) {
      return send(401, { jsonapi: { version: '1.0' }, errors: [{ detail: 'Unauthenticated.', status: '401', title: 'Unauthorized' }] });
    }
    if (api.failWith) return send(api.failWith, { errors: [{ status: String(api.failWith), title: 'Too Many Requests' }] });
    if (url.pathname !== '/v1/discount-redemptions') return send(404, { errors: [{ status: '404', title: 'Not Found' }] });
    const orderId = url.searchParams.get('filter[order_id]') ?? '';
    const code = api.redemptions.get(orderId);
    const data = code ? [lsDiscountRedemption({ orderId, code, amount: 1_000 })] : [];
    send(200, {
      meta: {
        page: { currentPage: 1, from: data.length ? 1 : null, lastPage: 1, perPage: 10, to: data.length || null, total: data.length },
      },
      jsonapi: { version: '1.0' },
      links: { first: url.href, last: url.href },
      data,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return api;
}
