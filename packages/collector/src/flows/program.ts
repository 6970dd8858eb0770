// Programs: one company's affiliate program, the tenant every record belongs to.

import type { BillingFields } from '../core/billing.js';
import { fail } from '../platform/errors.js';
import type { Db, Tx } from '../platform/db/db.js';
import * as programs from '../modules/programs/repo.js';
import type { ProgramRow } from '../modules/programs/model.js';
import { minimumPayout } from '../core/payout-terms.js';
import { stripeEndpointId, uuidv7 } from '../core/ids.js';
import { normalizeSlug } from '../core/slugs.js';
import { issueToken } from '../modules/tokens/service.js';
import * as tokens from '../modules/tokens/repo.js';
import { insertDefaultGroup } from './group-moves.js';
import * as rewards from '../modules/rewards/repo.js';
import {
  type CreatedProgram,
  DEFAULT_COOKIE_DAYS,
  DEFAULT_RATE_BPS,
  type NewProgram,
  type ProgramWithOrigins,
  parseOrigin,
  parseRateBps,
  parseSiteUrl,
} from '../modules/programs/service.js';

export async function createProgram(db: Db, input: NewProgram, now: number): Promise<CreatedProgram> {
  const made = prepare(input, now);
  return db.transaction((tx) => insert(tx, made, now));
}

/** The program's row and origins, checked; nothing is written yet. */
function prepare(input: NewProgram, now: number): { program: ProgramRow; origins: string[] } {
  const siteUrl = parseSiteUrl(input.siteUrl);
  const name = input.name.trim();
  if (!name) throw fail('missing_field', 'program name is required', { field: 'name' });
  const origins = [...new Set((input.allowedOrigins?.length ? input.allowedOrigins : [siteUrl]).map(parseOrigin))];
  const program: ProgramRow = {
    id: uuidv7(),
    name,
    site_url: siteUrl,
    commission_rate_bps: parseRateBps(input.commissionRateBps ?? DEFAULT_RATE_BPS),
    cookie_days: DEFAULT_COOKIE_DAYS,
    recurring_months: 0,
    hold_days: 0,
    minimum_payout: '{}',
    stripe_endpoint_id: stripeEndpointId(),
    slug: null,
    description: '',
    page_enabled: 0,
    auto_accept: 0,
    code_wins: 0,
    partner_codes: 0,
    code_prefix: '',
    code_max_length: 32,
    auto_codes: 0,
    stripe_api_key: null,
    lemonsqueezy_api_key: null,
    review_signals: '{}',
    locale: 'en',
    billing_name: null,
    billing_address: null,
    billing_vat_id: null,
    created_at: now,
    updated_at: now,
  };
  return { program, origins };
}

async function insert(tx: Tx, { program, origins }: ReturnType<typeof prepare>, now: number): Promise<CreatedProgram> {
  await programs.insert(tx, program, origins);
  await insertDefaultGroup(tx, program, now);
  const secret = await issueToken(tx, program.id, 'secret', now);
  const publishable = await issueToken(tx, program.id, 'publishable', now);
  return { program, origins, tokens: { secret: secret.token, publishable: publishable.token } };
}

/**
 * The first start on an empty database makes a program, so a new user can go at once.
 * Returns it only when this call made it: its tokens are shown once.
 */
export async function ensureFirstProgram(db: Db, input: NewProgram, now: number): Promise<CreatedProgram | undefined> {
  const made = prepare(input, now);
  // Under a lock: processes starting together on an empty database make one program.
  return db.transaction(async (tx) => {
    await tx.lock('first-program');
    return (await programs.count(tx)) > 0 ? undefined : insert(tx, made, now);
  });
}

export interface ProgramChanges {
  name?: string | undefined;
  siteUrl?: string | undefined;
  addOrigins?: readonly string[] | undefined;
  removeOrigins?: readonly string[] | undefined;
  commissionRateBps?: number | undefined;
  cookieDays?: number | undefined;
  recurringMonths?: number | undefined;
  holdDays?: number | undefined;
  minimumPayout?: Record<string, number> | undefined;
  /** The public page: its address (null takes it down for good), text, and whether it is up. */
  slug?: string | null | undefined;
  description?: string | undefined;
  pageEnabled?: boolean | undefined;
  autoAccept?: boolean | undefined;
  codeWins?: boolean | undefined;
  partnerCodes?: boolean | undefined;
  codePrefix?: string | undefined;
  codeMaxLength?: number | undefined;
  autoCodes?: boolean | undefined;
  stripeApiKey?: string | null | undefined;
  lemonSqueezyApiKey?: string | null | undefined;
  /** Review signals turned on or off, over the program's current choice. */
  reviewSignals?: Partial<Record<string, boolean>> | undefined;
  /** The partners' default language (core/locale.ts LOCALES). */
  locale?: string | undefined;
  /** The owner's side of invoices; null clears one. */
  billing?: Partial<BillingFields> | undefined;
  /** The whole list, replacing the current one: what is missing is removed, what is new added. */
  origins?: readonly string[] | undefined;
}

