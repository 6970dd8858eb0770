// Partners' links through the API (docs/links.md): the owner's reads, links, approvals and
// rules; the partner's own links under one of their partnerships (another's is a 404); the
// QR codes of both; and the short address a QR code holds, which redirects to the link.

import { z } from 'zod';
import { readRoutes } from '../../api/crud.js';
import { route, type Reply, type RouteInput } from '../../api/route.js';
import { reachedPartnership } from '../../flows/portal.js';
import type { Queryable } from '../../platform/db/db.js';
import { fail, found } from '../../platform/errors.js';
import { dateTime, oneOf, text } from '../../platform/http/list-query.js';
import { listEnvelope } from '../../platform/http/render.js';
import { one, page } from '../../platform/http/schemas.js';
import type { AccountRow, ReachedPartnership } from '../portal/repo.js';
import { KEY_CHARACTERS, LINK_STATUSES, type LinkRow } from './model.js';
import { renderLink, renderLinkSettings } from './present.js';
import { qrPng, qrSvg } from './qr.js';
import * as links from './repo.js';
import { linkBody, linkSchema, linkSettingsSchema, linkStatsSchema, utm } from './schemas.js';
import { activeLink, createLink, followedUrl, linkStats, setLinkStatus, settingsOf, shortUrl, updateSettings } from './service.js';

/** The link with its addresses, as both the owner and the partner see it. */
const shown = (row: LinkRow, publicUrl: string) => renderLink(row, { url: followedUrl(row), short_url: shortUrl(publicUrl, row) });

const qrReply = async (row: LinkRow, publicUrl: string, format: 'svg' | 'png'): Promise<Reply> => {
  const text = shortUrl(publicUrl, row);
  const headers = {
    'Content-Type': format === 'svg' ? 'image/svg+xml' : 'image/png',
    'Content-Disposition': `attachment; filename="${row.key}.${format}"`,
    // A link's short address never changes: the image may be kept.
    'Cache-Control': 'private, max-age=86400',
  };
  return { status: 200, headers, body: format === 'svg' ? await qrSvg(text) : await qrPng(text) };
};

const statsReply = async (db: Queryable, row: LinkRow): Promise<Reply> => ({
  status: 200,
  body: { data: { id: row.id, type: 'link_stats', attributes: await linkStats(db, row) } },
});

/** The owner's link by the path's :id. */
const ownersLink = async (input: RouteInput<unknown>) =>
  found(await links.get(input.db, input.program.id, input.params.id ?? ''), 'link', input.params.id ?? '');

/** The signed-in partner's partnership (:id) and, under it, their link (:link_id). */
const reached = (input: RouteInput<unknown>): Promise<ReachedPartnership> =>
  reachedPartnership(input.db, (input.account as AccountRow).id, input.params.id ?? '');

async function partnersLink(input: RouteInput<unknown>): Promise<LinkRow> {
  const p = await reached(input);
  const row = await links.get(input.db, p.program_id, input.params.link_id ?? '');
  if (row?.partnership_id !== p.id) throw fail('not_found', `no link ${input.params.link_id ?? ''}`);
  return row;
}

const qrRoutes = (path: string, access: 'secret' | 'partner', find: (input: RouteInput<unknown>) => Promise<LinkRow>) =>
  (['svg', 'png'] as const).map((format) =>
    route({
      method: 'get',
      path: `${path}/qr.${format}`,
      summary: `The link's QR code as ${format.toUpperCase()}: its short address, the same image at every download`,
      access,
      status: 200,
      produces: format === 'svg' ? 'image/svg+xml' : 'image/png',
      async handle(input) {
        return qrReply(await find(input), input.publicUrl, format);
      },
    }),
  );

const settingsBody = z.strictObject({
  utm: utm.optional(),
  custom_keys: z.boolean().optional(),
  key_min_length: z.number().int().min(2).max(64).optional(),
  key_max_length: z.number().int().min(2).max(64).optional(),
  key_characters: z.enum(KEY_CHARACTERS).optional(),
  reserved_keys: z.array(z.string().trim().min(1).max(64)).max(500).optional(),
  approval_required: z.boolean().optional(),
});

