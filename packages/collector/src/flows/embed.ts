// The embedded partner portal (docs/embed.md): a company shows one of its own users their
// link, codes, figures and payout settings inside its app. Its server asks, with a secret
// token, for a one-time embed token for the user (their id in the company's app, a name, an
// e-mail): the user is made a partner of the program with an accepted partnership the first
// time, and found again by that id after. The page at /embed/?token=… trades the token for
// a session it holds in memory (no cookie: an iframe on another site gets none) and reads
// one partner's records through it, and nothing else. Both are stored as SHA-256 hashes.

import { fail } from '../platform/errors.js';
import type { Db, Queryable } from '../platform/db/db.js';
import { normalizeEmail } from '../core/email.js';
import { uuidv7 } from '../core/ids.js';
import type { Locale } from '../core/locale.js';
import { checkEmail, newSecret } from '../modules/identity/service.js';
import * as partners from '../modules/partners/repo.js';
import { createPartner, updatePartner } from '../modules/partners/service.js';
import * as partnerships from '../modules/partnerships/repo.js';
import { insertPartnership } from './partnership.js';
import { type Apis, setPayoutMethod } from './payout-method.js';
import * as portal from '../modules/portal/repo.js';
import { type PartnershipWithEarnings, withEarnings } from './portal.js';
import * as programs from '../modules/programs/repo.js';
import type { ProgramRow } from '../modules/programs/model.js';
import { exactOrigin } from '../modules/programs/service.js';
import { hashToken } from '../modules/tokens/service.js';
import * as embeds from '../modules/embed/repo.js';
import type { EmbedSessionRow } from '../modules/embed/repo.js';

/** An embed token lasts long enough to load the page that holds it, and no longer. */
export const EMBED_TOKEN_SECONDS = 10 * 60;
/** A session lasts a working afternoon; the company's page asks for a new token after it. */
export const EMBED_SESSION_SECONDS = 4 * 3600;
const TOKEN_PREFIX = 'emb_';
const SESSION_PREFIX = 'ems_';
/** Tokens and sessions are forgotten a day after they end. */
const PURGE_AFTER = 86_400;

export interface EmbedUser {
  /** The user's id in the company's own app. */
  user_id: string;
  name: string;
  email: string;
  /** The group a new partnership joins; the program's default group when absent. */
  group_id?: string | undefined;
}

export interface MintedToken {
  id: string;
  token: string;
  expires_at: number;
  partner_id: string;
  partnership_id: string;
}

/**
 * The user's partner record: the one made for this user id before, else the program's
 * partner with the same e-mail address (the company's own record, which it may see
 * anyway), else a new one. A partner found by address is the user's only if no other user
 * id of the company's claimed it first.
 */
async function partnerFor(tx: Queryable, program: ProgramRow, user: EmbedUser, now: number): Promise<string> {
  const known = await embeds.partnerOfUser(tx, program.id, user.user_id);
  if (known) return known;
  const email = checkEmail(user.email);
  const same = await partners.findByEmail(tx, program.id, normalizeEmail(email));
  if (same && (await embeds.userOfPartner(tx, same.id)) !== undefined)
    throw fail('conflict', 'another user_id of yours is this e-mail address already', { field: 'email' });
  const partnerId = same?.id ?? (await createPartner(tx, program.id, { name: user.name, email }, now)).id;
  await embeds.insertUser(tx, program.id, user.user_id, partnerId, now);
  return partnerId;
}

/**
 * A one-time embed token for the company's user, who is made a partner with an accepted
 * partnership (in `group_id`, else the default group) when they have none. A partnership
 * that exists already is left as the owner keeps it: pending, declined, or in its group.
 */
export async function mintEmbedToken(db: Db, program: ProgramRow, user: EmbedUser, now: number): Promise<MintedToken> {
  return db.transaction(async (tx) => {
    // Two requests for a new user at once make one partner.
    await tx.lock(`embed-user:${program.id} ${user.user_id}`);
    const partnerId = await partnerFor(tx, program, user, now);
    const partnership =
      (await partnerships.getByPartner(tx, program.id, partnerId)) ??
      (await insertPartnership(tx, program.id, { partner_id: partnerId, state: 'accepted', group_id: user.group_id }, now));
    const token = TOKEN_PREFIX + newSecret();
    const expires = now + EMBED_TOKEN_SECONDS;
    const id = uuidv7(now * 1000);
    await embeds.insertToken(tx, {
      id,
      hash: hashToken(token),
      program_id: program.id,
      partner_id: partnerId,
      expires_at: expires,
      created_at: now,
    });
    return { id, token, expires_at: expires, partner_id: partnerId, partnership_id: partnership.id };
  });
}

