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
  let referral: Referral | undefined | false;
  // The site's registrable domain, for the cookie: named by a click's answer and kept in
  // the referral as `d`, so later pages read it back. Null or unknown: this host alone.
  let domain: string | null | undefined;
  // Whether this origin's localStorage holds anything of ours, as the flag cookie `_gr_s`
  // says: a page whose cookies hold neither the flag nor a referral touches no storage.
  let flag: unknown;
  // Options come typed from the npm entry and as strings from data-* attributes.
  let consent = !/^(false|required)$/.test(o.consent as string);
  // Work that needs the token, when initCustomer has not given it yet.
  const waiting: (() => unknown)[] = [];
  const base = (o.api || api).replace(/\/$/, '') + '/v1/tracking/';
  // The attribution window, in seconds.
  const lifetime = 86400 * Math.min(365, Math.max(1, ((o.cookieDays || days) as number) | 0 || 60));
  // Link parameters that carry the referral slug, in order of precedence; then data-params.
  const names = ('red gr_pk _pk via ref fpr fp_ref ps_partner_key ' + [o.params]).match(/[^\s,]+/g)!;

  /**
   * Writes a cookie for every path of the site, on `on` or for this host alone, for `age`
   * seconds; without an age it is removed. Secure on https: pages ('https:' sorts after
   * 'https', 'http:' before it).
   */
  const set = (name: string, age?: unknown, value?: unknown, on?: string | null) =>
    // An empty domain attribute is ignored (RFC 6265 5.2.3): a host-only cookie.
    (document.cookie = `${name}=${value};path=/;max-age=${(age as number) | 0};SameSite=Lax;domain=${on || ''}${
      location.protocol > 'https' ? ';Secure' : ''
    }`);

  /**
   * Stores an item as JSON, or (with an empty value) removes it; a full storage is no
   * error. The flag follows: kept while either item is left, removed when none is. It
   * lasts seven windows, which is at least as long as either item can matter (the window,
   * and the outbox's 7 days). With nothing flagged there is nothing to remove, and
   * storage is not touched.
   */
  const put = (name: string, value: unknown) => {
    try {
      if (value || flag) {
        value ? (localStorage[name] = JSON.stringify(value)) : delete localStorage[name];
        set('_gr_s', (flag = localStorage._gr_id || localStorage._gr_outbox) && lifetime * 7, 1);
      }
    } catch {
      // full, or no storage: the cookie copy still works
    }
  };

  /**
   * The referral from the cookie, or from the stored copy when the flag says there may be
   * one, unless its window has passed. Its domain is learnt even then: a new referral
   * goes where the old one was. One read of `document.cookie`, where a name starts the
   * string or follows a space (cookies are joined by '; ').
   */
  const load = (jar = document.cookie): Referral | undefined => {
    // Any name ending in _gr_s would do too: a false flag only costs a read.
    flag = /_gr_s=/.test(jar);
    try {
      const r: Referral = JSON.parse(decodeURIComponent(/(^| )_gr_id=([^;]*)/.exec(jar)?.[2] || '') || (flag && localStorage._gr_id));
      domain = r.d;
      if (r.at > Date.now() - lifetime * 1e3) return r;
    } catch {
      // absent, or not ours
    }
  };

  /**
   * Writes both copies; none (undefined or false) deletes them. The cookie goes to data-cookie-domain, or to
   * the known registrable domain, or to this host alone: nothing the browser would refuse
   * is tried, as Firefox reports each refused cookie as an error in the page's console.
   */
  const save = (r?: Referral | false) => {
    if (r) r.d = domain;
    put('_gr_id', (referral = r));
    // The host-only copy, from before the domain was known, goes: one copy, read everywhere.
    set('_gr_id');
    set('_gr_id', r && lifetime, encodeURIComponent(JSON.stringify(r)), o.cookieDomain || domain);
  };

  /** Posts to the collector; `then` reads the answer (without it, the answer is the result). */
  const post = <T = Response>(path: string, body: unknown, then?: (res: Response) => T): Promise<T | 0> =>
    fetch(base + path, {
      method: 'POST',
      // Outlives the page: a signup that navigates away at once is still sent. (1 is true to
      // fetch, and a byte shorter than !0.)
      keepalive: 1 as unknown as boolean,
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
    // Without the flag nothing is read, and nothing is thrown: an exception costs a page
    // more than the read itself.
    if (flag)
      try {
        all = JSON.parse(localStorage._gr_outbox).filter(keep);
      } catch {
        // empty, or not ours
      }
    put('_gr_outbox', all[0] && all);
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
    // One declaration, for the minifier: only pk and r are assigned later.
    let url = new URL(location.href),
      q = url.searchParams,
      id = q.get('gr_id'),
      uid = q.get('gr_uid'),
      pk: string | null | undefined,
      r: Referral;
    // The first name present: pk is its value, or null (the last get) when none is.
    names.some((n) => (pk = q.get(n)));
    if (!consent || !(pk || id)) return;
    if (referral && (pk ? referral.pk == pk : referral.gr_id == id)) {
      // The same link again keeps the click id and refreshes the window.
      save({ ...referral, uid: uid || referral.uid, at: Date.now() });
    } else if (!referral || o.attribution != 'first') {
      // A new link replaces the old one, except under first-click. crypto.randomUUID
      // exists only on https and localhost; elsewhere the fallback will do.
      save((r = { gr_id: id || crypto.randomUUID?.() || '' + Date.now() + Math.random(), pk, uid, at: Date.now() }));
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
      [...names, 'gr_id', 'gr_uid'].map((n) => q.delete(n));
      // The Navigation API reports this change too; the address read then holds no referral.
      history.replaceState(history.state, '', url);
    }
  };

  /** The conversion, queued before it is sent. Never rejects. */
  const track = async (email: string, opts?: { uid?: string | undefined }): Promise<Conversion | null> => {
    try {
      if (referral && email) {
        // Absent fields stay out of the body (JSON drops undefined, not null).
        const entry = {
          i: Date.now() + Math.random(),
          b: { email, gr_id: referral.gr_id, pk: referral.pk || undefined, uid: opts?.uid || referral.uid || undefined },
        };
        put('_gr_outbox', [...outbox(), entry]);
        // Sent now with the token, else once initCustomer gives it: then the answer is not awaited.
        if (key) return await send(entry);
        withKey(() => send(entry));
      }
    } catch {
      // never into the host page
    }
    return null;
  };

  const gr = ((name: string, a?: any, b?: any) => {
    try {
      const commands = <Record<string, () => unknown>>{
        initCustomer() {
          key = a;
          waiting.splice(0).map((f) => f());
        },
        // 'pageview' only re-reads the address: a click is recorded when it carries a referral.
        track: () => (a == 'conversion' ? track(b.email, b) : capture()),
        consent() {
          save((consent = !!a) && load());
          capture();
        },
        ready: () => a(referral ? { gr_id: referral.gr_id, pk: referral.pk, uid: referral.uid } : null),
        decorate() {
          // Hands the click id to another domain: in a link's address, or as a form field
          // (a GET form carries it in the address it opens; a POST form, in its body).
          if (!referral) return;
          if (a.href) {
            // b, which decorate takes no use of, holds the address.
            (b = new URL(a.href)).searchParams.set('gr_id', referral.gr_id);
            a.href = b;
          } else {
            a.append(Object.assign(document.createElement('input'), { type: 'hidden', name: 'gr_id', value: referral.gr_id }));
          }
        },
      };
      // A callback shows as "function", never as its source: that is the site's own code.
      // A command it does not know, or an e-mail address where no command takes one
      // (gr('track', email)), records nothing: that is a warning (§11).
      if (/gr_debug=1/.test(location.href)) console[commands[name] && !/@/.test(a) ? 'log' : 'warn']('tally', name, a?.call ? typeof a : a);
      // An unknown command throws here, into the catch below.
      return commands[name]!();
    } catch {
      // never into the host page
    }
  }) as Tracker;
  gr.track = track;

  // Single-page apps change the address without a load: re-read it after each change
  // (pushState, replaceState, back and forward). The Navigation API reports them all,
  // without wrapping history's methods, which other scripts wrap too.
  self.navigation?.addEventListener('currententrychange', capture);

  // Read before consent too, only to learn where a withdrawal must delete.
  const stored = load();
  // Conversions that earlier pages could not deliver, when the flag says some may wait;
  // read before this page adds any.
  const earlier = outbox();
  if (consent && stored) save(stored); // each copy restores the other
  capture();
  queue.map((args) => gr(...(args as [string])));
  withKey(() => earlier.map(send));
  return gr;
}
