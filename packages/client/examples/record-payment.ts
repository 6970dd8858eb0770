// A referred customer paid (your billing's webhook, a renewal): the amount in minor units
// (cents), and a key of the payment's own, so a retry is recorded once.
import { createTally } from '@tally/client';

const tally = createTally({ baseUrl: process.env.TALLY_URL!, token: process.env.TALLY_SECRET_TOKEN! });

const { payment, commission, created } = await tally.recordPayment({
  amount: 4900,
  currency: 'EUR',
  idempotency_key: 'invoice-2026-0001',
  referral_email: 'carol@customer.test',
});
console.log(
  created ? 'recorded' : 'already recorded',
  payment.id,
  'commission',
  commission.attributes.amount,
  commission.attributes.currency,
);
