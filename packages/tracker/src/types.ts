/**
 * Settings. The script tag passes its data-* attributes as they are (strings); the npm
 * entry passes typed values. The names are the same on purpose.
 */
export interface Options {
  /** The publishable token (tly_pub_…). */
  key?: string | undefined;
  /** Collector base URL, e.g. https://collector.example.com or a first-party proxy path. */
  api?: string | undefined;
  /** Attribution window in days, 1 to 365; 60 by default. */
  cookieDays?: number | string | undefined;
  /** e.g. "example.com"; when absent, the collector names the registrable domain in its answer to the click. */
  cookieDomain?: string | undefined;
  /** "last" (default): a new link replaces the old one. "first": the first link wins until it expires. */
  attribution?: string | undefined;
  /** Extra link parameter names to read as a referral slug (an array, or a comma-separated string). */
  params?: string[] | string | undefined;
  /** false or "required": store and send nothing until consent(true). */
  consent?: boolean | string | undefined;
  /** Remove the referral parameters from the address bar after reading them. */
  cleanUrl?: boolean | string | undefined;
}

/** What the first-party cookie `_gr_id` holds. `at` is when it was set or refreshed, in ms. */
export interface Referral {
  gr_id: string;
  pk?: string | null | undefined;
  uid?: string | null | undefined;
  at: number;
  /** The registrable domain the cookie lives on, as the click's answer named it; null or absent: host-only. */
  d?: string | null | undefined;
}

export interface Conversion {
  id: string;
  state: string;
}
