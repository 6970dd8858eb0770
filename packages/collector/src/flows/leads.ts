// Submitted leads (docs/leads.md) across modules, one transaction each: a submission checks
// the program's referrals and earlier leads for the same person or company; winning a lead
// makes (or links) the referral its partner is credited with, through the one conversion
// path, so the referral's payments earn commissions as any referral's do.

import type { Db, Tx } from '../platform/db/db.js';
import { fail, found } from '../platform/errors.js';
import { normalizeEmail, sameMailboxAsAny } from '../core/email.js';
import { emit } from '../events/emit.js';
import type { LeadRow } from '../modules/leads/model.js';
import * as leads from '../modules/leads/repo.js';
import { renderLead } from '../modules/leads/present.js';
import { DUPLICATE_WINDOW_SECONDS, duplicate, type LeadInput, movedLead, newLead, type StageChange } from '../modules/leads/service.js';
import type { PartnershipRow } from '../modules/partnerships/model.js';
import { findPartnership, partnershipOfPartner } from '../modules/partnerships/service.js';
import { getPartner } from '../modules/partners/service.js';
import * as referrals from '../modules/referrals/repo.js';
import { convertIn } from './conversion.js';

type Submitter = Pick<PartnershipRow, 'id' | 'program_id' | 'partner_id' | 'state'>;

/**
 * A partner's lead, from the portal (`by` partner) or from the owner on their behalf. The
 * program's submissions take turns (a lock per program), so two at once for one person
 * cannot both pass the duplicate check.
 */
export async function submitLead(db: Db, p: Submitter, input: LeadInput, by: LeadRow['submitted_by'], now: number): Promise<LeadRow> {
  if (p.state !== 'accepted') throw fail('partnership_declined', 'a lead is submitted by an accepted partner only');
  const row = newLead(p, input, by, now);
  return db.transaction(async (tx) => {
    await tx.lock(`leads:${p.program_id}`);
    const tell = by === 'owner';
    // Their own address would be a self-referral once won: refused now, as a conversion would be.
    const partner = await getPartner(tx, p.program_id, p.partner_id);
    if (sameMailboxAsAny(row.email, [partner.email_norm, partner.paypal_email_norm])) {
      throw fail('self_referral', 'a partner cannot submit themself as a lead', { field: 'email' });
    }
    const referral = await referrals.findByEmail(tx, p.program_id, row.email_norm);
    if (referral) throw duplicate('referral_email', referral.id, tell);
    const earlier = await leads.earlierLead(tx, p.program_id, row.email_norm, row.domain, now - DUPLICATE_WINDOW_SECONDS);
    if (earlier) throw duplicate(earlier.email_norm === row.email_norm ? 'lead_email' : 'lead_domain', earlier.id, tell);
    await leads.insert(tx, row);
    await emit(tx, p.program_id, 'lead.created', renderLead(row), now);
    return row;
  });
}

/** The owner's submission for the program's partner named by `partner_id`. */
export async function submitLeadFor(db: Db, programId: string, partnerId: string, input: LeadInput, now: number): Promise<LeadRow> {
  const p = await partnershipOfPartner(db, programId, partnerId);
  if (!p) throw fail('unknown_partner', `no partner ${partnerId} in this program`, { field: 'partner_id' });
  return submitLead(db, p, input, 'owner', now);
}

/** The owner moves a lead: new → qualified → won or lost, or new → lost; won makes its referral. */
export async function moveLead(db: Db, programId: string, id: string, change: StageChange, now: number): Promise<LeadRow> {
  return db.transaction(async (tx) => {
    const row = found(await leads.get(tx, programId, id), 'lead', id);
    // Checked before the referral is made: a refused move makes nothing.
    movedLead(row, change, null, now);
    const referralId = change.stage === 'won' ? await referralOf(tx, row, now) : null;
    const after = movedLead(row, change, referralId, now);
    if (!(await leads.move(tx, row, row.stage, after))) {
      throw fail('invalid_transition', 'the lead changed stage meanwhile; read it again', { field: 'stage' });
    }
    await emit(tx, programId, 'lead.updated', renderLead(after), now);
    return after;
  });
}

/**
 * The referral a won lead stands for: the person's referral when it credits the lead's
 * partnership already (they signed up through the link meanwhile), else a new one credited
 * by the partnership's key. Another partner's referral of the person stands (the first
 * referral wins, docs/api.md §12): the lead cannot be won.
 */
async function referralOf(tx: Tx, lead: LeadRow, now: number): Promise<string> {
  const existing = await referrals.findByEmail(tx, lead.program_id, normalizeEmail(lead.email));
  if (existing) {
    if (existing.partnership_id === lead.partnership_id) return existing.id;
    throw fail('referral_exists', "this person is already another partner's referral, and the first referral stands", {
      field: 'stage',
      meta: { referral_id: existing.id },
    });
  }
  const p = found(await findPartnership(tx, lead.program_id, lead.partnership_id), 'partnership', lead.partnership_id);
  const { referral } = await convertIn(tx, lead.program_id, { email: lead.email, gr_id: `lead:${lead.id}`, pk: p.key }, now);
  return referral.id;
}
