// Programs: their settings and origins, read and checked (the flows create and change them: flows/program.ts).

import { fail } from '../../platform/errors.js';
import type { Queryable } from '../../platform/db/db.js';
import * as programs from './repo.js';
import type { ProgramRow } from './model.js';
import { isUuid } from '../../core/ids.js';
import { remembered } from '../../platform/db/remembered.js';

export const DEFAULT_RATE_BPS = 2000;
/** The tracker's own default (docs/tracker.md). */
export const DEFAULT_COOKIE_DAYS = 60;

export interface NewProgram {
  name: string;
  siteUrl: string;
  /** Browser origins allowed to post conversions; defaults to the site's own origin. */
  allowedOrigins?: readonly string[];
  commissionRateBps?: number;
}

export interface CreatedProgram {
  program: ProgramRow;
  origins: string[];
  tokens: { secret: string; publishable: string };
}

/** An absolute http(s) URL: the page a referral link points to. */
export function parseSiteUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw fail('invalid_field', `site URL must be an absolute http(s) URL, like https://www.example.com/, got "${raw}"`, {
      field: 'site_url',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw fail('invalid_field', 'site URL must use http or https', { field: 'site_url' });
  }
  return url.href;
}

/**
 * A host an origin may name, as URL gives it (lower case, punycode): DNS labels of letters,
 * digits and hyphens, IPv4, or IPv6 in brackets (HOST=::1 makes the first program's). Origins
 * go into CORS answers and /embed/'s frame-ancestors, where `*`, `;`, `,` or a quote would
 * widen or rewrite the policy.
 */
const ORIGIN_HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])$/;

/** The origin `raw` is exactly (scheme://host[:port]), else undefined: `https://Shop.Example.com:443/` is `https://shop.example.com`. */
export function exactOrigin(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  const bare =
    url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password && !raw.includes('?') && !raw.includes('#');
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !bare || !ORIGIN_HOST.test(url.hostname)) return undefined;
  return url.origin;
}

/** An allowed origin as the program keeps it; anything but an exact origin is refused. */
export function parseOrigin(raw: string): string {
  const origin = exactOrigin(raw);
  if (origin) return origin;
  throw fail(
    'invalid_field',
    `an allowed origin is exactly scheme://host[:port], like https://shop.example.com or http://localhost:3000: no wildcard, path, user or other characters (got "${raw}")`,
    { field: 'allowed_origins' },
  );
}

export function parseRateBps(raw: number): number {
  if (!Number.isInteger(raw) || raw < 0 || raw > 10000) {
    throw fail('invalid_field', 'commission rate must be a whole number of basis points from 0 to 10000', {
      field: 'commission_rate_bps',
    });
  }
  return raw;
}

export interface ProgramWithOrigins {
  program: ProgramRow;
  origins: string[];
}

/** The program's row alone (no origins), or undefined. */
export function findProgram(db: Queryable, id: string): Promise<ProgramRow | undefined> {
  return programs.get(db, id);
}

export async function getProgram(db: Queryable, id: string): Promise<ProgramWithOrigins | undefined> {
  const program = isUuid(id) ? await programs.get(db, id) : undefined;
  return program && { program, origins: await programs.origins(db, id) };
}

export async function listPrograms(db: Queryable): Promise<ProgramWithOrigins[]> {
  return Promise.all((await programs.list(db)).map(async (program) => ({ program, origins: await programs.origins(db, program.id) })));
}

/**
 * Changes any of the program's settings at once, checked like a new program's. Origins
 * are added and removed by name, so a running site never loses the others; removing one
 * that is not there is an error, as a typo there would leave the old one working.
 */
export function allowsOrigin(db: Queryable, programId: string, origin: string): Promise<boolean> {
  return remembered(db, `origin:${programId} ${origin}`, () => programs.allowsOrigin(db, programId, origin));
}

/** Demo tokens kept: one per process of a deployment that runs several (PostgreSQL). */