export async function updateProgram(db: Db, id: string, changes: ProgramChanges, now: number): Promise<ProgramWithOrigins> {
  const fields: programs.ProgramFields = {};
  if (changes.name !== undefined) {
    fields.name = changes.name.trim();
    if (!fields.name) throw fail('missing_field', 'program name must not be empty', { field: 'name' });
  }
  if (changes.siteUrl !== undefined) fields.site_url = parseSiteUrl(changes.siteUrl);
  if (changes.commissionRateBps !== undefined) fields.commission_rate_bps = parseRateBps(changes.commissionRateBps);
  if (changes.cookieDays !== undefined) fields.cookie_days = changes.cookieDays;
  if (changes.recurringMonths !== undefined) fields.recurring_months = changes.recurringMonths;
  if (changes.holdDays !== undefined) fields.hold_days = changes.holdDays;
  if (changes.minimumPayout !== undefined) fields.minimum_payout = minimumPayout(changes.minimumPayout)!;
  if (changes.slug !== undefined) fields.slug = changes.slug === null ? null : normalizeSlug(changes.slug);
  if (changes.description !== undefined) fields.description = changes.description.trim();
  if (changes.pageEnabled !== undefined) fields.page_enabled = changes.pageEnabled ? 1 : 0;
  if (changes.autoAccept !== undefined) fields.auto_accept = changes.autoAccept ? 1 : 0;
  if (changes.codeWins !== undefined) fields.code_wins = changes.codeWins ? 1 : 0;
  if (changes.partnerCodes !== undefined) fields.partner_codes = changes.partnerCodes ? 1 : 0;
  if (changes.codePrefix !== undefined) fields.code_prefix = changes.codePrefix.trim();
  if (changes.codeMaxLength !== undefined) fields.code_max_length = changes.codeMaxLength;
  if (changes.autoCodes !== undefined) fields.auto_codes = changes.autoCodes ? 1 : 0;
  if (changes.stripeApiKey !== undefined) fields.stripe_api_key = changes.stripeApiKey;
  if (changes.lemonSqueezyApiKey !== undefined) fields.lemonsqueezy_api_key = changes.lemonSqueezyApiKey;
  if (changes.locale !== undefined) fields.locale = changes.locale;
  Object.assign(fields, changes.billing);
  const wanted = changes.origins && [...new Set(changes.origins.map(parseOrigin))];
  if (wanted?.length === 0) {
    throw fail('invalid_field', 'a program needs at least one allowed origin, or the snippet can record nothing', {
      field: 'allowed_origins',
    });
  }
  return db.transaction(async (tx) => {
    const holder = fields.slug ? await programs.getBySlug(tx, fields.slug) : undefined;
    if (holder && holder.id !== id) throw fail('conflict', 'another program has this page address', { field: 'slug' });
    const current = await programs.get(tx, id);
    if (current && changes.reviewSignals !== undefined) {
      fields.review_signals = JSON.stringify({ ...(JSON.parse(current.review_signals) as object), ...changes.reviewSignals });
    }
    if ((fields.page_enabled ?? current?.page_enabled) === 1 && (fields.slug === undefined ? current?.slug : fields.slug) === null) {
      throw fail('invalid_field', 'the public page needs an address first: set slug', { field: 'slug' });
    }
    if (!(await programs.update(tx, id, fields, now))) throw fail('not_found', `no program ${id}`);
    if (fields.commission_rate_bps !== undefined || fields.recurring_months !== undefined) {
      // The program's rate and recurring limit are its default group's base sale reward.
      const updated = (await programs.get(tx, id))!;
      await rewards.setBase(tx, id, updated.commission_rate_bps, updated.recurring_months, now);
    }
    const before = await programs.origins(tx, id);
    const add = wanted ? wanted.filter((o) => !before.includes(o)) : [...new Set((changes.addOrigins ?? []).map(parseOrigin))];
    const remove = wanted ? before.filter((o) => !wanted.includes(o)) : [...new Set((changes.removeOrigins ?? []).map(parseOrigin))];
    const missing = remove.filter((o) => !before.includes(o));
    if (missing.length > 0) {
      throw fail(
        'invalid_field',
        `${missing.join(', ')} is not an allowed origin of this program (it has ${before.join(', ') || 'none'})`,
        {
          field: 'allowed_origins',
        },
      );
    }
    await programs.removeOrigins(tx, id, remove);
    await programs.addOrigins(tx, id, add);
    return { program: (await programs.get(tx, id))!, origins: await programs.origins(tx, id) };
  });
}

/** Whether browsers on `origin` may post this program's conversions and clicks. */
export const DEMO_TOKENS_KEPT = 8;

/**
 * The demo pages need a publishable token in their HTML, and tokens are stored only as
 * hashes. So each start issues a fresh one for the first program, and drops the oldest
 * beyond DEMO_TOKENS_KEPT, not all earlier ones: those may belong to processes still
 * running on the same database.
 */
export async function demoToken(db: Db, now: number): Promise<{ program: ProgramRow; token: string } | undefined> {
  const [program] = await programs.list(db);
  if (!program) return undefined;
  return db.transaction(async (tx) => {
    const issued = await issueToken(tx, program.id, 'publishable', now, 'demo');
    await tokens.pruneLabelled(tx, program.id, 'demo', DEMO_TOKENS_KEPT);
    return { program, token: issued.token };
  });
}
