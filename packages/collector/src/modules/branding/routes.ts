// A program's branding: the owner's settings (GET/PATCH /v1/program/branding), and the logo as
// a public image (what every page of the program shows, so no secret); the public page's
// answer carries the brand too (programs/page-routes.ts).

import { z } from 'zod';
import { route } from '../../api/route.js';
import { fail } from '../../platform/errors.js';
import { one } from '../../platform/http/schemas.js';
import { fileReply } from '../resources/http.js';
import { resourceFile } from '../resources/service.js';
import { renderBrand } from './present.js';
import { brandOf, updateBrand } from './service.js';

const hex = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'a colour as #rrggbb')
  .meta({ description: 'The accent as #rrggbb: links and buttons on light surfaces, so at least 4.5:1 against white (WCAG AA)' });
const host = z
  .string()
  .max(253)
  .regex(
    /^(?=.{1,253}\.?$)(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.?$/,
    'a host name such as partners.example.com',
  )
  .meta({
    description: "The program's own host name, served through the operator's reverse proxy (docs/self-hosting.md#a-programs-own-host-name)",
  });

const brandSchema = z.object({
  logo_id: z.string().nullable().meta({ description: 'The image resource shown as the logo; null: the name alone' }),
  logo_url: z.string().nullable().meta({ description: "The logo's public address under PUBLIC_URL" }),
  accent: z.string().nullable().meta({ description: "#rrggbb; null: the apps' own colour" }),
  host: z.string().nullable(),
});

const brandAnswer = (b: Parameters<typeof renderBrand>[0]) => ({
  data: { id: b.program_id, type: 'program_branding', attributes: renderBrand(b) },
});
const brandRecord = one(z.object({ id: z.string(), type: z.literal('program_branding'), attributes: brandSchema }));

export const brandingRoutes = [
  route({
    method: 'get',
    path: '/v1/program/branding',
    summary: "The program's logo, accent colour and own host name",
    access: 'secret',
    status: 200,
    response: brandRecord,
    async handle({ db, program }) {
      return { status: 200, body: brandAnswer(await brandOf(db, program.id)) };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/program/branding',
    summary:
      "Change the program's branding: an accent below WCAG AA is refused with its contrast ratio; a host taken by another program is a conflict",
    access: 'secret',
    body: z.strictObject({
      logo_id: z.string().max(64).nullable().optional(),
      accent: hex.nullable().optional(),
      host: host.nullable().optional(),
    }),
    status: 200,
    response: brandRecord,
    async handle({ db, program, body, now, publicUrl }) {
      const row = await db.transaction((tx) => updateBrand(tx, program.id, body, new URL(publicUrl).hostname, now));
      return { status: 200, body: brandAnswer(row) };
    },
  }),
  route({
    method: 'get',
    path: '/v1/public/brands/:program/logo',
    summary: "A program's logo, as the portal, its public page and the embed show it",
    access: 'public',
    query: z.object({
      v: z.string().max(64).optional().meta({ description: 'The logo id: a new logo is a new address, so this one is kept a day' }),
    }),
    status: 200,
    produces: 'application/octet-stream',
    async handle({ db, params, header }) {
      const programId = params.program ?? '';
      const { logo_id } = await brandOf(db, programId);
      if (logo_id === null) throw fail('not_found', `no logo for program ${programId}`);
      return fileReply(await resourceFile(db, programId, logo_id), {
        ifNoneMatch: header('if-none-match'),
        disposition: 'inline',
        cacheControl: 'public, max-age=86400',
      });
    },
  }),
];
