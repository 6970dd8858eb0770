// A program's branding (docs/branding.md): its logo (one of its image resources), its accent
// colour, refused when it fails WCAG AA on the pages' surfaces, and its own host name, one
// program's at a time.

import type { Queryable, Tx } from '../../platform/db/db.js';
import { fail } from '../../platform/errors.js';
import { getResource } from '../resources/service.js';
import { isImage } from '../resources/sniff.js';
import { AA_NORMAL_TEXT, worstContrast } from './contrast.js';
import type { BrandRow } from './model.js';
import * as repo from './repo.js';

export interface BrandChanges {
  logo_id?: string | null | undefined;
  accent?: string | null | undefined;
  host?: string | null | undefined;
}

const none = (programId: string): BrandRow => ({ program_id: programId, logo_id: null, accent: null, host: null, updated_at: 0 });

export async function brandOf(db: Queryable, programId: string): Promise<BrandRow> {
  return (await repo.get(db, programId)) ?? none(programId);
}

/** The program whose own host `host` is (lower case, no port); undefined for the collector's own and any other. */
export async function programOfHost(db: Queryable, host: string): Promise<string | undefined> {
  return (await repo.byHost(db, host.toLowerCase().replace(/\.$/, '')))?.program_id;
}

function checkAccent(accent: string): string {
  const ratio = worstContrast(accent);
  if (ratio < AA_NORMAL_TEXT) {
    throw fail(
      'invalid_field',
      `the accent ${accent} has a contrast of ${ratio}:1 with the pages' light surfaces; WCAG AA needs ${AA_NORMAL_TEXT}:1: pick a darker colour`,
      { field: 'accent', meta: { contrast_ratio: ratio, required_ratio: AA_NORMAL_TEXT } },
    );
  }
  return accent.toLowerCase();
}

async function checkLogo(tx: Queryable, programId: string, id: string): Promise<string> {
  const row = await getResource(tx, programId, id).catch(() => undefined);
  if (row?.kind !== 'file' || !isImage(row.media_type)) {
    throw fail('invalid_field', `logo_id must name one of the program's image resources; ${id} is not one`, { field: 'logo_id' });
  }
  return id;
}

async function checkHost(tx: Tx, programId: string, host: string, publicHost: string): Promise<string> {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === publicHost) throw fail('invalid_field', `host ${name} is the collector's own (PUBLIC_URL)`, { field: 'host' });
  // One claim at a time: the check and the write are one step for every program.
  await tx.lock('brand-hosts');
  const owner = await programOfHost(tx, name);
  if (owner !== undefined && owner !== programId) throw fail('conflict', `host ${name} is another program's`, { field: 'host' });
  return name;
}

/** Applies `changes` (null clears a field), each checked; `publicHost` is the collector's own host name, never a program's. */
export async function updateBrand(tx: Tx, programId: string, changes: BrandChanges, publicHost: string, now: number): Promise<BrandRow> {
  const row = { ...(await brandOf(tx, programId)), updated_at: now };
  if (changes.accent !== undefined) row.accent = changes.accent === null ? null : checkAccent(changes.accent);
  if (changes.logo_id !== undefined) row.logo_id = changes.logo_id === null ? null : await checkLogo(tx, programId, changes.logo_id);
  if (changes.host !== undefined) row.host = changes.host === null ? null : await checkHost(tx, programId, changes.host, publicHost);
  await repo.upsert(tx, row);
  return row;
}
