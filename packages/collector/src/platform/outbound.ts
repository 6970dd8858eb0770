// Requests Tally makes to other people's servers: webhooks (docs/webhooks.md). A URL
// that a program's owner gives must not turn the collector into a proxy into its own
// network, so every address a host resolves to is checked, when the URL is saved and
// again by the connection itself (the lookup that the socket uses is the checked one,
// so a DNS answer that changes between the check and the connect changes nothing).
// Redirects are not followed (the importers of modules/imports keep the same rule, with
// redirectNotFollowed), and only the first bytes of an answer are read.

import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** A resolver like dns.lookup with { all: true }: every address of a host. */
export type Resolve = (host: string) => Promise<LookupAddress[]>;

export interface OutboundPolicy {
  /** Plain http:// URLs, for local development. */
  allowHttp: boolean;
  /** Loopback, private, link-local and metadata addresses, for local development. */
  allowPrivate: boolean;
  /** How long a request may take in all, connect to last byte. */
  timeoutMs: number;
  /** The DNS; the system's unless given (tests give answers that change). */
  resolve?: Resolve | undefined;
}

export const DEFAULT_OUTBOUND: OutboundPolicy = { allowHttp: false, allowPrivate: false, timeoutMs: 15_000 };

// Connections are kept between webhooks to the same host and port: a receiver of many
// events is not made to accept a TCP (and TLS) handshake for each. Every socket is
// connected through the lookup of a request to that host, which gives only addresses
// that request checked (Node may open one for a queued request with an earlier request's
// lookup: the addresses are still the host's, checked). As many sockets as requests may
// be in flight (WEBHOOK_CONCURRENCY is at most 256), so none waits for one.
const KEEP_ALIVE = { keepAlive: true, maxSockets: 256, maxFreeSockets: 16, timeout: 30_000 };
const AGENTS = { http: new HttpAgent(KEEP_ALIVE), https: new HttpsAgent(KEEP_ALIVE) };

/** At most this much of an answer is read; the rest is dropped with the connection. */
export const RESPONSE_BYTES_READ = 4096;

const systemResolve: Resolve = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true } satisfies LookupAllOptions, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

// Where no webhook may go: this machine, its networks, and the cloud's metadata service.
const FORBIDDEN = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, with 169.254.169.254, the metadata service
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24], // documentation (TEST-NET-1, -2, -3): never a real receiver
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  FORBIDDEN.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['fc00::', 7], // unique local, with fd00:ec2::254, a metadata service
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['::', 96], // IPv4-compatible (::127.0.0.1), deprecated but parsed; IPv4-mapped ones BlockList judges as IPv4
  ['::ffff:0:0:0', 96], // IPv4-translated
  ['64:ff9b::', 96], // NAT64 maps IPv4 addresses, private ones too
  ['64:ff9b:1::', 48], // local-use NAT64
  ['2002::', 16], // 6to4 carries an IPv4 address, any of them
  ['100::', 64], // discard-only
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation too (RFC 9637)
  ['fec0::', 10], // site-local: deprecated (RFC 3879), yet still a private network where it is used
  ['2001::', 32], // Teredo carries IPv4 addresses in a UDP tunnel, as 6to4 does
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // ORCHID and ORCHIDv2: identifiers, never a host's address
  ['2001:20::', 28],
  ['5f00::', 16], // SRv6 segment identifiers: a router's functions, not a receiver
] as const) {
  FORBIDDEN.addSubnet(net, bits, 'ipv6');
}

/** Whether a webhook may be sent to this address. IPv4 inside IPv6 (::ffff:127.0.0.1) is judged as IPv4. */
export function isForbiddenAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isForbiddenAddress(mapped);
  const family = isIP(address);
  if (family === 0) return true;
  return FORBIDDEN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why a URL is refused, in words for its owner. */
export class RefusedUrl extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('no DNS answer in time'), { code: 'ETIMEOUT' })), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The URL's host without IPv6's brackets. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Checks a URL's form: the scheme, no credentials. No DNS. */
export function checkUrlForm(raw: string, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedUrl('is not a URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    throw new RefusedUrl(
      policy.allowHttp
        ? 'must be https:// or http://'
        : 'must be https:// (plain http is allowed only by WEBHOOK_ALLOW_HTTP, for local development)',
    );
  }
  if (url.username || url.password) throw new RefusedUrl('must not carry a user name or password');
  return url;
}

