// The audit log's rules: an entry is written in the change's transaction, with secrets
// redacted from its snapshots; it is read by the program's team, anonymised when the
// person it names is erased, and deleted past AUDIT_RETENTION_DAYS.

import type { Db, Queryable } from '../../platform/db/db.js';
import type { FieldFilter, Page, PageRequest } from '../../platform/db/list.js';
import { uuidv7 } from '../../core/ids.js';
import type { AuditEntry, AuditRow } from './model.js';
import * as audit from './repo.js';

const DAY_SECONDS = 86_400;
/** AUDIT_RETENTION_DAYS's default. */
export const AUDIT_RETENTION_DAYS = 400;

/** Keys whose values are never kept: a snapshot shows that a secret changed, never the secret. */
const SECRET_KEY = /secret|password|token|credential|api_key|hash|private|signing/i;
/** Values shaped like one of Tally's or a platform's secrets, whatever their key. */
const SECRET_VALUE = /^(tly_(sec|pub)_|whsec_|sk_|rk_|shpat_)/;
export const REDACTED = '[redacted]';

/** A copy of `value` with every secret replaced by REDACTED. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (typeof value === 'string') return SECRET_VALUE.test(value) ? REDACTED : value;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = SECRET_KEY.test(key) && v !== null && v !== undefined ? REDACTED : redact(v);
  return out;
}

const snapshot = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(redact(value)));

/** Writes one entry with `q`, the change's own transaction. */
export async function recordEntry(q: Queryable, entry: AuditEntry): Promise<AuditRow> {
  const row: AuditRow = {
    id: uuidv7(),
    program_id: entry.programId,
    actor_kind: entry.actor.kind,
    actor_id: entry.actor.id,
    actor_label: entry.actor.label,
    action: entry.action,
    target_type: entry.targetType,
    target_id: entry.targetId,
    before_data: snapshot(entry.before),
    after_data: snapshot(entry.after),
    ip: entry.ip,
    user_agent: entry.userAgent,
    request_id: entry.requestId,
    created_at: entry.createdAt,
    erased_at: null,
  };
  await audit.insert(q, row);
  return row;
}

export const getEntry = audit.get;

export function listEntries(db: Queryable, programId: string, filters: readonly FieldFilter[], page: PageRequest): Promise<Page<AuditRow>> {
  return audit.list(db, programId, filters, page);
}

/** Subjects per statement: each is three LIKEs and four parameters more. */
const SUBJECTS_PER_UPDATE = 50;

/** Erasure (flows/erasure.ts): the program's entries about or by `subjects` keep what happened and lose who and what they showed. */
export async function anonymiseSubjects(q: Queryable, programId: string, subjects: readonly string[], now: number): Promise<number> {
  let n = 0;
  for (let i = 0; i < subjects.length; i += SUBJECTS_PER_UPDATE) {
    n += await audit.anonymise(q, programId, subjects.slice(i, i + SUBJECTS_PER_UPDATE), now);
  }
  return n;
}

/** Deletes the entries older than `retentionDays` (0: none), in short transactions; resolves to how many went. */
export async function purgeAudit(db: Db, now: number, retentionDays: number, batch = 1000): Promise<number> {
  if (retentionDays <= 0) return 0;
  const cutoff = now - retentionDays * DAY_SECONDS;
  let deleted = 0;
  for (;;) {
    const n = await db.transaction((tx) => audit.purgeBefore(tx, cutoff, batch));
    deleted += n;
    if (n < batch) return deleted;
  }
}
