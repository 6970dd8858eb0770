// Visits through referral links, as the snippet reported them: read-only. `gr_id` is the
// visitor's pseudonymous id from the first-party cookie, never a person's address.

import { z } from 'zod';
import { dateTime, text } from '../../platform/http/list-query.js';
import { present, type Resource } from '../../platform/resource.js';
import { relation, resource, unixTime } from '../../platform/http/schemas.js';
import * as clicks from './repo.js';
import type { ClickRow } from './repo.js';
import { readRoutes } from '../../api/crud.js';

export const clickSchema = resource(
  'click',
  {
    gr_id: z.string(),
    key: z.string(),
    url: z.string().optional(),
    referrer: z.string().optional(),
    link_id: z.string().optional().meta({ description: "The partner's link it came through (absent: the partnership's own key)" }),
    created_at: unixTime,
    last_seen_at: unixTime,
  },
  { partnership: relation('partnership') },
);

export function renderClick(row: ClickRow): Resource {
  return {
    id: row.id,
    type: 'click',
    attributes: present({
      gr_id: row.gr_id,
      key: row.pk,
      url: row.url,
      referrer: row.referrer,
      link_id: row.link_id,
      created_at: row.created_at,
      last_seen_at: row.last_seen_at,
    }),
    relationships: { partnership: { data: { id: row.partnership_id, type: 'partnership' } } },
  };
}

export const clickRoutes = readRoutes({
  plural: 'clicks',
  type: 'click',
  get: clicks.get,
  list: clicks.list,
  render: renderClick,
  schema: clickSchema,
  filters: { partnership_id_eq: text, created_at_lt: dateTime, created_at_gt: dateTime },
});
