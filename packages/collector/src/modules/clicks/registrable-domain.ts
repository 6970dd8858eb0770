// The domain a first-party cookie can be shared on: the registrable domain of a page's
// host (the public suffix and one label more), by a maintained copy of the Public Suffix
// List. The snippet used to find it in the browser by writing the cookie to ever longer
// suffixes of the host until one was accepted; Firefox reports every refused write as a
// console error, so the collector answers it instead.

import { getDomain } from 'tldts';

/**
 * The registrable domain of the URL's host, e.g. `example.co.uk` for
 * `https://www.shop.example.co.uk/`; null where a cookie must stay host-only: an IP
 * address, a single label such as `localhost`, a host that is itself a public suffix,
 * or no URL at all.
 */
export function registrableDomain(url: string | undefined): string | null {
  let hostname: string;
  try {
    hostname = new URL(url ?? '').hostname;
  } catch {
    return null;
  }
  // A program's landings come from a handful of hosts: each is looked up in the list once.
  let domain = domains.get(hostname);
  if (domain === undefined) {
    // Browsers refuse the list's private section too (github.io, herokuapp.com, …), so it
    // counts here as a suffix like any other.
    domain = getDomain(hostname, { allowPrivateDomains: true, extractHostname: false }) ?? null;
    // Hosts come from the public: the memory starts over past its bound.
    if (domains.size >= MAX_HOSTS) domains.clear();
    domains.set(hostname, domain);
  }
  return domain;
}

/** Hosts whose domain is kept; about 100 bytes each. */
const MAX_HOSTS = 10_000;
const domains = new Map<string, string | null>();
