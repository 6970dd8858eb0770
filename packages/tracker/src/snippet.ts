// The script-tag build (tracker.js). Its data-* attributes are its options; the `gr`
// stub's queued calls run in order, then `gr` takes the stub's place. It never throws
// into the host page.

import { createTracker } from './core';

type Stub = { (name: string, a?: unknown, b?: unknown): unknown; q?: Iterable<unknown>[]; ce?: number; track?: unknown };

const w = window as unknown as { gr?: Stub };
const stub = w.gr;

if (stub?.track) {
  // A second copy on the page: the first one (whose gr has .track; the stub has not)
  // already works. It says so under ?gr_debug=1, as a command the first does not know.
  stub('twice');
} else {
  try {
    const s = document.currentScript as HTMLScriptElement;
    w.gr = createTracker(s.dataset, new URL(s.src).origin, stub?.ce, stub?.q);
  } catch {
    // never into the host page
  }
}
