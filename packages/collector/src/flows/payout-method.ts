// A partner choosing how they are paid (docs/payouts.md, "How partners are paid"): the
// method (modules/payout-methods), and for PayPal the address on the partner record too,
// once it is confirmed, so the CSV export pays the address the partner proved is theirs.

import { found } from '../platform/errors.js';
import type { Db, Tx } from '../platform/db/db.js';
import { normalizeEmail } from '../core/email.js';
import * as partners from '../modules/partners/repo.js';
import * as programs from '../modules/programs/repo.js';
import type { MethodName } from '../modules/payout-methods/model.js';
import { chooseStripe, choosePaypal, chooseWise, confirmPaypal, type WiseInput } from '../modules/payout-methods/service.js';

export type MethodInput =
  | { method: 'paypal'; paypal_email: string; country?: string | undefined }
  | { method: 'stripe_connect'; country: string }
  | ({ method: 'wise' } & WiseInput);

export interface Apis {
  stripeApiUrl: string | undefined;
  wiseApiUrl: string | undefined;
}

/** The confirmed address on the partner record: what the CSV export and the portal's account show. */
async function keepPaypalAddress(tx: Tx, programId: string, partnerId: string, email: string, now: number): Promise<void> {
  const partner = found(await partners.get(tx, programId, partnerId), 'partner', partnerId);
  await partners.update(tx, { ...partner, paypal_email: email, paypal_email_norm: normalizeEmail(email), updated_at: now });
}

/** Sets the partner record's method; `signInEmail`: the portal account's address, which needs no confirmation. */
export async function setPayoutMethod(
  db: Db,
  programId: string,
  partnerId: string,
  signInEmail: string,
  input: MethodInput,
  apis: Apis,
  now: number,
): Promise<MethodName> {
  const partner = found(await partners.get(db, programId, partnerId), 'partner', partnerId);
  switch (input.method) {
    case 'paypal':
      await db.transaction(async (tx) => {
        const own = [signInEmail, partner.email];
        const confirmed = await choosePaypal(
          tx,
          programId,
          partnerId,
          { email: input.paypal_email, country: input.country ?? null, ownAddresses: own },
          now,
        );
        if (confirmed) await keepPaypalAddress(tx, programId, partnerId, input.paypal_email, now);
      });
      break;
    case 'stripe_connect': {
      const program = found(await programs.get(db, programId), 'program', programId);
      await chooseStripe(db, program, partnerId, { country: input.country, email: signInEmail }, apis.stripeApiUrl, now);
      break;
    }
    case 'wise': {
      const { method: _, ...wise } = input;
      await chooseWise(db, programId, partnerId, wise, apis.wiseApiUrl, now);
      break;
    }
  }
  return input.method;
}

/** The link e-mailed to a PayPal address, used: the method is ready, and the record pays that address. */
export function confirmPayoutEmail(db: Db, token: string, now: number): Promise<void> {
  return db.transaction(async (tx) => {
    const row = await confirmPaypal(tx, token, now);
    await keepPaypalAddress(tx, row.program_id, row.partner_id, row.paypal_email ?? '', now);
  });
}
