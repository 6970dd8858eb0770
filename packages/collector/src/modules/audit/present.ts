// An audit entry as the API shows it, and as a CSV row (the dashboard's and the API's download).

import { present, type Resource } from '../../platform/resource.js';
import type { AuditRow } from './model.js';

const parsed = (json: string | null): unknown => (json === null ? null : JSON.parse(json));

export function renderEntry(row: AuditRow): Resource {
  return {
    id: row.id,
    type: 'audit_event',
    attributes: present({
      actor_kind: row.actor_kind,
      actor_id: row.actor_id,
      actor_label: row.actor_label,
      action: row.action,
      target_type: row.target_type,
      target_id: row.target_id,
      before: parsed(row.before_data),
      after: parsed(row.after_data),
      ip: row.ip,
      user_agent: row.user_agent,
      request_id: row.request_id,
      created_at: row.created_at,
      erased_at: row.erased_at,
    }),
  };
}

export const CSV_HEADER = [
  'id',
  'created_at',
  'actor_kind',
  'actor_id',
  'actor_label',
  'action',
  'target_type',
  'target_id',
  'ip',
  'user_agent',
  'request_id',
  'before',
  'after',
] as const;

/** One row of the CSV export: times in UTC (ISO 8601), snapshots as their JSON. */
export function csvRow(row: AuditRow): string[] {
  return [
    row.id,
    new Date(row.created_at * 1000).toISOString(),
    row.actor_kind,
    row.actor_id ?? '',
    row.actor_label ?? '',
    row.action,
    row.target_type,
    row.target_id ?? '',
    row.ip ?? '',
    row.user_agent ?? '',
    row.request_id ?? '',
    row.before_data ?? '',
    row.after_data ?? '',
  ];
}
