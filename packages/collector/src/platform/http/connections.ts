// Connections are a resource like any other: each holds a file descriptor, and a process
// has a fixed number of them. Without caps, 20,000 idle sockets from one machine used
// them all and nothing else could connect, /healthz included. So: a cap in all, a cap
// per client address (IPv6: per /64), closing excess sockets the moment they arrive,
// and timeouts that cut a client which sends its headers or its body too slowly.

import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { addressKey } from './address.js';

export interface ConnectionLimits {
  /** Open connections in all; 0: no cap. */
  max: number;
  /** Open connections per client address (IPv6: per /64); 0: no cap. */
  perIp: number;
  /** From connecting (or the end of the previous request) to the end of the headers. */
  headersTimeoutMs: number;
  /** From the start of a request to the end of its body. */
  requestTimeoutMs: number;
}

export const DEFAULT_TIMEOUTS = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 } as const;

/** What an embedding that names no limits gets: the timeouts, and no caps. */
export const NO_CAPS: ConnectionLimits = { max: 0, perIp: 0, ...DEFAULT_TIMEOUTS };

/**
 * Options for createServer. Node checks the two timeouts only every
 * connectionsCheckingInterval (30 s by default, which would let a 10 s timeout run to
 * 40 s); checking a quarter as often as the shorter timeout, at most every second, keeps
 * them close to what they say.
 */
export function serverOptions(limits: ConnectionLimits): ServerOptions {
  const shorter = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(shorter / 4))),
  };
}

/** A warning at most once a minute: a flood must not flood the log too. */
function throttledWarn(log: Logger, message: string): (fields: Record<string, unknown>) => void {
  let last = -Infinity;
  return (fields) => {
    const t = Date.now();
    if (t - last < 60_000) return;
    last = t;
    log.warn(fields, message);
  };
}

export function guardConnections(server: Server, limits: ConnectionLimits, log: Logger): void {
  if (limits.max > 0) {
    // Node closes a connection over maxConnections before the HTTP layer sees it.
    server.maxConnections = limits.max;
    const warn = throttledWarn(log, 'connection cap reached: new connections are closed');
    server.on('drop', () => warn({ max: limits.max }));
  }
  if (limits.perIp > 0) capPerAddress(server, limits.perIp, log);
}

function capPerAddress(server: Server, cap: number, log: Logger): void {
  // Only addresses with an open connection are kept, so this map is bounded by the
  // connections themselves.
  const open = new Map<string, number>();
  const warn = throttledWarn(log, 'a client address reached its connection cap: its new connections are closed');
  server.on('connection', (socket: Socket) => {
    if (socket.remoteAddress === undefined) return; // already gone
    const key = addressKey(socket.remoteAddress);
    const count = open.get(key) ?? 0;
    if (count >= cap) {
      warn({ per_ip: cap }); // the address itself is personal data, and is not logged
      socket.destroy();
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}
