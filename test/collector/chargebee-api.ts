// Chargebee's API as a local server, for the one call Tally makes with a program's key:
// retrieving an event (GET /api/v2/events/{id}), answered as apidocs.chargebee.com
// documents it: `{ "event": {…} }`, the API key as basic auth's username, its error objects
// (`api_error_code`, `http_status_code`) for a key it does not know or an event it does not
// have, and a 429 when told to.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;

export interface ChargebeeApi {
  url: string;
  /** Each request's host header and path. */
  calls: Array<{ host: string; path: string }>;
  /** The events the site has, by id: what a retrieve answers. */
  events: Map<string, Json>;
  /** Answers this status to the next requests while set (a 429, a 500). */
  failWith: number | undefined;
  close(): Promise<void>;
}

function error(status: number, api_error_code: string, message: string): Json {
  const type = status === 401 ? undefined : 'invalid_request';
  return { message, ...(type ? { type } : {}), api_error_code, error_code: api_error_code, http_status_code: status };
}

export async function startChargebeeApi(validKey: string): Promise<ChargebeeApi> {
  const api: ChargebeeApi = {
    url: '',
    calls: [],
    events: new Map(),
    failWith: undefined,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    api.calls.push({ host: req.headers.host ?? '', path: url.pathname });
    const send = (status: number, json: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' }).end(JSON.stringify(json));
    const expected = `Basic ${Buffer.from(`${validKey}:`).toString('base64')}`;
    if (req.headers.authorization !== expected) {
      return send(401, error(401, 'api_authentication_failed', 'Sorry, authentication failed. Invalid api key'));
    }
    if (api.failWith)
      return send(api.failWith, error(api.failWith, 'api_request_limit_exceeded', 'Sorry, access has been blocked temporarily'));
    const id = /^\/api\/v2\/events\/([^/]+)$/.exec(url.pathname)?.[1];
    const event = id ? api.events.get(decodeURIComponent(id)) : undefined;
    if (!event) return send(404, error(404, 'resource_not_found', `Sorry, we couldn't find that resource`));
    send(200, { event });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return api;
}
