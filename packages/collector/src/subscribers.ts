// The composition root's subscribers (events/emit.ts): what reacts to the domain's events,
// registered once here so that no module calls the module that reacts. createApp and the
// CLI call this before any write; registering again replaces by name.

import { react, subscribe } from './events/emit.js';
import { deliveriesOf } from './modules/webhooks/events.js';
import { noticesFor } from './modules/notifications/derive.js';
import { automaticCodes, moveRules, payoutCreditNotes, payoutInvoices } from './flows/reactions.js';
import { bountyAwards } from './flows/bounty-award.js';
import { secondTiers } from './flows/two-tier.js';

export function registerSubscribers(): void {
  subscribe('webhooks', (db, event) => deliveriesOf(db, event));
  subscribe('notifications', (db, event, known) => noticesFor(db, event, known));
  react('move-rules', moveRules);
  react('automatic-codes', automaticCodes);
  react('payout-invoices', payoutInvoices);
  react('payout-credit-notes', payoutCreditNotes);
  react('bounty-awards', bountyAwards);
  react('second-tiers', secondTiers);
}
