// A partner told you of someone who may buy: the lead, on the partner's behalf. Any route is a
// typed call too: here the partner, found by their e-mail.
import { createTally, unwrap } from '@tally/client';

const tally = createTally({ baseUrl: process.env.TALLY_URL!, token: process.env.TALLY_SECRET_TOKEN! });

const partners = await unwrap(tally.GET('/v1/partners', { params: { query: { email_eq: 'alice@partner.test' } } }));
const partner = partners.data[0];
if (!partner) throw new Error('no partner has that address');
const lead = await tally.recordLead({ partner_id: partner.id, name: 'Dan Prospect', email: 'dan@prospect.test', company: 'Prospect Ltd' });
console.log('lead', lead.id, lead.attributes.stage);
