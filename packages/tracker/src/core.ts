// The tracker's behaviour (docs/tracker.md), shared by the script tag and the npm entry.
// Written for its size budget: one closure, few distinct names, browser globals used
// directly (aliases cost more under gzip than the repeated names), the cookie's domain
// named by the collector rather than searched for, and address changes learnt from the
// Navigation API rather than by wrapping history's methods.

import type { Conversion, Options, Referral } from './types';

declare global {
  interface Window {
    /** The Navigation API (Baseline 2026), not yet in TypeScript's DOM library. */
    navigation?: EventTarget;
  }
}

/** The `gr(...)` command function, with the short form of a conversion. */
export interface Tracker {
  (name: string, a?: unknown, b?: unknown): unknown;
  track(email: string, opts?: { uid?: string | undefined }): Promise<Conversion | null>;
}

/**
 * An outbox entry: `i` is when it was queued, in ms, plus a random fraction, so it is
 * both the entry's id and its age; `b` is the JSON body.
 */
interface Entry {
  i: number;
  b: Record<string, unknown>;
}

/**
 * Starts tracking on this page: reads the address, runs the queued calls in order, then
 * sends what waited for the token. Returns the `gr(...)` command function.
 * @param api the collector's base URL when `o.api` is absent: where the script came from
 * @param days the cookie lifetime when `o.cookieDays` is absent (the hosted snippet's gr.ce)
 * @param queue calls made before the script loaded (the stub's `gr.q`)
 */
