import type { Queryable } from '../../platform/db/db.js';
import type { ProgramRow } from '../programs/model.js';
import { insertRow } from '../../platform/db/rows.js';

export type TokenKind = 'secret' | 'publishable';

export interface TokenRow {
  id: string;
  program_id: string;
  kind: TokenKind;
  /** SHA-256 of the whole token, hex. The token itself is never stored. */
  hash: string;
  /** The prefix and the first random characters, enough to recognise a token in a list. */
  hint: string;
  created_at: number;
  revoked_at: number | null;
  /** Marks tokens the service manages itself, such as the demo page's. */
  label: string | null;
}

export interface Credential {
  token_id: string;
  kind: TokenKind;
  program: ProgramRow;
}

export async function insert(db: Queryable, row: TokenRow): Promise<void> {
  await insertRow(db, 'tokens', row);
}

export async function findActiveByHash(db: Queryable, hash: string): Promise<Credential | undefined> {
  const row = await db.get<ProgramRow & { token_id: string; kind: TokenKind }>(
    `SELECT t.id AS token_id, t.kind, p.*
       FROM tokens t JOIN programs p ON p.id = t.program_id
      WHERE t.hash = ? AND t.revoked_at IS NULL`,
    [hash],
  );
  if (!row) return undefined;
  const { token_id, kind, ...program } = row;
  return { token_id, kind, program };
}

export function listByProgram(db: Queryable, programId: string): Promise<TokenRow[]> {
  return db.all<TokenRow>('SELECT * FROM tokens WHERE program_id = ? ORDER BY created_at, id', [programId]);
}

export function get(db: Queryable, id: string): Promise<TokenRow | undefined> {
  return db.get<TokenRow>('SELECT * FROM tokens WHERE id = ?', [id]);
}

export function revoke(db: Queryable, id: string, now: number): Promise<number> {
  return db.run('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [now, id]);
}

/** Deletes the program's tokens with this label, all but the newest `keep`. */
export function pruneLabelled(db: Queryable, programId: string, label: string, keep: number): Promise<number> {
  return db.run(
    `DELETE FROM tokens WHERE program_id = ? AND label = ? AND id NOT IN
       (SELECT id FROM tokens WHERE program_id = ? AND label = ? ORDER BY created_at DESC, id DESC LIMIT ?)`,
    [programId, label, programId, label, keep],
  );
}
