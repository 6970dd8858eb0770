// The npm entry, for bundlers: `import { init, track } from '@tally/tracker'`.

import { createTracker, type Tracker } from './core';
import type { Conversion, Options } from './types';

export type { Conversion, Options, Referral } from './types';
export type { Tracker } from './core';

let tracker: Tracker | undefined;

/** Starts tracking once per page; later calls return the same tracker, a `gr(...)` function. */
export function init(options: Options): Tracker {
  return (tracker ||= createTracker(options));
}

/** Records a conversion; resolves to the record, or null without a referral. Never rejects. */
export function track(email: string, opts?: { uid?: string }): Promise<Conversion | null> {
  return tracker ? tracker.track(email, opts) : Promise.resolve(null);
}