const ownerRoutes = [
  ...readRoutes({
    plural: 'links',
    type: 'link',
    get: links.get,
    list: links.list,
    render: (row, input) => shown(row, input.publicUrl),
    schema: linkSchema,
    filters: { partnership_id_eq: text, status_eq: oneOf(LINK_STATUSES), created_at_lt: dateTime, created_at_gt: dateTime },
  }),
  route({
    method: 'post',
    path: '/v1/links',
    summary: "Give a partnership a link to a page of the program's allowed origins, active at once",
    access: 'secret',
    body: linkBody.extend({ partnership_id: z.string().min(1).max(64) }),
    status: 201,
    response: one(linkSchema),
    async handle({ db, program, body, now, publicUrl }) {
      const { partnership_id, ...input } = body;
      const row = await db.transaction((tx) => createLink(tx, program.id, partnership_id, input, 'company', now));
      return { status: 201, headers: { Location: `/v1/links/${row.id}` }, body: { data: shown(row, publicUrl) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/links/:id',
    summary: 'Approve a waiting link (active), disable one (its key credits nothing more) or enable it again',
    access: 'secret',
    body: z.strictObject({ status: z.enum(['active', 'disabled']) }),
    status: 200,
    response: one(linkSchema),
    async handle({ db, program, params, body, now, publicUrl }) {
      const row = await db.transaction((tx) => setLinkStatus(tx, program.id, params.id ?? '', body.status, now));
      return { status: 200, body: { data: shown(row, publicUrl) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/links/:id/stats',
    summary: "The link's clicks, the referrals it brought and those that paid",
    access: 'secret',
    status: 200,
    response: one(linkStatsSchema),
    async handle(input) {
      return statsReply(input.db, await ownersLink(input));
    },
  }),
  ...qrRoutes('/v1/links/:id', 'secret', ownersLink),
  route({
    method: 'get',
    path: '/v1/link_settings',
    summary: "The program's rules for partners' links: the UTM template, chosen keys, approval",
    access: 'secret',
    status: 200,
    response: one(linkSettingsSchema),
    async handle({ db, program, now }) {
      return { status: 200, body: { data: renderLinkSettings(await settingsOf(db, program.id, now)) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/link_settings',
    summary: "Change the rules for partners' links (links already made keep their key and UTM parameters)",
    access: 'secret',
    body: settingsBody,
    status: 200,
    response: one(linkSettingsSchema),
    async handle({ db, program, body, now }) {
      const row = await db.transaction((tx) => updateSettings(tx, program.id, body, now));
      return { status: 200, body: { data: renderLinkSettings(row) } };
    },
  }),
];

const under = (path: string) => `/v1/portal/partnerships/:id${path}`;

const portalRoutes = [
  route({
    method: 'get',
    path: under('/links'),
    summary: "The partnership's links, newest first (its own key's link is the partnership's key)",
    access: 'partner',
    list: { status_eq: oneOf(LINK_STATUSES), created_at_lt: dateTime, created_at_gt: dateTime },
    status: 200,
    response: page(linkSchema),
    async handle(input) {
      const p = await reached(input);
      const filters = [...input.list.filters, { field: 'partnership_id', op: 'eq' as const, value: p.id }];
      const rows = await links.list(input.db, p.program_id, filters, input.list.page);
      return { status: 200, body: listEnvelope(rows, input.list.page, (row) => shown(row, input.publicUrl)) };
    },
  }),
  route({
    method: 'post',
    path: under('/links'),
    summary: "Make a link to a page of the program's site, with a key of your choosing where the program allows",
    access: 'partner',
    body: linkBody,
    status: 201,
    response: one(linkSchema),
    async handle(input) {
      const p = await reached(input);
      if (p.state !== 'accepted') throw fail('invalid_transition', 'a link is for an accepted partnership');
      const row = await input.db.transaction((tx) => createLink(tx, p.program_id, p.id, input.body, 'partner', input.now));
      return { status: 201, body: { data: shown(row, input.publicUrl) } };
    },
  }),
  route({
    method: 'get',
    path: under('/link_settings'),
    summary: "The program's rules for the keys of your links",
    access: 'partner',
    status: 200,
    response: one(linkSettingsSchema),
    async handle(input) {
      const p = await reached(input);
      return { status: 200, body: { data: renderLinkSettings(await settingsOf(input.db, p.program_id, input.now)) } };
    },
  }),
  route({
    method: 'get',
    path: under('/links/:link_id/stats'),
    summary: "One of your links' clicks, referrals and those that paid",
    access: 'partner',
    status: 200,
    response: one(linkStatsSchema),
    async handle(input) {
      return statsReply(input.db, await partnersLink(input));
    },
  }),
  ...qrRoutes(under('/links/:link_id'), 'partner', partnersLink),
];

export const linkRoutes = [
  ...ownerRoutes,
  ...portalRoutes,
  route({
    method: 'get',
    path: '/v1/go/:program_id/:key',
    summary: "A link's short address (its QR code's): redirects to its page with ?red=<key> and its UTM parameters",
    access: 'public',
    status: 302,
    async handle({ db, params }) {
      const row = await activeLink(db, params.program_id ?? '', params.key ?? '');
      return { status: 302, headers: { Location: followedUrl(row), 'Cache-Control': 'no-store' } };
    },
  }),
];
