// Issue 42: a move rule's currency was stored as the request wrote it, so a rule on "jpy"
// never met the totals, which are kept in upper case. The API now upper-cases it (api/fields.ts);
// this upper-cases the rules stored before. Codes are ASCII letters (the API refused others),
// so the engines' upper() gives what the API would.

import type { Migration } from './migration.js';

const migration: Migration = {
  sqlite: `
    UPDATE partner_groups SET move_rules = (
      SELECT json_group_array(
        CASE WHEN json_type(r.value, '$.currency') = 'text'
          THEN json_set(r.value, '$.currency', upper(json_extract(r.value, '$.currency')))
          ELSE json(r.value) END
        ORDER BY r.key)
      FROM json_each(partner_groups.move_rules) r)
    WHERE EXISTS (
      SELECT 1 FROM json_each(partner_groups.move_rules) r
      WHERE json_type(r.value, '$.currency') = 'text'
        AND json_extract(r.value, '$.currency') <> upper(json_extract(r.value, '$.currency')))`,
  postgres: `
    UPDATE partner_groups SET move_rules = (
      SELECT json_agg(
        CASE WHEN jsonb_typeof(e -> 'currency') = 'string'
          THEN jsonb_set(e, '{currency}', to_jsonb(upper(e ->> 'currency')))
          ELSE e END
        ORDER BY i)::text
      FROM jsonb_array_elements(partner_groups.move_rules::jsonb) WITH ORDINALITY AS t(e, i))
    WHERE EXISTS (
      SELECT 1 FROM jsonb_array_elements(partner_groups.move_rules::jsonb) AS e
      WHERE jsonb_typeof(e -> 'currency') = 'string' AND e ->> 'currency' <> upper(e ->> 'currency'))`,
};

export default migration;
