// Stripe's API as a local server, for the few calls Tally makes with a program's key:
// coupons and promotion codes, made and turned off, with Stripe's error answers for a
// code that exists already and for a key it does not know (as https://docs.stripe.com/api
// documents them). The `stripe` package itself talks to it (its host, port and protocol set).

import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StripeApi {
  url: string;
  /** The requests received, as method, path and the form fields sent. */
  calls: Array<{ method: string; path: string; form: Record<string, string> }>;
  promotionCodes: Map<string, { code: string; coupon: string; active: boolean }>;
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
  const error = (status: number, e: Record<string, string>) => ({ status, json: { error: { type: 'invalid_request_error', ...e } } });
  const server = createServer(async (req, res) => {
    const form = Object.fromEntries(new URLSearchParams(await body(req)));
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    calls.push({ method: req.method ?? '', path, form });
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
      const update = /^\/v1\/promotion_codes\/(promo_\w+)$/.exec(path);
      const found = update ? promotionCodes.get(update[1]!) : undefined;
      if (req.method === 'POST' && found) {
        found.active = form.active === 'true';
        return { status: 200, json: { id: update![1], object: 'promotion_code', code: found.code, active: found.active } };
      }
      return error(404, { code: 'resource_missing', message: `Unrecognized request URL (${req.method}: ${path}).` });
    })();
    res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(JSON.stringify(answer.json));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    promotionCodes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
