// The audit log's routes (docs/audit.md): a page of entries, one entry, and the CSV of a
// filtered list. Reads only: no route changes or deletes an entry. The team's owners and
// admins and the program's secret tokens read it; a viewer does not.

import { z } from 'zod';
import { route, type RouteInput } from '../../api/route.js';
import { fail, found } from '../../platform/errors.js';
import { formatCsv } from '../../platform/csv.js';
import { dateTime, oneOf, text } from '../../platform/http/list-query.js';
import { listEnvelope } from '../../platform/http/render.js';
import { one, page, resource, unixTime } from '../../platform/http/schemas.js';
import { ACTOR_KINDS, type AuditRow } from './model.js';
import { CSV_HEADER, csvRow, renderEntry } from './present.js';
import { getEntry, listEntries } from './service.js';

export const auditSchema = resource('audit_event', {
  actor_kind: z.enum(ACTOR_KINDS),
  actor_id: z.string().optional(),
  actor_label: z.string().optional().meta({ description: "The user's or partner's e-mail, or the token's label; absent once erased" }),
  action: z.string().meta({ description: '`<target type>.<verb>`: partner.update, payout_run.approve' }),
  target_type: z.string(),
  target_id: z.string().optional(),
  before: z.unknown().optional().meta({ description: 'The target as its read route showed it before the change, secrets redacted' }),
  after: z.unknown().optional().meta({ description: 'The target after the change, secrets redacted' }),
  ip: z.string().optional(),
  user_agent: z.string().optional(),
  request_id: z.string().optional(),
  created_at: unixTime,
  erased_at: unixTime.optional().meta({ description: 'When erasure dropped the personal data of the entry' }),
});

const filters = {
  actor_id_eq: text,
  action_eq: text,
  target_type_eq: text,
  target_id_eq: text,
  actor_kind_eq: oneOf(ACTOR_KINDS),
  created_at_gt: dateTime,
  created_at_lt: dateTime,
};

/** Rows the CSV holds at most: a longer log is downloaded in ranges of created_at. */
export const CSV_ROWS_MAX = 10_000;

/** The log shows who did what: the owners' and admins' to read, not a viewer's. */
function notViewer(input: RouteInput<unknown>): void {
  if (input.role === 'viewer') throw fail('forbidden', 'the audit log is for owners and admins; ask an owner for another role');
}

export const auditRoutes = [
  route({
    method: 'get',
    path: '/v1/audit_events',
    summary: 'List the audit log: every change made by a person or a token, newest first',
    access: 'secret',
    list: filters,
    status: 200,
    response: page(auditSchema),
    async handle(input) {
      notViewer(input);
      const rows = await listEntries(input.db, input.program.id, input.list.filters, input.list.page);
      return { status: 200, body: listEnvelope(rows, input.list.page, renderEntry) };
    },
  }),
  route({
    method: 'get',
    path: '/v1/audit_events.csv',
    summary: 'The audit log as CSV, filtered as the list is, newest first, up to 10,000 entries',
    access: 'secret',
    list: filters,
    status: 200,
    produces: 'text/csv',
    async handle(input) {
      notViewer(input);
      const rows: AuditRow[] = [];
      let after: string | undefined;
      for (;;) {
        const got = await listEntries(input.db, input.program.id, input.list.filters, { page: 1, perPage: 500, after });
        rows.push(...got.rows);
        if (!got.hasMore || rows.length >= CSV_ROWS_MAX) break;
        after = got.rows.at(-1)?.id;
      }
      return {
        status: 200,
        headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="tally-audit-log.csv"' },
        body: formatCsv([[...CSV_HEADER], ...rows.slice(0, CSV_ROWS_MAX).map(csvRow)], '\r\n'),
      };
    },
  }),
  route({
    method: 'get',
    path: '/v1/audit_events/:id',
    summary: 'Fetch one audit log entry',
    access: 'secret',
    status: 200,
    response: one(auditSchema),
    async handle(input) {
      notViewer(input);
      const id = input.params.id ?? '';
      return { status: 200, body: { data: renderEntry(found(await getEntry(input.db, input.program.id, id), 'audit_event', id)) } };
    },
  }),
];
