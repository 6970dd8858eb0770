// The tracker's behaviour (design/tracker.md), shared by the script tag and the npm entry.

import { deliver, entries, post, type Entry } from './outbox';
import { cookie, json, local } from './storage';
import type { Conversion, Options, Referral } from './types';

/** Link parameters that carry the referral slug, in order of precedence. */
export const SLUG_PARAMS = 'red gr_pk _pk via ref fpr fp_ref ps_partner_key'.split(' ');

/** The `gr(...)` command function, with the short form of a conversion. */
export interface Tracker {
  (name: string, a?: unknown, b?: unknown): unknown;
  track(email: string, opts?: { uid?: string | undefined }): Promise<Conversion | null>;
}

/**
 * Starts tracking on this page: reads the address, runs the queued calls in order, then
 * sends what waited for the token. Returns the `gr(...)` command function.
 * @param api the collector's base URL when `o.api` is absent: where the script came from
 * @param days the cookie lifetime when `o.cookieDays` is absent (the hosted snippet's gr.ce)
 * @param queue calls made before the script loaded (the stub's `gr.q`)
 */
export function createTracker(o: Options, api = '', days?: number, queue: Iterable<unknown>[] = []): Tracker {
  const loc = location;
  const hist = history;
  const now = Date.now;
  let key = o.key;
  // Options come typed from the npm entry and as strings from data-* attributes.
  let consent = !/^(false|required)$/.test(o.consent + '');
  let referral: Referral | null | undefined;
  let clickWaits: unknown;
  let domain = o.cookieDomain;
  // Conversions that earlier pages could not deliver, less those older than 7 days.
  let earlier: Entry[] | undefined = entries((e) => e.t > now() - 6048e5);
  const base = (o.api || api).replace(/\/$/, '') + '/v1/tracking/';
  const lifetime = Math.min(365, Math.max(1, ((o.cookieDays || days) as number) | 0 || 60));
  const names = SLUG_PARAMS.concat((o.params || '').toString().split(/[\s,]+/));
  const send = (entry: Entry) => deliver(base + 'conversion', key!, entry);

  /** The referral from either copy, unless its window has passed. */
  const load = (): Referral | null => {
    const r = json<Referral | 0>(cookie() || local('_gr_id'), 0);
    return r && r.at > now() - lifetime * 864e5 ? r : null;
  };

  /** Writes both copies; `null` deletes them. */
  const save = (r: Referral | null) => {
    const value = (referral = r) ? JSON.stringify(r) : '';
    const maxAge = r ? lifetime * 86400 : 0;
    if (domain == null) {
      // The registrable domain is the shortest suffix of the host that takes the cookie:
      // browsers refuse public suffixes such as co.uk, so www. and app. share the rest.
      // IP addresses and single-label hosts keep a host-only cookie.
      const labels = loc.hostname.split('.');
      domain = '';
      for (let i = labels.length - 1, d; r && --i >= 0 && !domain && !/^[\d.]+$/.test(loc.hostname); ) {
        if (cookie(value, maxAge, (d = labels.slice(i).join('.'))) == value) domain = d;
      }
    }
    cookie(value, maxAge, domain);
    local('_gr_id', value);
  };

  const sendClick = () => {
    if ((clickWaits = !key)) return;
    const { gr_id, pk } = referral!;
    post(base + 'click', key!, { gr_id, pk, url: loc.href, referrer: document.referrer }).catch(() => 0);
  };

  /** Reads a referral from the address and records it by the attribution rule. */
  const capture = () => {
    const url = new URL(loc.href);
    const q = url.searchParams;
    let pk: string | null = null;
    for (const n of names) if ((pk = q.get(n))) break;
    const id = q.get('gr_id');
    const uid = q.get('gr_uid');
    const old = referral;
    if (!consent || !(pk || id)) return;
    if (old && (pk ? old.pk == pk : old.gr_id == id)) {
      // The same link again keeps the click id and refreshes the window.
      save({ ...old, uid: uid || old.uid, at: now() });
    } else if (!old || o.attribution != 'first') {
      // A new link replaces the old one, except under first-click. crypto.randomUUID
      // exists only on https and localhost; elsewhere the fallback will do.
      save({ gr_id: id || crypto.randomUUID?.() || now() + '' + Math.random(), pk, uid, at: now() });
      if (pk) sendClick();
    }
    if (/^(|true)$/.test(o.cleanUrl + '')) {
      for (const n of names.concat('gr_id', 'gr_uid')) q.delete(n);
      replace.call(hist, hist.state, '', url.href);
    }
  };

  /** The conversion, queued before it is sent. Never rejects. */
  const track = async (email: string, opts?: { uid?: string | undefined }): Promise<Conversion | null> => {
    try {
      if (!referral || !email) return null;
      const entry = {
        i: Math.random(),
        // Absent fields stay out of the body (JSON drops undefined, not null).
        b: { email, gr_id: referral.gr_id, pk: referral.pk || undefined, uid: (opts && opts.uid) || referral.uid || undefined },
        t: now(),
      };
      local('_gr_outbox', JSON.stringify([...entries(), entry]));
      return key ? await send(entry) : null;
    } catch {
      return null;
    }
  };

  /** Sends what waited for the token: a click, and conversions from earlier pages. */
  const go = () => {
    if (key) {
      if (clickWaits) sendClick();
      earlier = earlier && void earlier.map(send);
    }
  };

  const commands: Record<string, (a: unknown, b: unknown) => unknown> = {
    initCustomer(a) {
      key = a as string;
      go();
    },
    // 'pageview' only re-reads the address: a click is recorded when it carries a referral.
    track: (a, b) => (a == 'conversion' ? track((b as { email: string }).email, b as {}) : capture()),
    consent(a) {
      save((consent = !!a) ? load() : null);
      capture();
    },
    ready: (a) => (a as (r: unknown) => void)(referral ? { gr_id: referral.gr_id, pk: referral.pk, uid: referral.uid } : null),
    decorate(a) {
      // Hands the click id to another domain: in a link's address, or as a form field
      // (a GET form carries it in the address it opens; a POST form, in its body).
      const el = a as HTMLAnchorElement & HTMLFormElement;
      if (!referral) return;
      if (el.href) {
        const q = new URLSearchParams(el.search);
        q.set('gr_id', referral.gr_id);
        el.search = q + '';
      } else {
        el.append(Object.assign(document.createElement('input'), { type: 'hidden', name: 'gr_id', value: referral.gr_id }));
      }
    },
  };

  const gr = ((name: string, a?: unknown, b?: unknown) => {
    try {
      if (/[?&]gr_debug=1/.test(loc.search)) console.log('tally', name, a);
      return commands[name]?.(a, b);
    } catch {
      // never into the host page
    }
  }) as Tracker;
  gr.track = track;

  // Single-page apps change the address without a load: re-read it after each change.
  const replace = hist.replaceState;
  for (const m of ['pushState', 'replaceState'] as const) {
    const original = hist[m];
    hist[m] = function (this: History, ...a: Parameters<History['pushState']>) {
      original.apply(this, a);
      capture();
    };
  }
  addEventListener('popstate', capture);

  if (consent && load()) save(load()); // each copy restores the other
  capture();
  for (const args of queue) gr(...(args as [string]));
  go();
  return gr;
}
