// Leads' rules (docs/leads.md), in plain types: what a submission must hold, which company a
// lead's address names, which earlier record makes it a duplicate, and how its stage moves.

import { emailProblem, normalizeEmail } from '../../core/email.js';
import { uuidv7 } from '../../core/ids.js';
import { canMove } from '../../core/state-machines.js';
import { fail } from '../../platform/errors.js';
import type { LeadRow, LeadStage } from './model.js';

/** How far back an earlier lead makes a new one a duplicate (decision 0386): a quarter, a sales cycle's length. */
export const DUPLICATE_WINDOW_SECONDS = 90 * 86_400;

/**
 * Domains of free mailbox providers: an address there names a person, not a company, so two
 * leads at gmail.com are two people. A short list of the large ones (docs/leads.md); a
 * company on a provider missing from it is matched by its full address still.
 */
export const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'yahoo.com',
  'ymail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'web.de',
  'mail.com',
  'yandex.com',
  'yandex.ru',
  'mail.ru',
  'zoho.com',
  'qq.com',
  '163.com',
  'orange.fr',
  'free.fr',
  'laposte.net',
]);

/** The company domain of an address: its domain in lower case, without a leading www.; null for a free-mail one. */
export function companyDomain(emailNorm: string): string | null {
  const domain = emailNorm
    .slice(emailNorm.lastIndexOf('@') + 1)
    .toLowerCase()
    .replace(/^www\./, '');
  return FREE_MAIL_DOMAINS.has(domain) ? null : domain;
}

export interface LeadInput {
  name: string;
  email: string;
  company?: string | null | undefined;
  notes?: string | null | undefined;
}

/** A new lead of the partnership, in stage new; the address checked by the API's e-mail rules (docs/api.md §11). */
export function newLead(
  p: { program_id: string; partner_id: string; id: string },
  input: LeadInput,
  by: LeadRow['submitted_by'],
  now: number,
): LeadRow {
  const problem = emailProblem(input.email);
  if (problem) throw fail('invalid_email', problem, { field: 'email' });
  const email = input.email.trim();
  const emailNorm = normalizeEmail(email);
  return {
    id: uuidv7(now * 1000),
    program_id: p.program_id,
    partner_id: p.partner_id,
    partnership_id: p.id,
    name: input.name.trim(),
    email,
    email_norm: emailNorm,
    domain: companyDomain(emailNorm),
    company: input.company?.trim() || null,
    notes: input.notes?.trim() || null,
    stage: 'new',
    stage_set_at: now,
    lost_reason: null,
    referral_id: null,
    submitted_by: by,
    created_at: now,
    updated_at: now,
  };
}

export type DuplicateReason = 'lead_email' | 'lead_domain' | 'referral_email';

const SAYS: Record<DuplicateReason, string> = {
  lead_email: 'this person was already submitted as a lead of the program',
  lead_domain: "this person's company (by the domain of their address) was already submitted as a lead of the program",
  referral_email: 'this person is already a referral of the program',
};

/**
 * The refusal of a duplicate, with its reason in meta.reason; `tell` adds the id of the record
 * it duplicates, for the owner only: a partner learns why, never another partner's record.
 */
export function duplicate(reason: DuplicateReason, id: string, tell: boolean) {
  const meta: Record<string, unknown> = { reason };
  if (tell) meta[reason === 'referral_email' ? 'referral_id' : 'lead_id'] = id;
  return fail('duplicate_lead', SAYS[reason], { field: 'email', meta });
}

export interface StageChange {
  stage: LeadStage;
  lost_reason?: string | null | undefined;
}

/** The lead after a move its machine allows: lost takes a reason, and no other stage one. */
export function movedLead(row: LeadRow, change: StageChange, referralId: string | null, now: number): LeadRow {
  if (!canMove('lead', row.stage, change.stage)) {
    throw fail('invalid_transition', `a lead cannot move from ${row.stage} to ${change.stage}`, { field: 'stage' });
  }
  const reason = change.lost_reason?.trim() || null;
  if (change.stage === 'lost' && !reason) throw fail('missing_field', 'lost_reason is required to lose a lead', { field: 'lost_reason' });
  if (change.stage !== 'lost' && reason) throw fail('invalid_field', 'lost_reason goes with stage lost only', { field: 'lost_reason' });
  return {
    ...row,
    stage: change.stage,
    stage_set_at: Math.max(now, row.created_at),
    lost_reason: reason,
    referral_id: referralId ?? row.referral_id,
    updated_at: now,
  };
}
