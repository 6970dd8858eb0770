// A real HTTP server that receives webhooks in a test: it keeps every request, and
// answers as the test says (a status, a header, a delay, or no answer at all).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  json: { id: string; type: string; timestamp: string; data: { id: string; type: string; attributes: Record<string, unknown> } };
}

export type Answer = (
  req: Received,
  n: number,
) => { status: number; headers?: Record<string, string>; delayMs?: number; hang?: boolean; body?: string };

export interface Receiver {
  url: string;
  received: Received[];
  /** How each path answers; 200 unless set. */
  answer: Map<string, Answer>;
  /** Resolves once `count` requests reached `path` (any path when omitted). */
  waitFor(count: number, path?: string, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answer = new Map<string, Answer>();
  const counts = new Map<string, number>();
  const waiters: Array<() => void> = [];
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const r: Received = { path, headers: req.headers as Record<string, string>, body, json: JSON.parse(body) as Received['json'] };
      received.push(r);
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      for (const w of waiters.splice(0)) w();
      const a = answer.get(path)?.(r, n) ?? { status: 200 };
      if (a.hang) return;
      setTimeout(() => res.writeHead(a.status, a.headers).end(a.body ?? 'ok'), a.delayMs ?? 0);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const matching = (path?: string) => received.filter((r) => path === undefined || r.path === path);
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer,
    async waitFor(count, path, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (matching(path).length < count) {
        if (Date.now() > deadline) throw new Error(`${matching(path).length} of ${count} webhooks arrived at ${path ?? 'the receiver'}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return matching(path);
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Whether `r` carries a valid signature by `secret`, checked by the Standard Webhooks
 * package: verify() where the timestamp is near real time; where the test's clock moved
 * far from it (retries hours later), its own sign() of the same message, compared.
 */
export function signedBy(secret: string, r: Received): boolean {
  const wh = new Webhook(secret);
  const at = Number(r.headers['webhook-timestamp']);
  if (Math.abs(at - Date.now() / 1000) < 240) {
    try {
      wh.verify(r.body, r.headers);
      return true;
    } catch {
      return false;
    }
  }
  const expected = wh.sign(r.headers['webhook-id']!, new Date(at * 1000), r.body);
  return r.headers['webhook-signature']!.split(' ').includes(expected);
}
