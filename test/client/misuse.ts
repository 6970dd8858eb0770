// Wrong uses of @tally/client, each of which must not compile: types.test.ts compiles this
// file as it is (every directive used) and without the directives (an error on each line).
// The typecheck (npm run typecheck) reads it too.

import { createTally, TallyError, verifyWebhook, type WebhookEvent } from '../../packages/client/src/index.js';

const tally = createTally({ baseUrl: 'http://127.0.0.1:8787', token: 'tly_sec_…' });

export async function misuses(err: unknown, event: WebhookEvent): Promise<void> {
  // @ts-expect-error: a conversion needs the person's e-mail
  await tally.recordConversion({ gr_id: 'visit-1' });
  // @ts-expect-error: amounts are integers of minor units, not strings
  await tally.recordPayment({ amount: '49.00', currency: 'EUR', idempotency_key: 'invoice-1' });
  // @ts-expect-error: a payment needs its idempotency key
  await tally.recordPayment({ amount: 4900, currency: 'EUR', referral_email: 'carol@customer.test' });
  // @ts-expect-error: no such field in a lead
  await tally.recordLead({ partner_id: 'p', name: 'Dan', email: 'dan@prospect.test', phone: '555' });
  // @ts-expect-error: no such route
  await tally.GET('/v1/partner');
  // @ts-expect-error: the route needs its path parameter
  await tally.GET('/v1/partners/{id}');
  // @ts-expect-error: a stage the leads do not have
  await tally.PATCH('/v1/leads/{id}', { params: { path: { id: 'l' } }, body: { stage: 'closed' } });
  const { referral } = await tally.recordConversion({ email: 'carol@customer.test', gr_id: 'visit-1' });
  // @ts-expect-error: a referral has no such attribute
  referral.attributes.emial;
  // @ts-expect-error: the API has no such error code
  if (err instanceof TallyError && err.code === 'referal_exists') return;
  // @ts-expect-error: no such event type
  if (event.type === 'referral.create') return;
  // @ts-expect-error: the body comes first, then the headers, then the secret
  verifyWebhook('whsec_…', '{}', {});
  // @ts-expect-error: a token is required
  createTally({ baseUrl: 'http://127.0.0.1:8787' });
}
