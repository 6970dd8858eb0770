// The embedded portal's API (docs/embed.md): the company's server mints an embed token with
// a secret token; the embedded page trades it for a session and reads, with that bearer
// session, only what the embed shows: the partnership (link, codes' rules, group, earnings
// as the portal shows them), its figures, its codes, and the payout settings.

import { z } from 'zod';
import { email, partnerName } from '../../api/fields.js';
import { route } from '../../api/route.js';
import { LOCALES } from '../../core/locale.js';
import { dateTime } from '../../platform/http/list-query.js';
import { listEnvelope } from '../../platform/http/render.js';
import { one, page, relation, resource, unixTime } from '../../platform/http/schemas.js';
import { renderCode } from '../codes/present.js';
import { codeSchema } from '../codes/schemas.js';
import { renderPartnership } from '../../flows/portal-present.js';
import { partnershipSchema } from '../portal/schemas.js';
import { partnerCodes } from '../../flows/portal.js';
import type { PartnerRow } from '../partners/repo.js';
import { statsSeries } from '../stats/service.js';
import { seriesAnswer, seriesQuery, seriesSchema } from '../stats/schemas.js';
import type { EmbedSessionRow } from './repo.js';
import {
  EMBED_SESSION_SECONDS,
  EMBED_TOKEN_SECONDS,
  embeddedPartner,
  embeddedPartnership,
  mintEmbedToken,
  openSession,
  updatePayoutSettings,
} from '../../flows/embed.js';

const embedTokenSchema = resource(
  'embed_token',
  {
    token: z.string().meta({ description: `Shown once; works once, for ${EMBED_TOKEN_SECONDS / 60} minutes` }),
    expires_at: unixTime,
    url: z.string().meta({ description: 'The page to show in an iframe: PUBLIC_URL/embed/?token=…' }),
  },
  { partner: relation('partner'), partnership: relation('partnership') },
);

const sessionSchema = resource('embed_session', {
  token: z.string().meta({ description: `The bearer token of the embed's routes, for ${EMBED_SESSION_SECONDS / 3600} hours` }),
  expires_at: unixTime,
});

const accountSchema = resource('embed_account', {
  name: z.string(),
  email: z.string(),
  paypal_email: z.string().nullable(),
  locale: z.enum(LOCALES).nullable().meta({ description: "The partner's language; null: the browser's, else the program's" }),
});

const renderAccount = (p: PartnerRow) => ({
  data: {
    id: p.id,
    type: 'embed_account',
    attributes: { name: p.name, email: p.email, paypal_email: p.paypal_email, locale: p.locale },
  },
});

/** Embed routes always have a session. */
const sessionOf = (input: { embed: EmbedSessionRow | undefined }): EmbedSessionRow => input.embed as EmbedSessionRow;

export const embedRoutes = [
  route({
    method: 'post',
    path: '/v1/embed_tokens',
    summary:
      'A one-time token to embed the partner portal for one of your users (made a partner, with an accepted partnership, the first time)',
    access: 'secret',
    body: z.strictObject({
      user_id: z.string().trim().min(1).max(200).meta({ description: "The user's id in your own app: the same id finds the same partner" }),
      name: partnerName,
      email,
      group_id: z.string().max(64).optional().meta({ description: "A new partnership's group; the program's default group when absent" }),
    }),
    status: 201,
    response: one(embedTokenSchema),
    async handle({ db, program, body, now, publicUrl }) {
      const made = await mintEmbedToken(db, program, body, now);
      const url = `${publicUrl.replace(/\/$/, '')}/embed/?token=${encodeURIComponent(made.token)}`;
      return {
        status: 201,
        body: {
          data: {
            id: made.id,
            type: 'embed_token',
            attributes: { token: made.token, expires_at: made.expires_at, url },
            relationships: {
              partner: { data: { id: made.partner_id, type: 'partner' } },
              partnership: { data: { id: made.partnership_id, type: 'partnership' } },
            },
          },
        },
      };
    },
  }),
  route({
    method: 'post',
    path: '/v1/embed/sessions',
    summary: "Trade an embed token, once, for the embedded page's session (a bearer token it keeps in memory)",
    access: 'public',
    tradesToken: true,
    body: z.strictObject({ token: z.string().min(1).max(200) }),
    status: 201,
    response: one(sessionSchema),
    async handle({ db, body, now }) {
      const s = await openSession(db, body.token, now);
      return { status: 201, body: { data: { id: s.id, type: 'embed_session', attributes: { token: s.token, expires_at: s.expires_at } } } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/embed/partnership',
    summary: "The embedded partner's partnership: state, link, group, earnings and the next payout, as the portal shows it",
    access: 'embed',
    status: 200,
    response: one(partnershipSchema),
    async handle(input) {
      return { status: 200, body: { data: renderPartnership(await embeddedPartnership(input.db, sessionOf(input), input.now)) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/embed/stats',
    summary: "The embedded partner's clicks, referrals, paying customers and commissions per day, week or month",
    access: 'embed',
    query: seriesQuery,
    status: 200,
    response: seriesSchema,
    async handle(input) {
      const s = sessionOf(input);
      return { status: 200, body: seriesAnswer(await statsSeries(input.db, s.program_id, { ...input.query, partnerId: s.partner_id })) };
    },
  }),
  route({
    method: 'get',
    path: '/v1/embed/codes',
    summary: "The embedded partner's promotion codes",
    access: 'embed',
    list: { created_at_lt: dateTime, created_at_gt: dateTime },
    status: 200,
    response: page(codeSchema),
    async handle(input) {
      const codes = await partnerCodes(input.db, sessionOf(input), input.list.filters, input.list.page);
      return { status: 200, body: listEnvelope(codes, input.list.page, renderCode) };
    },
  }),
  route({
    method: 'get',
    path: '/v1/embed/account',
    summary: "The embedded partner's payout settings: name, e-mail, PayPal address and language",
    access: 'embed',
    status: 200,
    response: one(accountSchema),
    async handle(input) {
      return { status: 200, body: renderAccount(await embeddedPartner(input.db, sessionOf(input))) };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/embed/account',
    summary:
      "Change the PayPal address the partner is paid at (another than their own e-mail pays once the link e-mailed to it is used), or their language (this program's record only)",
    access: 'embed',
    body: z.strictObject({
      paypal_email: email.nullable().optional(),
      locale: z.enum(LOCALES).nullable().optional().meta({ description: "en, de, fr or es; null: the browser's, else the program's" }),
    }),
    status: 200,
    response: one(accountSchema),
    async handle(input) {
      const partner = await updatePayoutSettings(input.db, sessionOf(input), input.body, input, input.now);
      input.outbox?.kick();
      return { status: 200, body: renderAccount(partner) };
    },
  }),
];