/** Deletes tokens and sessions a day past their end (run hourly with the other credentials, identity/purge.ts). */
export function purgeEmbeds(db: Db, now: number): Promise<number> {
  return db.transaction((tx) => embeds.purgeExpired(tx, now - PURGE_AFTER));
}

/** Trades an embed token, once, for a session; an unknown, used or expired token is refused alike. */
export async function openSession(db: Db, token: string, now: number): Promise<{ id: string; token: string; expires_at: number }> {
  return db.transaction(async (tx) => {
    const held = await embeds.takeToken(tx, hashToken(token), now);
    if (!held) throw fail('unauthorized', 'this embed link has expired or was used: reload the page that shows it');
    const session = SESSION_PREFIX + newSecret();
    const row: EmbedSessionRow = {
      id: uuidv7(now * 1000),
      hash: hashToken(session),
      program_id: held.program_id,
      partner_id: held.partner_id,
      expires_at: now + EMBED_SESSION_SECONDS,
      created_at: now,
    };
    await embeds.insertSession(tx, row);
    return { id: row.id, token: session, expires_at: row.expires_at };
  });
}

/** The session a bearer token names, with its program; undefined when it is unknown or over. */
export async function authenticateEmbed(
  db: Queryable,
  token: string,
  now: number,
): Promise<{ session: EmbedSessionRow; program: ProgramRow } | undefined> {
  if (!token.startsWith(SESSION_PREFIX)) return undefined;
  const session = await embeds.sessionByHash(db, hashToken(token), now);
  const program = session && (await programs.get(db, session.program_id));
  return program ? { session: session!, program } : undefined;
}

/**
 * What the page's frame-ancestors allow: the allowed origins of the program an embed token
 * is for, while it lasts (used or not: a reload says it was used, inside the frame), or
 * 'none' for a program with none; undefined for an unknown or expired token.
 */
export async function frameAncestors(db: Queryable, token: string, now: number): Promise<string | undefined> {
  const programId = token.startsWith(TOKEN_PREFIX) ? await embeds.tokenProgram(db, hashToken(token), now) : undefined;
  if (!programId) return undefined;
  // Only exact origins, should a row from before they were checked hold a wildcard or a `;`.
  const origins = (await programs.origins(db, programId)).filter((o) => exactOrigin(o) === o);
  return origins.length > 0 ? origins.join(' ') : "'none'";
}

/** The session's partnership as the portal shows it, with its earnings. */
export async function embeddedPartnership(db: Queryable, session: EmbedSessionRow, now: number): Promise<PartnershipWithEarnings> {
  const p = await portal.partnershipOfPartner(db, session.program_id, session.partner_id);
  if (!p) throw fail('not_found', 'no partnership for this embed');
  const [withMoney] = await withEarnings(db, [p], now);
  return withMoney!;
}

export async function embeddedPartner(db: Queryable, session: EmbedSessionRow): Promise<partners.PartnerRow> {
  const row = await partners.get(db, session.program_id, session.partner_id);
  if (!row) throw fail('not_found', 'no partner for this embed');
  return row;
}

/**
 * The payout address and the language, on this program's record of the partner only. A new
 * PayPal address goes through the payout-method flow: the partner's own address is ready at
 * once, another pays only once the link e-mailed to it is used (decision 0373).
 */
export async function updatePayoutSettings(
  db: Db,
  session: EmbedSessionRow,
  changes: { paypal_email?: string | null | undefined; locale?: Locale | null | undefined },
  apis: Apis,
  now: number,
): Promise<partners.PartnerRow> {
  const fields: { paypal_email?: null; locale?: string | null } = {};
  if (changes.paypal_email) {
    const partner = await embeddedPartner(db, session);
    const paypal = { method: 'paypal' as const, paypal_email: checkEmail(changes.paypal_email, 'paypal_email') };
    await setPayoutMethod(db, session.program_id, session.partner_id, partner.email, paypal, apis, now);
  } else if (changes.paypal_email === null) fields.paypal_email = null;
  if (changes.locale !== undefined) fields.locale = changes.locale;
  return updatePartner(db, session.program_id, session.partner_id, fields, now);
}
