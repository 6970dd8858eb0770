// Connections as a resource: a cap in all and per client address, so one machine's flood
// of idle sockets cannot take the file descriptors every other client needs; and
// timeouts for headers and for the whole request, so a silent or trickling client is cut.

import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../packages/collector/src/platform/config.js';
import { openSocket, rawExchange, startEdge, type Edge } from './edge.js';

let edge: Edge | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await edge?.close();
  edge = undefined;
});

const generous = { max: 0, perIp: 0, headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 };

/** Opens `n` connections from `localAddress` and resolves once the server has closed all but `keep`. */
async function flood(port: number, n: number, localAddress: string) {
  const opened = await Promise.all(Array.from({ length: n }, () => openSocket(port, localAddress)));
  let closed = 0;
  for (const s of opened) {
    sockets.push(s);
    s.on('error', () => undefined);
    s.once('close', () => closed++);
  }
  return { opened, closed: () => closed };
}

/** Resolves once the server answers an HTTP request on `socket`: proof it kept and serves it. */
function served(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('data', (d: Buffer) => (/^HTTP\/1\.1 200/.test(d.toString('latin1')) ? resolve() : reject(new Error(d.toString()))));
    socket.once('close', () => reject(new Error('closed instead of answering')));
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
  });
}

async function until(check: () => boolean, what: string, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('connection caps', () => {
  it('a flood from one address is cut to its per-address cap at once; /healthz and a conversion from another address still answer', async () => {
    // 80 in all, 50 per address: without the per-address cap the flood would take all 80.
    edge = await startEdge({ connections: { ...generous, max: 80, perIp: 50 } });
    const { secret, publishable } = edge.running.firstProgram!.tokens;
    const api = (path: string, token: string, body: unknown) =>
      fetch(edge!.url + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const partner = await (await api('/v1/partners', secret, { name: 'Flood Proof', email: 'fp@partner.test' })).json();
    const ps = await (await api('/v1/partnerships', secret, { partner_id: partner.data.id, state: 'accepted' })).json();

    const f = await flood(edge.port, 300, '127.0.0.2');
    await until(() => f.closed() === 250, '250 of the flood to be closed');
    // And no more: the 50 left are open and served.
    const kept = f.opened.filter((s) => !s.destroyed);
    expect(kept).toHaveLength(50);
    await Promise.all(kept.map(served));
    expect(f.closed()).toBe(250);

    const health = await fetch(`${edge.url}/healthz`);
    expect(health.status).toBe(200);
    const conv = await api('/v1/tracking/conversion', publishable, { email: 'buyer@flood.test', gr_id: 'g', pk: ps.data.attributes.key });
    expect(conv.status).toBe(201);

    // A socket of the flood that closes frees its place for that address: a new one is
    // served, once the server has seen the close (tried until then, within a deadline).
    kept[0]!.destroy();
    let again: Socket | undefined;
    for (const deadline = Date.now() + 5_000; !again && Date.now() < deadline; ) {
      const s = await openSocket(edge.port, '127.0.0.2');
      sockets.push(s);
      s.on('error', () => undefined);
      again = await served(s).then(
        () => s,
        () => undefined,
      );
    }
    expect(again?.destroyed).toBe(false);
  });

  it('MAX_CONNECTIONS caps the connections in all', async () => {
    edge = await startEdge({ connections: { ...generous, max: 20 } });
    const f = await flood(edge.port, 30, '127.0.0.1');
    await until(() => f.closed() === 10, '10 to be closed');
    const kept = f.opened.filter((s) => !s.destroyed);
    expect(kept).toHaveLength(20);
    await Promise.all(kept.map(served));
    expect(f.closed()).toBe(10);
  });
});

describe('timeouts', () => {
  it('a connection that sends nothing is closed after the headers timeout, with a 408 in the error shape', async () => {
    edge = await startEdge({ connections: { ...generous, headersTimeoutMs: 300, requestTimeoutMs: 1000 } });
    const reply = await rawExchange(edge.port, [], 5000);
    expect(reply.closedAfterMs).toBeGreaterThan(0);
    expect(reply.closedAfterMs).toBeLessThan(2000);
    expect(reply.status).toBe(408);
    expect(JSON.parse(reply.body).errors[0]).toMatchObject({ status: '408', code: 'request_timeout' });
  });

  it('a trickled body is cut by the request timeout', async () => {
    edge = await startEdge({ connections: { ...generous, headersTimeoutMs: 300, requestTimeoutMs: 800 } });
    const { publishable } = edge.running.firstProgram!.tokens;
    const head =
      'POST /v1/tracking/click HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      `Authorization: Bearer ${publishable}\r\nContent-Length: 200\r\n\r\n{`;
    // One byte every 50 ms would take 10 s to finish the body.
    const trickle = Array.from({ length: 200 }, () => [50, ' ']).flat() as Array<string | number>;
    const reply = await rawExchange(edge.port, [head, ...trickle], 8000);
    expect(reply.closedAfterMs).toBeGreaterThan(0);
    expect(reply.closedAfterMs).toBeLessThan(3000);
    expect(reply.status).toBe(408);
    expect(reply.headers.connection).toBe('close');
    expect(JSON.parse(reply.body).errors[0].code).toBe('request_timeout');
  });
});

describe('configuration', () => {
  it('has defaults, each set by environment; the per-address cap is off behind trusted proxies unless set', () => {
    const d = loadConfig({}).connections!;
    expect(d).toMatchObject({ perIp: 256, headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 });
    expect(d.max).toBeGreaterThan(0);
    expect(d.max).toBeLessThanOrEqual(10_000);
    expect(
      loadConfig({ MAX_CONNECTIONS: '500', MAX_CONNECTIONS_PER_IP: '20', HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '20000' })
        .connections,
    ).toEqual({ max: 500, perIp: 20, headersTimeoutMs: 5000, requestTimeoutMs: 20_000 });
    // Behind a proxy every connection comes from the proxy's address.
    expect(loadConfig({ TRUST_PROXY: '1' }).connections!.perIp).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '1', MAX_CONNECTIONS_PER_IP: '1000' }).connections!.perIp).toBe(1000);
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '40000' })).toThrow(/HEADERS_TIMEOUT_MS/);
    expect(() => loadConfig({ MAX_CONNECTIONS: '-1' })).toThrow(/MAX_CONNECTIONS/);
  });
});
