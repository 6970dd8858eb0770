// How a partnership is shown, by the API and in the events that carry it (docs/api.md §8, §28):
// a pure function of the row, so a webhook's record is the API's own.

import { present } from '../../platform/resource.js';
import type { ProgramRow } from '../programs/model.js';
import type { PartnershipRow } from './model.js';
import type { PartnershipPayload } from '../../events/types.js';

/** The program's site with `?red=<key>`, the parameter the snippet reads first. */
export function referralLink(siteUrl: string, key: string): string {
  const url = new URL(siteUrl);
  url.searchParams.set('red', key);
  return url.href;
}

export function renderPartnership(row: PartnershipRow, program: ProgramRow): PartnershipPayload {
  const rendered: PartnershipPayload = {
    id: row.id,
    type: 'partnership',
    attributes: present({
      state: row.state,
      key: row.key,
      competitor_slugs: JSON.parse(row.competitor_slugs) as string[],
      created_by: row.created_by,
      ...(row.application_note ? { application_note: row.application_note } : {}),
      ...(row.state === 'declined' && row.decline_reason ? { decline_reason: row.decline_reason } : {}),
      commission_rate_bps: row.commission_rate_bps,
      referral_link: referralLink(program.site_url, row.key),
      group_id: row.group_id,
      state_set_at: row.state_set_at,
      created_at: row.created_at,
      updated_at: row.updated_at,
    }),
    relationships: { partner: { data: { id: row.partner_id, type: 'partner' } } },
  };
  // Null, unlike the optional attributes present() leaves out: "as the program" is a value here.
  Object.assign(rendered.attributes, {
    recurring_months: row.recurring_months,
    hold_days: row.hold_days,
    minimum_payout: row.minimum_payout === null ? null : (JSON.parse(row.minimum_payout) as Record<string, number>),
  });
  return rendered;
}
