// The script-tag build (tracker.js). Its data-* attributes are its options; the `gr`
// stub's queue is drained in order, then `gr` takes the stub's place. It never throws
// into the host page.

import { createTracker } from './core';

type Stub = { (name: string, a?: unknown, b?: unknown): unknown; q?: ArrayLike<unknown>[]; ce?: number; t?: 1; w?: 1 };

const w = window as Window & { gr?: Stub };
const stub = w.gr;

if (stub && stub.t) {
  // A second copy on the page: the first one already works. Say so once.
  if (!stub.w) console.warn('tally: tracker.js loaded twice');
  stub.w = 1;
} else {
  try {
    const s = document.currentScript as HTMLScriptElement | null;
    const gr: Stub = createTracker((s && s.dataset) || {}, s && s.src ? new URL(s.src).origin : '', stub && stub.ce);
    gr.t = 1;
    w.gr = gr;
    for (const args of (stub && stub.q) || []) gr(...(Array.from(args) as [string]));
    gr('go');
  } catch {
    // never into the host page
  }
}
