// After a sign-up, from your backend: the person's e-mail and the click id the snippet put in
// your sign-up form (its hidden gr_id field), so the partner whose link they followed is credited.
import { createTally, TallyError } from '@tally/client';

const tally = createTally({ baseUrl: process.env.TALLY_URL!, token: process.env.TALLY_SECRET_TOKEN! });

try {
  const { referral, created } = await tally.recordConversion({ email: 'carol@customer.test', gr_id: 'visit-1', pk: 'alice-example' });
  // Sent twice (a retry), the same conversion answers the same referral.
  console.log(created ? 'recorded' : 'already recorded', referral.id, referral.attributes.state);
} catch (err) {
  // Someone already referred stays with the partner who referred them first.
  if (!(err instanceof TallyError) || err.code !== 'referral_exists') throw err;
  console.log('referred before', err.meta?.referral_id);
}
