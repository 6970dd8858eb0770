// Client addresses as the limits count them, and loopback hosts as the demo switch
// knows them. One key per client: an IPv4 address, or an IPv6 /64 (one subscriber's
// network: its owner picks any of 2^64 addresses at will, so counting them one by one
// would let a single machine look like millions). IPv4-mapped IPv6 is the IPv4 address.

import { isIP } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (isIP already said it is one). */
function ipv6Groups(address: string): number[] {
  let text = address;
  let tail: number[] = [];
  // A trailing dotted IPv4 (::ffff:1.2.3.4) is the last two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    tail = [(a << 8) | b, (c << 8) | d];
    text = text.slice(0, dotted.index);
    if (!text.endsWith('::')) text = text.slice(0, -1); // the ':' before the IPv4 part
  }
  const halves = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const front = parse(halves[0]);
  const back = parse(halves[1]);
  const zeros = halves.length > 1 ? 8 - tail.length - front.length - back.length : 0;
  return [...front, ...Array<number>(zeros).fill(0), ...back, ...tail];
}

/** The key a client is counted under: IPv4 as is, IPv6 as its /64; anything else shares one key. */
export function addressKey(address: string): string {
  const bare = address.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) names the interface, not the client
  const version = isIP(bare);
  if (version === 4) return bare;
  if (version !== 6) return 'not-an-address'; // never a client's own words: a key per string would be unbounded
  const g = ipv6Groups(bare);
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
    return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join('.');
  }
  return `${g
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(':')}::/64`;
}

/** 127.0.0.0/8, ::1 (also as IPv4-mapped 127.x) and localhost: a collector reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (bare.toLowerCase() === 'localhost') return true;
  const version = isIP(bare);
  if (version === 4) return bare.startsWith('127.');
  if (version !== 6) return false;
  const key = addressKey(bare);
  if (key.startsWith('127.')) return true;
  const g = ipv6Groups(bare);
  return g.slice(0, 7).every((x) => x === 0) && g[7] === 1;
}