export function createTracker(o: Options, api = '', days?: number, queue: Iterable<unknown>[] = []): Tracker {
  let key = o.key;
  let referral: Referral | undefined;
  // The site's registrable domain, for the cookie: named by a click's answer and kept in
  // the referral as `d`, so later pages read it back. Null or unknown: this host alone.
  let domain: string | null | undefined;
  // Options come typed from the npm entry and as strings from data-* attributes.
  let consent = !/^(false|required)$/.test(o.consent as string);
  // Work that needs the token, when initCustomer has not given it yet.
  let waiting: (() => unknown)[] = [];
  const base = (o.api || api).replace(/\/$/, '') + '/v1/tracking/';
  // The attribution window, in seconds.
  const lifetime = 86400 * Math.min(365, Math.max(1, ((o.cookieDays || days) as number) | 0 || 60));
  // Link parameters that carry the referral slug, in order of precedence; then data-params.
  const names = ('red gr_pk _pk via ref fpr fp_ref ps_partner_key ' + [o.params]).match(/[^\s,]+/g)!;

  /** Sets or (with an empty value) removes a stored item; a full storage is no error. */
  const put = (name: string, value: string) => {
    try {
      value ? (localStorage[name] = value) : delete localStorage[name];
    } catch {
      // full: the cookie copy still works
    }
  };

  const cookie = () => /(^|; )_gr_id=([^;]*)/.exec(document.cookie)?.[2];

  /**
   * The referral from the cookie or the stored copy, unless its window has passed. Its
   * domain is learnt even then: a new referral goes where the old one was.
   */
  const load = (): Referral | undefined => {
    try {
      const r: Referral = JSON.parse(decodeURIComponent(cookie() || '') || localStorage._gr_id);
      domain = r.d;
      if (r.at > Date.now() - lifetime * 1e3) return r;
    } catch {
      // absent, or not ours
    }
  };

  /**
   * Writes both copies; `null` deletes them. The cookie goes to data-cookie-domain, or to
   * the known registrable domain, or to this host alone: nothing the browser would refuse
   * is tried, as Firefox reports each refused cookie as an error in the page's console.
   */
  const save = (r?: Referral) => {
    if (r) r.d = domain;
    const value = (referral = r) ? JSON.stringify(r) : '';
    const encoded = encodeURIComponent(value);
    const set = (on?: string | null, age = 0) =>
      // An empty domain attribute is ignored (RFC 6265 5.2.3): a host-only cookie.
      (document.cookie = `_gr_id=${encoded};path=/;max-age=${age};SameSite=Lax;domain=${on || ''}${
        location.protocol == 'https:' ? ';Secure' : ''
      }`);
    put('_gr_id', value);
    // The host-only copy, from before the domain was known, goes: one copy, read everywhere.
    set();
    set(o.cookieDomain || domain, r && lifetime);
  };

  /** Posts to the collector; `then` reads the answer (without it, the answer is the result). */
  const post = <T = Response>(path: string, body: unknown, then?: (res: Response) => T): Promise<T | 0> =>
    fetch(base + path, {
      method: 'POST',
      keepalive: true, // outlives the page: a signup that navigates away at once is still sent
      headers: { Authorization: 'Bearer ' + key, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
      .then(then as (res: Response) => T)
      .catch(() => 0 as const); // offline: the caller retries, or the click is lost

  /** Runs `f` now if the token is known, else once initCustomer gives it. */
  const withKey = (f: () => unknown) => (key ? f() : waiting.push(f));

  /**
   * The outbox, less entries older than 7 days or refused by `keep`; what is left is
   * written back, and an empty outbox is removed, so a visitor without a referral keeps
   * nothing.
   */
  const outbox = (keep = (e: Entry) => e.i > Date.now() - 6048e5): Entry[] => {
    let all: Entry[] = [];
    try {
      all = JSON.parse(localStorage._gr_outbox).filter(keep);
    } catch {
      // empty, or not ours
    }
    put('_gr_outbox', all[0] ? JSON.stringify(all) : '');
    return all;
  };

  /**
   * Sends one entry: three tries, one and then two seconds apart. A 2xx or a 4xx other
   * than 429 is final and removes the entry; network errors, 429 and 5xx are retried,
   * here and on later page loads. Resolves to the record on a 2xx, else null.
   */
  const send = async (entry: Entry): Promise<Conversion | null> => {
    for (let attempt = 1; ; await new Promise((r) => setTimeout(r, attempt++ * 1e3))) {
      const res = await post('conversion', entry.b);
      if (res && res.status < 500 && res.status != 429) {
        outbox((e) => e.i != entry.i);
        const data = res.ok && (await res.json()).data;
        return data ? { id: data.id, state: data.attributes.state } : null;
      }
      if (attempt > 2) return null;
    }
  };

  /** Reads a referral from the address and records it by the attribution rule. */
  const capture = () => {
    const url = new URL(location.href);
    const q = url.searchParams;
    const id = q.get('gr_id');
    const uid = q.get('gr_uid');
    const old = referral;
    let pk: string | null = null;
    for (const n of names) pk ||= q.get(n);
    if (!consent || !(pk || id)) return;
    if (old && (pk ? old.pk == pk : old.gr_id == id)) {
      // The same link again keeps the click id and refreshes the window.
      save({ ...old, uid: uid || old.uid, at: Date.now() });
    } else if (!old || o.attribution != 'first') {
      // A new link replaces the old one, except under first-click. crypto.randomUUID
      // exists only on https and localhost; elsewhere the fallback will do.
      const r = { gr_id: id || crypto.randomUUID?.() || Date.now() + '' + Math.random(), pk, uid, at: Date.now() };
      save(r);
      if (pk)
        withKey(() =>
          // The answer names the site's registrable domain (an older collector's names none).
          post('click', { gr_id: r.gr_id, pk, url: location.href, referrer: document.referrer }, async (res) => {
            domain = (await res.json()).data.cookie_domain;
            save(referral); // none: consent was withdrawn meanwhile, and stays so
          }),
        );
    }
    if (/^(|true)$/.test(o.cleanUrl as string)) {
      for (const n of [...names, 'gr_id', 'gr_uid']) q.delete(n);
      // The Navigation API reports this change too; the address read then holds no referral.
      history.replaceState(history.state, '', url);
    }
  };

  /** The conversion, queued before it is sent. Never rejects. */
  const track = async (email: string, opts?: { uid?: string | undefined }): Promise<Conversion | null> => {
    try {
      if (referral && email) {
        // Absent fields stay out of the body (JSON drops undefined, not null).
        const body = { email, gr_id: referral.gr_id, pk: referral.pk || undefined, uid: opts?.uid || referral.uid || undefined };
        const entry = { i: Date.now() + Math.random(), b: body };
        put('_gr_outbox', JSON.stringify([...outbox(), entry]));
        if (key) return await send(entry);
        waiting.push(() => send(entry));
      }
    } catch {
      // never into the host page
    }
    return null;
  };

  const gr = ((name: string, a?: any, b?: any) => {
    try {
      // A callback shows as "function", never as its source: that is the site's own code.
      if (/gr_debug=1/.test(location.href)) console.log('tally', name, a?.call ? typeof a : a);
      const commands: Record<string, () => unknown> = {
        initCustomer() {
          key = a;
          waiting.splice(0).map((f) => f());
        },
        // 'pageview' only re-reads the address: a click is recorded when it carries a referral.
        track: () => (a == 'conversion' ? track(b.email, b) : capture()),
        consent() {
          save((consent = !!a) ? load() : undefined);
          capture();
        },
        ready: () => a(referral ? { gr_id: referral.gr_id, pk: referral.pk, uid: referral.uid } : null),
        decorate() {
          // Hands the click id to another domain: in a link's address, or as a form field
          // (a GET form carries it in the address it opens; a POST form, in its body).
          if (!referral) return;
          if (a.href) {
            const url = new URL(a.href);
            url.searchParams.set('gr_id', referral.gr_id);
            a.href = url;
          } else {
            a.append(Object.assign(document.createElement('input'), { type: 'hidden', name: 'gr_id', value: referral.gr_id }));
          }
        },
      };
      return commands[name]?.();
    } catch {
      // never into the host page
    }
  }) as Tracker;
  gr.track = track;

  // Single-page apps change the address without a load: re-read it after each change
  // (pushState, replaceState, back and forward). The Navigation API reports them all,
  // without wrapping history's methods, which other scripts wrap too.
  self.navigation?.addEventListener('currententrychange', capture);

  // Conversions that earlier pages could not deliver; read before this page adds any.
  const earlier = outbox();
  // Read before consent too, only to learn where a withdrawal must delete.
  const stored = load();
  if (consent && stored) save(stored); // each copy restores the other
  capture();
  queue.map((args) => gr(...(args as [string])));
  withKey(() => earlier.map(send));
  return gr;
}
