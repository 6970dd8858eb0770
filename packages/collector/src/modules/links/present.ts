// A link and the program's link rules as the API and the events show them.

import { present, type Resource } from '../../platform/resource.js';
import type { LinkRow, LinkSettingsRow, Utm } from './model.js';

/** The link; `urls` (its full and short addresses) where the caller knows the collector's address. */
export function renderLink(row: LinkRow, urls?: { url: string; short_url: string }) {
  return {
    id: row.id,
    type: 'link',
    attributes: present({
      key: row.key,
      destination: row.destination,
      utm: JSON.parse(row.utm) as Utm,
      status: row.status,
      created_by: row.created_by,
      ...urls,
      created_at: row.created_at,
      updated_at: row.updated_at,
    }),
    relationships: { partnership: { data: { id: row.partnership_id, type: 'partnership' } } },
  };
}

export function renderLinkSettings(row: LinkSettingsRow): Resource {
  return {
    id: row.program_id,
    type: 'link_settings',
    attributes: {
      utm: JSON.parse(row.utm) as Utm,
      custom_keys: row.custom_keys === 1,
      key_min_length: row.key_min_length,
      key_max_length: row.key_max_length,
      key_characters: row.key_characters,
      reserved_keys: JSON.parse(row.reserved_keys) as string[],
      approval_required: row.approval_required === 1,
    },
  };
}
