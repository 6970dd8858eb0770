// Two-tier referrals' routes (docs/api.md §33, docs/two-tier.md): the program's settings for
// its owner, who recruited a partnership and whom it recruited, for the owner and (through the
// partner's own partnership, anything else a 404) for the partner in the portal.

import { z } from 'zod';
import { route } from '../../api/route.js';
import { rateBps, rules } from '../../api/fields.js';
import { one, resource, unixTime } from '../../platform/http/schemas.js';
import { getPartnership } from '../partnerships/service.js';
import { reachedPartnership } from '../../flows/portal.js';
import type { Person, RecruitView, TwoTierSettings } from './model.js';
import { recruitmentView, settingsOf, updateSettings } from './service.js';

const settingsSchema = resource('two_tier_settings', {
  enabled: z.boolean(),
  share_bps: z.number().int().meta({ description: "The recruiter's share of each of the recruit's commissions, in basis points" }),
  duration_months: z
    .number()
    .int()
    .nullable()
    .meta({ description: "Months from the recruit's application in which their commissions pay a share; null: forever" }),
  caps: z
    .record(z.string(), z.number().int())
    .meta({ description: 'Currency → the most one recruit pays their recruiter, in minor units' }),
});

const renderSettings = (programId: string, s: TwoTierSettings) => ({
  id: programId,
  type: 'two_tier_settings' as const,
  attributes: { enabled: s.enabled, share_bps: s.shareBps, duration_months: s.durationMonths, caps: s.caps },
});

const money = z.array(z.object({ currency: z.string(), amount: z.number().int() }));
const person = {
  name: z.string(),
  joined_at: unixTime.meta({ description: 'When the recruit applied through the link' }),
};
const recruitmentAttributes = (partnerIds: boolean) => ({
  recruited_by: z
    .object({ ...person, ...(partnerIds ? { partnership_id: z.string(), partner_id: z.string() } : {}) })
    .nullable()
    .meta({ description: 'Who recruited this partner, if anyone did' }),
  recruits: z
    .array(
      z.object({
        ...person,
        ...(partnerIds ? { partnership_id: z.string(), partner_id: z.string() } : {}),
        earned: money.meta({ description: "What the recruit's commissions paid this partner, net of clawbacks" }),
      }),
    )
    .meta({ description: 'Whom this partner recruited, oldest first' }),
  earned: money.meta({ description: 'Every second-tier commission of this partner, net of clawbacks, per currency' }),
});

const ownerSchema = resource('recruitment', recruitmentAttributes(true));
const portalSchema = resource('portal_recruitment', {
  ...recruitmentAttributes(false),
  link: z
    .string()
    .nullable()
    .meta({ description: "The partner's recruitment link: the program's page with ?via=their key; null without a page" }),
});

/** Every recruit's earnings added up per currency. */
function total(recruits: readonly RecruitView[]): { currency: string; amount: number }[] {
  const sums = new Map<string, number>();
  for (const r of recruits) for (const e of r.earned) sums.set(e.currency, (sums.get(e.currency) ?? 0) + e.amount);
  return [...sums].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currency, amount]) => ({ currency, amount }));
}

const named = (p: Person, ids: boolean) => ({
  name: p.name,
  joined_at: p.joined_at,
  ...(ids ? { partnership_id: p.partnership_id, partner_id: p.partner_id } : {}),
});

function renderRecruitment(view: Awaited<ReturnType<typeof recruitmentView>>, ids: boolean) {
  return {
    recruited_by: view.recruiter ? named(view.recruiter, ids) : null,
    recruits: view.recruits.map((r) => ({ ...named(r, ids), earned: r.earned })),
    earned: total(view.recruits),
  };
}

export const twoTierRoutes = [
  route({
    method: 'get',
    path: '/v1/program/two_tier',
    summary: "The program's two-tier referrals: on or off, the recruiter's share, for how long, and its caps",
    access: 'secret',
    status: 200,
    response: one(settingsSchema),
    async handle({ db, program }) {
      return { status: 200, body: { data: renderSettings(program.id, await settingsOf(db, program.id)) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/program/two_tier',
    summary: "Change the program's two-tier referrals; caps replaces the whole object",
    access: 'secret',
    role: 'owner',
    body: z.strictObject({
      enabled: z.boolean().optional(),
      share_bps: rateBps.min(1).optional(),
      duration_months: z.number().int().min(1).max(1200).nullable().optional(),
      caps: rules.minimum_payout.optional().meta({ description: 'Currency → the most one recruit pays their recruiter, in minor units' }),
    }),
    status: 200,
    response: one(settingsSchema),
    async handle({ db, program, body, now }) {
      const s = await updateSettings(
        db,
        program.id,
        {
          ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
          ...(body.share_bps !== undefined ? { shareBps: body.share_bps } : {}),
          ...(body.duration_months !== undefined ? { durationMonths: body.duration_months } : {}),
          ...(body.caps !== undefined ? { caps: body.caps } : {}),
        },
        now,
      );
      return { status: 200, body: { data: renderSettings(program.id, s) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/partnerships/:id/recruitment',
    summary: 'Who recruited the partnership, whom it recruited, and what its recruits paid it',
    access: 'secret',
    status: 200,
    response: one(ownerSchema),
    async handle({ db, program, params }) {
      const p = await getPartnership(db, program.id, params.id ?? '');
      const view = await recruitmentView(db, program.id, p.id);
      return { status: 200, body: { data: { id: p.id, type: 'recruitment', attributes: renderRecruitment(view, true) } } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/portal/partnerships/:id/recruitment',
    summary: "The partner's recruitment link, who recruited them, whom they recruited, and their second-tier earnings",
    access: 'partner',
    status: 200,
    response: one(portalSchema),
    async handle({ db, params, account, publicUrl }) {
      const p = await reachedPartnership(db, account!.id, params.id ?? '');
      const view = await recruitmentView(db, p.program_id, p.id);
      const on = (await settingsOf(db, p.program_id)).enabled && p.program_slug;
      const link = on ? `${publicUrl}/p/${p.program_slug}/?via=${encodeURIComponent(p.key)}` : null;
      return {
        status: 200,
        body: { data: { id: p.id, type: 'portal_recruitment', attributes: { ...renderRecruitment(view, false), link } } },
      };
    },
  }),
];
