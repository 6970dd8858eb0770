// Partners' links (docs/links.md): several per partnership, each a key that credits it and
// a destination on one of the program's allowed origins, with the program's UTM template.
// A key a partner chooses follows the program's rules, and waits for the owner where the
// program asks; an active link's key is a slug of its partnership, so the click path finds
// it in the read it already makes (modules/partnerships).

import { randomBytes } from 'node:crypto';
import { uuidv7 } from '../../core/ids.js';
import { normalizeSlug } from '../../core/slugs.js';
import type { Queryable, Tx } from '../../platform/db/db.js';
import { UniqueViolation } from '../../platform/db/db.js';
import { fail, found } from '../../platform/errors.js';
import { emit } from '../../events/emit.js';
import { addLinkSlug, getPartnership, removeLinkSlug, slugTaken } from '../partnerships/service.js';
import { allowsOrigin } from '../programs/service.js';
import { renderLink } from './present.js';
import * as links from './repo.js';
import { type KeyCharacters, type LinkRow, type LinkSettingsRow, type LinkStatus, UTM_FIELDS, type Utm } from './model.js';

/** Words no link's key may be, in any program: they read as the company's own pages. */
export const ALWAYS_RESERVED = ['admin', 'api', 'app', 'dashboard', 'embed', 'go', 'help', 'login', 'portal', 'signup', 'support', 'www'];

const CHARACTERS: Record<KeyCharacters, { pattern: RegExp; said: string }> = {
  letters_digits: { pattern: /^[a-z0-9]+$/, said: 'letters and digits' },
  letters_digits_dash: { pattern: /^[a-z0-9][a-z0-9_-]*$/, said: 'letters, digits, - and _ (not first)' },
};

export function defaultSettings(programId: string, now: number): LinkSettingsRow {
  return {
    program_id: programId,
    utm: '{}',
    custom_keys: 1,
    key_min_length: 4,
    key_max_length: 32,
    key_characters: 'letters_digits_dash',
    reserved_keys: '[]',
    approval_required: 0,
    updated_at: now,
  };
}

export async function settingsOf(db: Queryable, programId: string, now: number): Promise<LinkSettingsRow> {
  return (await links.settings(db, programId)) ?? defaultSettings(programId, now);
}

export interface SettingsInput {
  utm?: Utm | undefined;
  custom_keys?: boolean | undefined;
  key_min_length?: number | undefined;
  key_max_length?: number | undefined;
  key_characters?: KeyCharacters | undefined;
  reserved_keys?: readonly string[] | undefined;
  approval_required?: boolean | undefined;
}

const flag = (value: boolean | undefined, was: number): number => (value === undefined ? was : value ? 1 : 0);

export async function updateSettings(tx: Tx, programId: string, input: SettingsInput, now: number): Promise<LinkSettingsRow> {
  const was = await settingsOf(tx, programId, now);
  const row: LinkSettingsRow = {
    program_id: programId,
    utm: input.utm === undefined ? was.utm : JSON.stringify(input.utm),
    custom_keys: flag(input.custom_keys, was.custom_keys),
    key_min_length: input.key_min_length ?? was.key_min_length,
    key_max_length: input.key_max_length ?? was.key_max_length,
    key_characters: input.key_characters ?? was.key_characters,
    reserved_keys:
      input.reserved_keys === undefined ? was.reserved_keys : JSON.stringify([...new Set(input.reserved_keys.map(normalizeSlug))]),
    approval_required: flag(input.approval_required, was.approval_required),
    updated_at: now,
  };
  if (row.key_min_length > row.key_max_length) {
    throw fail('invalid_field', 'key_min_length is more than key_max_length', { field: 'key_min_length' });
  }
  await links.saveSettings(tx, row);
  return row;
}

/** Why a key the partner chose breaks the program's rules, or undefined. */
function keyProblem(key: string, s: LinkSettingsRow): string | undefined {
  const rule = CHARACTERS[s.key_characters];
  if (key.length < s.key_min_length || key.length > s.key_max_length) {
    return `a key of this program has ${s.key_min_length} to ${s.key_max_length} characters`;
  }
  if (!rule.pattern.test(key)) return `a key of this program has only ${rule.said}`;
  const reserved = [...ALWAYS_RESERVED, ...(JSON.parse(s.reserved_keys) as string[])];
  if (reserved.includes(key)) return 'this key is reserved: choose another';
  return undefined;
}

/** The destination as stored: an http(s) address on one of the program's allowed origins. */
async function checkedDestination(db: Queryable, programId: string, raw: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw fail('invalid_field', 'destination is not an absolute URL', { field: 'destination' });
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !(await allowsOrigin(db, programId, url.origin))) {
    throw fail('invalid_field', `destination must be on one of the program's allowed origins; ${url.origin} is not one`, {
      field: 'destination',
    });
  }
  // The link's own parameters are added when it is followed: none are kept from the address.
  url.searchParams.delete('red');
  url.hash = '';
  return url.href;
}

