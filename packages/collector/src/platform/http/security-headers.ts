// Headers that keep browsers from misusing what the collector sends: no content sniffing,
// no framing, no referrer, and a Content-Security-Policy that allows nothing unless a
// page says what it needs (modules/site/demo.ts). The API's answers name partners, referrals
// and e-mail addresses, so no cache may keep them.

import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';

/** The strict default policy: nothing loads, nothing frames the answer, no form posts anywhere. */
export const STRICT_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The strict policy for a page whose one form posts back to this origin (the unsubscribe page's button). */
export const SELF_FORM_POLICY = STRICT_POLICY.replace("form-action 'none'", "form-action 'self'");

/** On every answer, also the ones Node's parser refuses before the app (platform/http/client-errors.ts). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': STRICT_POLICY,
  'X-Content-Type-Options': 'nosniff',
  // For browsers older than CSP's frame-ancestors.
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
});

export const securityHeaders: Middleware = async (ctx, next) => {
  ctx.set(SECURITY_HEADERS);
  if (ctx.path === '/v1' || ctx.path.startsWith('/v1/')) ctx.set('Cache-Control', 'no-store');
  await next();
};

/** A CSP source for exactly this inline script or style. */
export function inlineHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * A page's policy: scripts from this origin and the given inline ones, the given inline
 * styles, images (the icon), calls and form posts to this origin only, and still no framing.
 */
export function pagePolicy(inline: { scripts: readonly string[]; styles: readonly string[] }): string {
  return [
    "default-src 'none'",
    `script-src 'self' ${inline.scripts.map(inlineHash).join(' ')}`,
    `style-src ${inline.styles.map(inlineHash).join(' ')}`,
    // The icon (/favicon.ico), which browsers fetch for every page.
    "img-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
