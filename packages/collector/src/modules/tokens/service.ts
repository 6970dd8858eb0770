// API tokens (docs/api.md §3): `tly_sec_` or `tly_pub_`, 32 random base62 characters
// and a 6-character checksum. The checksum lets a typo or a forged token be refused
// without touching the database; only a SHA-256 of the token is ever stored.

import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Db, Queryable } from '../../platform/db/db.js';
import * as tokens from './repo.js';
import type { Credential, TokenKind, TokenRow } from './repo.js';
import { fail } from '../../platform/errors.js';
import { isUuid, uuidv7 } from '../../core/ids.js';
import { remembered } from '../../platform/db/remembered.js';

export type { Credential };

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const PREFIX: Record<TokenKind, string> = { secret: 'tly_sec_', publishable: 'tly_pub_' };
const SHAPE = /^tly_(sec|pub)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

function base62(n: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

function checksum(body: string): string {
  return base62(crc32(body), 6); // 62^6 > 2^32, so every CRC has its own checksum
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62]; // 248 = 4 × 62: no bias
    }
  }
  return out;
}

export function generateToken(kind: TokenKind): string {
  const body = PREFIX[kind] + randomBase62(32);
  return body + checksum(body);
}

/** The kind of a well-formed token with a valid checksum; undefined for anything else. */
export function tokenKind(token: string): TokenKind | undefined {
  const m = SHAPE.exec(token);
  if (!m || checksum(`tly_${m[1]}_${m[2]}`) !== m[3]) return undefined;
  return m[1] === 'sec' ? 'secret' : 'publishable';
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface IssuedToken {
  row: TokenRow;
  /** Shown once, to whoever asked for it; never stored. */
  token: string;
}

export async function issueToken(
  db: Queryable,
  programId: string,
  kind: TokenKind,
  now: number,
  label: string | null = null,
): Promise<IssuedToken> {
  const token = generateToken(kind);
  const row: TokenRow = {
    id: uuidv7(),
    program_id: programId,
    kind,
    hash: hashToken(token),
    hint: token.slice(0, PREFIX[kind].length + 4),
    created_at: now,
    revoked_at: null,
    label,
  };
  await tokens.insert(db, row);
  return { row, token };
}

/** The credential behind a bearer token, or undefined when it is malformed, unknown or revoked. */
export async function authenticate(db: Queryable, token: string): Promise<Credential | undefined> {
  if (!tokenKind(token)) return undefined;
  const hash = hashToken(token);
  return remembered(db, `token:${hash}`, () => tokens.findActiveByHash(db, hash));
}

export function listTokens(db: Queryable, programId: string): Promise<TokenRow[]> {
  return tokens.listByProgram(db, programId);
}

/** Revokes at once, for every process; undefined when there is no such token. */
export async function revokeToken(db: Queryable, id: string, now: number): Promise<'revoked' | 'already revoked' | undefined> {
  const token = isUuid(id) ? await tokens.get(db, id) : undefined;
  if (!token) return undefined;
  return (await tokens.revoke(db, id, now)) === 1 ? 'revoked' : 'already revoked';
}

/** Revokes one of the program's tokens; another program's, or none, is a 404. */
export async function revokeProgramToken(db: Db, programId: string, id: string, now: number, maySecret = true): Promise<void> {
  const token = isUuid(id) ? await tokens.get(db, id) : undefined;
  if (!token || token.program_id !== programId) throw fail('not_found', `no token ${id}`);
  if (token.kind === 'secret' && !maySecret) throw fail('forbidden', 'only an owner of the program may make or revoke a secret token');
  await db.transaction((tx) => tokens.revoke(tx, id, now));
}

/** The program a token is of, for the CLI's audit entry; undefined for no such token. */
export async function tokenProgram(db: Queryable, id: string): Promise<string | undefined> {
  return isUuid(id) ? (await tokens.get(db, id))?.program_id : undefined;
}

/** What the audit log calls a token: its label, else its kind; undefined for no such token. */
export async function tokenLabel(db: Queryable, id: string): Promise<string | undefined> {
  const token = isUuid(id) ? await tokens.get(db, id) : undefined;
  return token ? (token.label ?? `${token.kind} token`) : undefined;
}
