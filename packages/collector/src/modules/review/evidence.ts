// What a conversion's review reads: one statement for the visitor's click and the people
// who converted from the same address or browser lately; the program's partners'
// mailboxes and the disposable domains from memory. A program's signals read its own
// data only: another program's partners are nobody's business here (docs/review.md).

import * as crypto from 'node:crypto';
import { createRequire } from 'node:module';
import type { Queryable } from '../../platform/db/db.js';
import { remembered } from '../../platform/db/remembered.js';
import { mailbox } from '../../core/email.js';
import { ADDRESS_PEOPLE, ADDRESS_WINDOW_SECONDS, BROWSER_PEOPLE, BROWSER_WINDOW_SECONDS, type ConversionEvidence } from './signals.js';

/**
 * A client address as review keeps it: a hash with the program's id, enough to tell that
 * two conversions came from one address and to show it as a short tag, not the address.
 * Pseudonymous, not anonymous: IPv4 is small enough to guess through.
 */
export function clientHash(programId: string, client: string | undefined): string | null {
  return client ? sha256Hex(`${programId}:${client}`).slice(0, 32) : null;
}

// Node's one-shot hash (20.12 and 21.7 on) spares a Hash object per conversion; 20.11 makes one.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
const sha256Hex = oneShot
  ? (text: string) => oneShot('sha256', text, 'hex')
  : (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** The browser as its User-Agent header says, cut to a length worth showing. */
export const userAgent = (raw: string | undefined): string | null => (raw ? raw.slice(0, 256) : null);

interface Mailboxes {
  /** Every own and payout mailbox of the program's partners. */
  all: ReadonlySet<string>;
  /** A payout mailbox and the different partners' own mailboxes paid there. */
  payees: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Partners are settings (0014's triggers): a program's mailboxes are read once per change. */
function partnerMailboxes(db: Queryable, programId: string): Promise<Mailboxes> {
  return remembered(db, `review:mailboxes:${programId}`, async () => {
    const rows = await db.all<{ email_norm: string; paypal_email_norm: string | null }>(
      'SELECT email_norm, paypal_email_norm FROM partners WHERE program_id = ?',
      [programId],
    );
    const all = new Set<string>();
    const payees = new Map<string, Set<string>>();
    for (const r of rows) {
      const own = mailbox(r.email_norm);
      all.add(own);
      if (!r.paypal_email_norm) continue;
      const pay = mailbox(r.paypal_email_norm);
      all.add(pay);
      payees.set(pay, (payees.get(pay) ?? new Set()).add(own));
    }
    return { all, payees };
  });
}

let disposable: ReadonlySet<string> | undefined;
/** The maintained list of disposable domains (the disposable-email-domains package), loaded on first use. */
function disposableDomains(): ReadonlySet<string> {
  disposable ??= new Set(createRequire(import.meta.url)('disposable-email-domains') as string[]);
  return disposable;
}

export function isDisposable(email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return disposableDomains().has(domain);
}

export interface ConversionFacts {
  programId: string;
  /** The credited partnership: whether it had a referral before is read in the same statement. */
  partnershipId: string;
  grId: string;
  emailNorm: string;
  clientHash: string | null;
  /** The credited partner's own and payout addresses. */
  partnerEmail: string;
  partnerPaypal: string | null;
  now: number;
}

export interface EvidenceRead extends ConversionEvidence {
  /** Not evidence: whether the partnership had a referral before, which spares its first-referral notice a row (notifications). */
  partnershipReferred: boolean;
}

// `created_at + 0` keeps SQLite's planner (no table statistics) off the created_at indexes,
// which it would walk over every click or referral of the program, onto the gr_id ones; the
// bounded DISTINCT counts stop at the threshold, so a flood from one address costs no more.
export async function conversionEvidence(db: Queryable, f: ConversionFacts): Promise<EvidenceRead> {
  const row = await db.get<{
    click_at: number | null;
    click_url: string | null;
    same_address: number;
    same_browser: number;
    referred: unknown;
  }>(
    `SELECT (SELECT MIN(created_at + 0) FROM clicks WHERE program_id = ? AND gr_id = ?) AS click_at,
            (SELECT url FROM clicks WHERE program_id = ? AND gr_id = ? ORDER BY last_seen_at DESC LIMIT 1) AS click_url,
            (SELECT COUNT(*) FROM (SELECT DISTINCT email_norm FROM referrals
              WHERE program_id = ? AND client_hash = ? AND created_at > ? AND email_norm <> ? LIMIT ${ADDRESS_PEOPLE}) a) AS same_address,
            (SELECT COUNT(*) FROM (SELECT DISTINCT email_norm FROM referrals
              WHERE program_id = ? AND gr_id = ? AND created_at + 0 > ? AND email_norm <> ? LIMIT ${BROWSER_PEOPLE}) b) AS same_browser,
            EXISTS (SELECT 1 FROM referrals WHERE partnership_id = ?) AS referred`,
    [
      f.programId,
      f.grId,
      f.programId,
      f.grId,
      f.programId,
      f.clientHash ?? '',
      f.now - ADDRESS_WINDOW_SECONDS,
      f.emailNorm,
      f.programId,
      f.grId,
      f.now - BROWSER_WINDOW_SECONDS,
      f.emailNorm,
      f.partnershipId,
    ],
  );
  const boxes = await partnerMailboxes(db, f.programId);
  const own = mailbox(f.emailNorm);
  const payee = f.partnerPaypal ? mailbox(f.partnerPaypal) : undefined;
  return {
    clickAt: row?.click_at === null || row?.click_at === undefined ? null : Number(row.click_at),
    clickUrl: row?.click_url ?? null,
    sameAddress: f.clientHash ? Number(row?.same_address ?? 0) : 0,
    sameBrowser: Number(row?.same_browser ?? 0),
    partnerAddress: boxes.all.has(own),
    disposable: isDisposable(f.emailNorm),
    sharedPayout: payee !== undefined && [...(boxes.payees.get(payee) ?? [])].some((o) => o !== mailbox(f.partnerEmail)),
    // SQLite answers 1, PostgreSQL true.
    partnershipReferred: Number(row?.referred ?? 0) === 1,
  };
}
