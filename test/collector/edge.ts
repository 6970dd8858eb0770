// What the tests of the service's edge share: a collector started with a Config of the
// test's choosing (the harness fixes host, limits and the rest), and raw TCP exchanges
// for what fetch cannot send or show (broken requests, floods, trickled bodies).

import { connect, type Socket } from 'node:net';
import type { Writable } from 'node:stream';
import { createLogger } from '../../packages/collector/src/platform/log.js';
import type { Config } from '../../packages/collector/src/platform/config.js';
import { startServer, type RunningServer } from '../../packages/collector/src/server.js';
import { testDatabase, type TestDatabase } from './database.js';

export interface Edge {
  running: RunningServer;
  database: TestDatabase;
  url: string;
  port: number;
  close(): Promise<void>;
}

/** A collector on 127.0.0.1:0 (unless `config` says otherwise) with its own database. */
export async function startEdge(config: Partial<Config> = {}, logTo?: Writable): Promise<Edge> {
  const database = await testDatabase();
  const running = await startServer(
    { port: 0, host: '127.0.0.1', databaseUrl: database.url, logLevel: 'silent', ...config },
    createLogger(logTo ? 'debug' : 'silent', logTo),
  );
  const port = Number(new URL(running.url).port);
  return {
    running,
    database,
    url: `http://127.0.0.1:${port}`,
    port,
    async close() {
      await running.close();
      await database.drop();
    },
  };
}

export interface RawReply {
  /** Everything the server sent before it closed the connection. */
  text: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from connecting until the server closed the connection. */
  closedAfterMs: number;
}

/** Parses the first HTTP/1.1 response in `text`; status 0 when there is none. */
export function parseRaw(text: string, closedAfterMs = 0): RawReply {
  const end = text.indexOf('\r\n\r\n');
  const head = end < 0 ? text : text.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0);
  return { text, status, headers, body: end < 0 ? '' : text.slice(end + 4), closedAfterMs };
}

/** Opens a TCP connection to `port`, from `localAddress` when given. */
export function openSocket(port: number, localAddress?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ...(localAddress ? { localAddress } : {}) });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Sends `chunks` (strings or pauses in ms) on a new connection and reads until the
 * server closes it, or `timeoutMs` passes (then the reply is what came so far).
 */
export async function rawExchange(port: number, chunks: Array<string | Buffer | number>, timeoutMs = 10_000): Promise<RawReply> {
  const started = Date.now();
  const socket = await openSocket(port);
  let text = '';
  socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
  socket.on('error', () => undefined); // a reset after the answer is still an answer
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
  let open = true;
  void closed.then(() => (open = false));
  for (const chunk of chunks) {
    if (!open) break;
    if (typeof chunk === 'number') await new Promise((r) => setTimeout(r, chunk));
    else socket.write(chunk);
  }
  const timer = new Promise<number>((resolve) => setTimeout(() => resolve(-1), timeoutMs));
  const after = await Promise.race([closed, timer]);
  socket.destroy();
  return parseRaw(text, after);
}