/**
 * The addresses of the URL's host, each allowed; a RefusedUrl when any is not. A host that
 * does not resolve answers [] when `unresolvedOk` (a URL saved before its DNS exists).
 */
export async function checkHost(url: URL, policy: OutboundPolicy, unresolvedOk: boolean): Promise<LookupAddress[]> {
  const host = hostOf(url);
  const literal = isIP(host);
  let addresses: LookupAddress[];
  if (literal !== 0) {
    addresses = [{ address: host, family: literal }];
  } else {
    try {
      // The DNS gets the request's time too: a resolver that never answers must not hold a send for ever.
      addresses = await withTimeout((policy.resolve ?? systemResolve)(host), policy.timeoutMs);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (unresolvedOk && (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA' || code === 'ETIMEOUT')) return [];
      throw new RefusedUrl(`host ${host} does not resolve (${code ?? 'no answer'})`);
    }
  }
  if (!policy.allowPrivate) {
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad) {
      throw new RefusedUrl(
        `resolves to ${bad.address}, a loopback, private, link-local or metadata address (allowed only by WEBHOOK_ALLOW_PRIVATE, for local development)`,
      );
    }
  }
  return addresses;
}

/**
 * Why a request to another's server ends at a redirect, for its error: none is followed,
 * to the same origin or another (a 302 could point at a service inside this network that
 * no one checked). Undefined for an answer that is not a redirect.
 */
export function redirectNotFollowed(status: number, location: string | null | undefined, from: URL): string | undefined {
  if (status < 300 || status > 399 || status === 304) return undefined;
  let where = 'nowhere (no Location)';
  if (location) {
    try {
      where = new URL(location, from).href;
    } catch {
      where = JSON.stringify(location.slice(0, 200));
    }
  }
  return `a redirect (${status}) to ${where}, which is not followed`;
}

export interface SendResult {
  /** Absent when no answer came: `error` says why. */
  status?: number;
  /** Seconds, from a Retry-After header. */
  retryAfter?: number;
  /** The first bytes of the answer's body. */
  body: string;
  durationMs: number;
  error?: string;
}

/** Retry-After as seconds from now: a number of seconds or an HTTP date. */
export function retryAfterSeconds(value: string | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** The answer's first RESPONSE_BYTES_READ bytes; the rest is not read. */
function readCapped(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => resolve(Buffer.concat(chunks).subarray(0, RESPONSE_BYTES_READ).toString('utf8'));
    res.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_BYTES_READ) {
        res.destroy();
        done();
      }
    });
    res.on('end', done);
    res.on('error', done);
    res.on('close', done);
  });
}

/**
 * POSTs `body` to `url` under `policy`, never following a redirect. Resolves with what
 * came back, or with `error` (a refused address, a timeout, a reset); never rejects.
 */
export async function postJson(url: string, headers: Record<string, string>, body: string, policy: OutboundPolicy): Promise<SendResult> {
  const started = performance.now();
  // One deadline for the whole attempt, DNS included, so an attempt never outlives its claim.
  const deadline = AbortSignal.timeout(policy.timeoutMs);
  const took = () => Math.round(performance.now() - started);
  let target: URL;
  let addresses: LookupAddress[];
  try {
    target = checkUrlForm(url, policy);
    addresses = await checkHost(target, { ...policy, timeoutMs: Math.max(1, policy.timeoutMs - (performance.now() - started)) }, false);
  } catch (err) {
    return { body: '', durationMs: took(), error: err instanceof RefusedUrl ? `the URL ${err.message}` : String(err) };
  }
  // The socket connects to the addresses just checked, not to a second DNS answer.
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve) => {
    const req = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup,
        signal: deadline,
        agent: target.protocol === 'https:' ? AGENTS.https : AGENTS.http,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const retryAfter = retryAfterSeconds(res.headers['retry-after'], Date.now());
        const redirect = redirectNotFollowed(status, res.headers.location, target);
        void readCapped(res).then((text) =>
          resolve({
            status,
            body: text,
            durationMs: took(),
            ...(retryAfter === undefined ? {} : { retryAfter }),
            ...(redirect === undefined ? {} : { error: redirect }),
          }),
        );
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      const error =
        err.name === 'AbortError' || err.name === 'TimeoutError' ? `no answer within ${policy.timeoutMs} ms` : (err.code ?? err.message);
      resolve({ body: '', durationMs: took(), error });
    });
    req.end(body);
  });
}
