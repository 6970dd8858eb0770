// What partners earned, page by page. Any route is a typed call, answering openapi-fetch's
// { data, error, response }: its parameters, its fields and its error shape are in the types.
import { createTally } from '@tally/client';

const tally = createTally({ baseUrl: process.env.TALLY_URL!, token: process.env.TALLY_SECRET_TOKEN! });

let after: string | undefined;
for (;;) {
  const { data, error } = await tally.GET('/v1/commissions', {
    params: { query: { state_eq: 'pending', per_page: 50, ...(after ? { starting_after: after } : {}) } },
  });
  if (error) throw new Error(`${error.errors[0]?.code}: ${error.errors[0]?.detail}`);
  for (const commission of data.data) console.log(commission.id, commission.attributes.amount, commission.attributes.currency);
  if (!data.meta.pagination.has_more) break;
  after = data.data.at(-1)?.id;
}
