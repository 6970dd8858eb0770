// Brand resources (docs/resources.md): files checked by their bytes (sniff.ts) and copy,
// kept in the database with the program's other records, in the owner's order; partners of
// the program read them, and nobody else learns they exist.

import { createHash } from 'node:crypto';
import { emit } from '../../events/emit.js';
import { uuidv7 } from '../../core/ids.js';
import type { Queryable, Tx } from '../../platform/db/db.js';
import { fail, found } from '../../platform/errors.js';
import * as repo from './repo.js';
import type { ResourceFile, ResourceRow } from './model.js';
import { renderResource } from './present.js';
import { EXTENSIONS, sniff } from './sniff.js';

/** The largest file taken: a press kit's PDF or ZIP, well under what a row of either engine holds. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Per program: enough for a brand kit, few enough to list without pages. */
export const MAX_RESOURCES = 100;

export interface FileUpload {
  title: string;
  fileName: string | undefined;
  bytes: Buffer;
}

/** A name safe in a Content-Disposition header: letters, digits, dot, dash, underscore; the extension of its sniffed type. */
export function downloadName(name: string | null | undefined, type: keyof typeof EXTENSIONS, fallback: string): string {
  const stem = (name ?? '')
    .replace(/\.[^.]*$/, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '')
    .slice(0, 80);
  return `${stem || fallback}.${EXTENSIONS[type]}`;
}

async function nextPosition(tx: Queryable, programId: string): Promise<number> {
  const { n, last } = await repo.count(tx, programId);
  if (n >= MAX_RESOURCES) throw fail('conflict', `a program keeps at most ${MAX_RESOURCES} resources; delete one first`);
  return last + 1;
}

async function add(tx: Tx, row: Omit<ResourceRow, 'position'>, content: Buffer | null): Promise<ResourceRow> {
  await tx.lock(`resources:${row.program_id}`);
  const full = { ...row, position: await nextPosition(tx, row.program_id) };
  await repo.insert(tx, { ...full, content });
  await emit(tx, row.program_id, 'resource.created', renderResource(full), row.created_at);
  return full;
}

/** Stores the file once its bytes pass (sniff.ts throws first, so a refused file leaves no row). */
export function addFile(tx: Tx, programId: string, upload: FileUpload, now: number): Promise<ResourceRow> {
  if (upload.bytes.length > MAX_FILE_BYTES) throw fail('payload_too_large', `the file is over ${MAX_FILE_BYTES} bytes`);
  const type = sniff(upload.bytes);
  const row = {
    id: uuidv7(),
    program_id: programId,
    kind: 'file' as const,
    title: upload.title,
    file_name: downloadName(upload.fileName, type, 'resource'),
    media_type: type,
    size: upload.bytes.length,
    sha256: createHash('sha256').update(upload.bytes).digest('base64url'),
    body: null,
    created_at: now,
  };
  return add(tx, row, upload.bytes);
}

export function addCopy(tx: Tx, programId: string, title: string, body: string, now: number): Promise<ResourceRow> {
  const row = {
    id: uuidv7(),
    program_id: programId,
    kind: 'copy' as const,
    title,
    file_name: null,
    media_type: null,
    size: Buffer.byteLength(body),
    sha256: null,
    body,
    created_at: now,
  };
  return add(tx, row, null);
}

export async function getResource(db: Queryable, programId: string, id: string): Promise<ResourceRow> {
  return found(await repo.get(db, programId, id), 'resource', id);
}

/** A file's row with its bytes; 404 for copy, another program's file or none. */
export async function resourceFile(db: Queryable, programId: string, id: string): Promise<ResourceFile> {
  return found(await repo.file(db, programId, id), 'resource', id);
}

export const listResources = (db: Queryable, programId: string): Promise<ResourceRow[]> => repo.all(db, programId);

export async function retitle(tx: Tx, programId: string, id: string, title: string): Promise<ResourceRow> {
  await getResource(tx, programId, id);
  await repo.setTitle(tx, programId, id, title);
  return getResource(tx, programId, id);
}

/** The owner's order: `ids` must name every resource of the program once. */
export async function reorder(tx: Tx, programId: string, ids: readonly string[]): Promise<ResourceRow[]> {
  await tx.lock(`resources:${programId}`);
  const rows = await repo.all(tx, programId);
  const known = new Set(rows.map((r) => r.id));
  if (ids.length !== rows.length || new Set(ids).size !== ids.length || ids.some((id) => !known.has(id))) {
    throw fail('invalid_field', 'ids must name every resource of the program, each once', { field: 'ids' });
  }
  for (const [i, id] of ids.entries()) await repo.setPosition(tx, programId, id, i + 1);
  return repo.all(tx, programId);
}

/** Deletes the resource; a logo that was this file goes with it (ON DELETE SET NULL in the brand row). */
export async function removeResource(tx: Tx, programId: string, id: string, now: number): Promise<void> {
  const row = await getResource(tx, programId, id);
  await repo.remove(tx, programId, id);
  await emit(tx, programId, 'resource.deleted', renderResource(row), now);
}