/** The program's template filled in by the link's own values where the template leaves a field empty. */
function utmOf(s: LinkSettingsRow, own: Utm | undefined, key: string): Utm {
  const template = JSON.parse(s.utm) as Utm;
  const out: Utm = {};
  for (const field of UTM_FIELDS) {
    const value = template[field] ? template[field].replaceAll('{key}', key) : own?.[field];
    if (value) out[field] = value;
  }
  return out;
}

/** A key made up for a link whose partner did not choose one: eight letters and digits. */
function madeUpKey(): string {
  return randomBytes(6)
    .toString('base64url')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '0')
    .slice(0, 8);
}

export interface LinkInput {
  destination: string;
  key?: string | undefined;
  utm?: Utm | undefined;
}

const keyTaken = () => fail('conflict', 'this key is taken in this program: choose another', { field: 'key' });

/**
 * A new link of the partnership. A key the partner chose follows the program's rules and,
 * where the program asks, waits for the owner's approval; an owner's link, or one with a
 * made-up key, is active at once.
 */
export async function createLink(
  tx: Tx,
  programId: string,
  partnershipId: string,
  input: LinkInput,
  by: LinkRow['created_by'],
  now: number,
): Promise<LinkRow> {
  const partnership = await getPartnership(tx, programId, partnershipId);
  const s = await settingsOf(tx, programId, now);
  const chosen = input.key === undefined ? undefined : normalizeSlug(input.key);
  if (chosen !== undefined && by === 'partner') {
    if (s.custom_keys !== 1) throw fail('forbidden', 'this program makes the keys of links itself: leave key out', { field: 'key' });
    const problem = keyProblem(chosen, s);
    if (problem) throw fail('invalid_field', problem, { field: 'key' });
  }
  const key = chosen ?? madeUpKey();
  if (chosen !== undefined && by === 'company' && !/^[a-z0-9][a-z0-9_-]{1,63}$/.test(key)) {
    throw fail('invalid_field', 'a key has 2 to 64 letters, digits, - and _ (not first)', { field: 'key' });
  }
  const status: LinkStatus = chosen !== undefined && by === 'partner' && s.approval_required === 1 ? 'pending_approval' : 'active';
  const row: LinkRow = {
    id: uuidv7(),
    program_id: programId,
    partnership_id: partnership.id,
    key,
    destination: await checkedDestination(tx, programId, input.destination),
    utm: JSON.stringify(utmOf(s, input.utm, key)),
    status,
    created_by: by,
    created_at: now,
    updated_at: now,
  };
  // A partnership's key, a competitor slug or another link's (even one waiting) is taken.
  if ((await slugTaken(tx, programId, key)) || (await links.byKey(tx, programId, key))) throw keyTaken();
  try {
    await links.insert(tx, row);
  } catch (err) {
    if (err instanceof UniqueViolation) throw keyTaken();
    throw err;
  }
  if (status === 'active' && !(await addLinkSlug(tx, programId, partnership.id, key, row.id))) throw keyTaken();
  await emit(tx, programId, 'link.created', renderLink(row), now);
  return row;
}

/** Approves a waiting link, disables a link, or enables a disabled one: the key credits only while active. */
export async function setLinkStatus(tx: Tx, programId: string, id: string, status: 'active' | 'disabled', now: number): Promise<LinkRow> {
  const row = found(await links.get(tx, programId, id), 'link', id);
  if (row.status === status) return row;
  if (!(await links.setStatus(tx, row, status, now))) throw fail('conflict', 'the link changed meanwhile: read it again');
  if (status === 'active') {
    // A key may have been taken by a partnership's key or competitor slug while the link waited.
    if (!(await addLinkSlug(tx, programId, row.partnership_id, row.key, row.id))) throw keyTaken();
  } else {
    await removeLinkSlug(tx, programId, row.id);
  }
  const after = { ...row, status, updated_at: now };
  await emit(tx, programId, 'link.updated', renderLink(after), now);
  return after;
}

/** The address a link sends its visitor to: the destination with `red` (the key) and the UTM parameters. */
export function followedUrl(row: LinkRow): string {
  const url = new URL(row.destination);
  url.searchParams.set('red', row.key);
  for (const [name, value] of Object.entries(JSON.parse(row.utm) as Utm)) url.searchParams.set(name, value);
  return url.href;
}

/** The collector's short address of a link, which redirects to followedUrl (GET /v1/go/…): what the QR code holds. */
export const shortUrl = (publicUrl: string, row: LinkRow): string =>
  new URL(`/v1/go/${row.program_id}/${encodeURIComponent(row.key)}`, publicUrl).href;

/** The active link with this key, for its redirect; 404 for an unknown, waiting or disabled one. */
export async function activeLink(db: Queryable, programId: string, key: string): Promise<LinkRow> {
  const row = await links.byKey(db, programId, normalizeSlug(key));
  if (row?.status !== 'active') throw fail('not_found', 'no active link with this key');
  return row;
}

export const linkStats = links.stats;
