// A platform's REST API as the importer meets it: fixture answers written from the
// platform's documentation (fixtures/imports/<platform>/), served by a real HTTP server on
// port 0. A page's file is named by its list and its page: `affiliates.2.json` for
// `?page=2`, `partners.cur_X.json` for `?starting_after=cur_X`, `.1` for the first.
// Faults script what the documentation says can happen: a 429 with Retry-After, a 5xx.

import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Fault {
  /** The list, as its path: '/affiliates'. */
  path: string;
  /** The page it hits ('2', a cursor), or every page. */
  page?: string;
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** How many answers it replaces; every one when absent. */
  times?: number;
}

export interface FixtureApi {
  url: string;
  /** Every request: its path with query, its headers, and when it came (ms). */
  requests: Array<{ path: string; headers: IncomingHttpHeaders; at: number }>;
  faults: Fault[];
  close(): Promise<void>;
}

/**
 * Serves `platform`'s fixtures to callers whose headers `authorized` accepts; others get
 * `refusal` with 401, the platform's own error body.
 */
export async function startFixtureApi(
  platform: 'rewardful' | 'firstpromoter' | 'tolt',
  authorized: (headers: IncomingHttpHeaders) => boolean,
  refusal: unknown,
): Promise<FixtureApi> {
  const dir = new URL(`./fixtures/imports/${platform}/`, import.meta.url);
  const requests: FixtureApi['requests'] = [];
  const faults: Fault[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    requests.push({ path: url.pathname + url.search, headers: req.headers, at: Date.now() });
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (!authorized(req.headers)) return send(401, refusal);
    const list = url.pathname.replace(/^\//, '');
    const page = url.searchParams.get('page') ?? url.searchParams.get('starting_after') ?? '1';
    const fault = faults.find((f) => f.path === url.pathname && (f.page === undefined || f.page === page) && (f.times ?? 1) > 0);
    if (fault) {
      if (fault.times !== undefined) fault.times--;
      return send(fault.status, fault.body ?? { error: 'fixture fault' }, fault.headers);
    }
    try {
      send(200, JSON.parse(readFileSync(new URL(`${list}.${page}.json`, dir), 'utf8')));
    } catch {
      send(404, { error: `no fixture for ${url.pathname} page ${page}` });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    faults,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
