// How a lead is shown, by the API, the portal and the events that carry it: a pure function of the row.

import type { LeadPayload } from '../../events/types.js';
import { present } from '../../platform/resource.js';
import type { LeadRow } from './model.js';

export function renderLead(row: LeadRow): LeadPayload {
  return {
    id: row.id,
    type: 'lead',
    attributes: present({
      name: row.name,
      email: row.email,
      company: row.company,
      notes: row.notes,
      stage: row.stage,
      stage_set_at: row.stage_set_at,
      lost_reason: row.lost_reason,
      partner_id: row.partner_id,
      submitted_by: row.submitted_by,
      created_at: row.created_at,
      updated_at: row.updated_at,
    }),
    relationships: {
      partnership: { data: { id: row.partnership_id, type: 'partnership' } },
      referral: { data: row.referral_id ? { id: row.referral_id, type: 'referral' } : null },
    },
  };
}
