import { z } from 'zod';
import { clickFlood, recordClick } from '../../flows/click.js';
import { recordConversion } from '../../flows/conversion.js';
import { registrableDomain } from '../clicks/registrable-domain.js';
import { ServiceError, fail, type ErrorCode } from '../../platform/errors.js';
import { route } from '../../api/route.js';
import { countryCode, email, metadata, optionalText } from '../../api/fields.js';
import { referralSchema } from './schemas.js';
import { one } from '../../platform/http/schemas.js';
import { renderReferral } from './present.js';
import { discountOfGroup } from '../codes/service.js';
import { discountTerms } from '../codes/present.js';
import { linkDiscount } from '../codes/schemas.js';

// Unknown body fields are ignored (zod strips them): an older collector must never lose
// a conversion sent by a newer snippet.
const conversionBody = z.object({
  email,
  gr_id: z.string().min(1).max(128),
  pk: optionalText(128),
  uid: optionalText(255),
  discount_code: optionalText(64),
  customer_country: countryCode.nullish().meta({
    description: "The customer's country, ISO 3166 alpha-2, for lead rewards with conditions on it; read from a secret token only",
  }),
  metadata: metadata
    .nullish()
    .meta({ description: 'Key-value pairs, for lead rewards with conditions on them; read from a secret token only; not stored' }),
});

// A publishable token is in every page of the company's site, so anyone has it. Its answer
// must not tell whether a person is already a referred customer (409 with the referral's
// id, whose UUIDv7 even dates the sign-up) or a partner (self-referral): every refusal
// that depends on who the person is sounds the same to it. A declined partnership too:
// the person is looked up before the link, so "declined" would mean "not a customer yet"
// (the click still says a link is declined, which is about the link alone). Secret tokens, on the company's servers,
// keep the precise answers.
const UNTOLD: ReadonlySet<ErrorCode> = new Set(['referral_exists', 'unattributed', 'self_referral', 'partnership_declined']);

function discreet(err: unknown): unknown {
  if (err instanceof ServiceError && UNTOLD.has(err.code)) {
    return fail('unattributed', 'no referral was recorded for this conversion');
  }
  return err;
}

const clickBody = z.object({
  gr_id: z.string().min(1).max(128),
  pk: z.string().min(1).max(128),
  url: optionalText(2048),
  referrer: optionalText(2048),
});

export const trackingRoutes = [
  route({
    method: 'post',
    path: '/v1/tracking/conversion',
    summary: 'Record a conversion: a referred person signed up. A retry answers 200 with the same record',
    access: 'publishable',
    body: conversionBody,
    status: 201,
    response: one(referralSchema),
    async handle({ db, program, caller, client, header, body, now }) {
      // Review's evidence of a conversion the public sent: the company's own servers send theirs from one address.
      const input = {
        seen:
          caller === 'publishable'
            ? { client, user_agent: header('user-agent'), click_flood: clickFlood(db, program.id, client, now) }
            : undefined,
        email: body.email,
        gr_id: body.gr_id,
        pk: body.pk || undefined,
        uid: body.uid || undefined,
        discount_code: body.discount_code || undefined,
        // The company's server knows the customer; a page's visitor could claim any country to earn its partner more.
        ...(caller === 'publishable' ? {} : { customer_country: body.customer_country ?? undefined, metadata: body.metadata ?? undefined }),
      };
      const { referral, created } = await recordConversion(db, program.id, input, now).catch((err: unknown) => {
        throw caller === 'publishable' ? discreet(err) : err;
      });
      return {
        status: created ? 201 : 200,
        headers: { Location: `/v1/referrals/${referral.id}` },
        body: { data: renderReferral(referral, caller !== 'publishable') },
      };
    },
  }),
  route({
    method: 'post',
    path: '/v1/tracking/click',
    summary:
      "Record a visit through a referral link; the answer names the domain for the cookie of the landing page, and the discount the partner's link brings",
    access: 'publishable',
    body: clickBody,
    status: 202,
    response: one(z.object({ cookie_domain: z.string().nullable(), discount: linkDiscount.nullable() })),
    async handle({ db, program, caller, client, body, now }) {
      // Only public callers are capped per address: a secret token's clicks come from the company's own servers.
      const input = {
        gr_id: body.gr_id,
        pk: body.pk,
        url: body.url ?? undefined,
        referrer: body.referrer ?? undefined,
        client: caller === 'publishable' ? client : undefined,
      };
      // Stored, a repeat or over the address's allowance: answered alike, so a flood learns nothing.
      const { groupId } = await recordClick(db, program.id, input, now);
      // The snippet keeps its cookie there, so www. and app. of one site share it, and it
      // never tries a domain the browser would refuse (null: host-only, as for an address).
      const discount = await discountOfGroup(db, program.id, groupId);
      return {
        status: 202,
        body: { data: { cookie_domain: registrableDomain(input.url), discount: discount ? discountTerms(discount) : null } },
      };
    },
  }),
];
