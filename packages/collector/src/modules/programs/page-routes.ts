// A program's public page (/p/<slug>/): its terms for anyone to read, and the application
// form behind it; and the owner's invitation of a partner to the portal.

import { z } from 'zod';
import { rulesFor } from '../../core/payout-terms.js';
import { enqueueMail } from '../mail/outbox.js';
import { apply, invitePartner, partnerLinkPath, partnerToInvite, publicProgram } from '../../flows/portal.js';
import { uuidv7 } from '../../core/ids.js';
import { LOCALES, localeOf } from '../../core/locale.js';
import { PASSWORD_MAX } from '../identity/passwords.js';
import { route } from '../../api/route.js';
import { one, resource } from '../../platform/http/schemas.js';
import { email, rulesOut } from '../../api/fields.js';
import { renderRules } from './present.js';
import { groupsTakingApplications } from '../rewards/service.js';
import { rewardTermsOut } from '../rewards/schemas.js';
import { brandOf } from '../branding/service.js';
import { renderBrand } from '../branding/present.js';

const pageSchema = resource('program_page', {
  name: z.string(),
  description: z.string(),
  site_url: z.string(),
  commission_rate_bps: z.number().int(),
  ...rulesOut,
  auto_accept: z.boolean(),
  locale: z.enum(LOCALES).meta({ description: "The program's default language: the page's when the browser asks for none of ours" }),
  brand: z
    .object({ logo_url: z.string().nullable(), accent: z.string().nullable() })
    .meta({ description: "The program's logo and accent colour (docs/branding.md), shown in Tally's place" }),
  groups: z
    .array(
      z.object({
        slug: z.string(),
        name: z.string(),
        rewards: z.array(z.string()).meta({ description: 'Each reward in English words' }),
        terms: z.array(rewardTermsOut).meta({ description: 'Each reward as its terms, which the page says in its own language' }),
        auto_accept: z.boolean(),
      }),
    )
    .meta({ description: 'The partner groups that take applications, each with its rewards in words; apply to one with `group`' }),
});

const applicationSchema = resource('application', { state: z.enum(['pending', 'accepted']) });

export const programPageRoutes = [
  route({
    method: 'get',
    path: '/v1/public/programs/:slug',
    summary: "A program's public page: its name, description and commission terms (404 while the page is off)",
    access: 'public',
    status: 200,
    response: one(pageSchema),
    async handle({ db, params }) {
      const program = await publicProgram(db, params.slug ?? '');
      const groups = await groupsTakingApplications(db, program);
      const { logo_url, accent } = renderBrand(await brandOf(db, program.id));
      return {
        status: 200,
        body: {
          data: {
            id: program.slug,
            type: 'program_page',
            attributes: {
              name: program.name,
              description: program.description,
              site_url: program.site_url,
              commission_rate_bps: program.commission_rate_bps,
              ...renderRules(rulesFor(program)),
              auto_accept: program.auto_accept === 1,
              locale: localeOf(program.locale) ?? 'en',
              brand: { logo_url, accent },
              groups: groups.map((g) => ({ slug: g.slug, name: g.name, rewards: g.rewards, terms: g.terms, auto_accept: g.autoAccept })),
            },
          },
        },
      };
    },
  }),
  route({
    method: 'post',
    path: '/v1/public/programs/:slug/applications',
    summary: "Apply to a program from its page: makes the partner's account and a pending partnership, and signs them in to the portal",
    access: 'public',
    checksPassword: true,
    applicationLimit: true,
    body: z.strictObject({
      name: z.string().trim().min(1).max(200),
      email: z.string().max(320),
      password: z.string().max(PASSWORD_MAX),
      paypal_email: email.nullable().optional(),
      note: z.string().max(2000).nullable().optional(),
      group: z
        .string()
        .min(1)
        .max(64)
        .optional()
        .meta({ description: "The slug of the group applied to, from its own page; the program's default group when absent" }),
      via: z.string().min(1).max(64).optional().meta({
        description:
          'The key of the partner whose recruitment link brought the applicant (?via= on the page): their recruiter, where the program runs two-tier referrals',
      }),
      // The honeypot: a field people never see, so only a robot fills it in.
      website: z.string().max(2000).optional().meta({ description: 'Leave empty (a field for robots)' }),
    }),
    status: 201,
    response: one(applicationSchema),
    async handle({ db, params, body, now }) {
      if (body.website) {
        // A robot: told what a person is told, and nothing is kept.
        await publicProgram(db, params.slug ?? '');
        return { status: 201, body: { data: { id: uuidv7(), type: 'application', attributes: { state: 'pending' } } } };
      }
      const { partnership, signedIn } = await apply(db, params.slug ?? '', body, now);
      return {
        status: 201,
        ...(signedIn ? { partnerSession: { token: signedIn.token } } : {}),
        body: { data: { id: partnership.id, type: 'application', attributes: { state: partnership.state } } },
      };
    },
  }),
  route({
    method: 'post',
    path: '/v1/partners/:id/invitation',
    summary: 'Invite the partner to the portal: a one-time link to set a password (24 h), e-mailed when SMTP is configured',
    access: 'secret',
    status: 201,
    response: z.object({
      meta: z.object({
        link: z.string().nullable().meta({ description: 'Only when it was not e-mailed: hand it over yourself' }),
        emailed: z.boolean(),
      }),
    }),
    async handle({ db, program, params, now, publicUrl, outbox }) {
      const partnerId = params.id ?? '';
      // E-mailed, the link goes to the partner alone: the owner never holds a way into their account.
      if (outbox) {
        await db.transaction(async (tx) => {
          await partnerToInvite(tx, program.id, partnerId);
          await enqueueMail(tx, 'partner_invitation', partnerId, program.id, now);
        });
        outbox.kick();
        return { status: 201, body: { meta: { link: null, emailed: true } } };
      }
      const { token } = await db.transaction((tx) => invitePartner(tx, program.id, partnerId, now));
      return { status: 201, body: { meta: { link: publicUrl + partnerLinkPath(token), emailed: false } } };
    },
  }),
];
