// A commission belongs to at most one open payout batch: the batch that holds it, or
// later paid it, is on the commission itself and set by a conditional update, so no two
// exports can claim it. A batch can be cancelled, which lets go of its commissions. Items
// keep the payee address as exported, so the file can be written again and checked cell
// by cell after the partner changes it.
// Batches from before: the address is the partner's now (the best there is), and a
// commission that several open batches list (the double export this fixes) belongs to
// the earliest; mark-paid refuses the others' files.

import type { Migration } from './migration.js';

const migration: Migration = `
  ALTER TABLE payout_batches ADD COLUMN cancelled_at BIGINT;
  ALTER TABLE payout_items ADD COLUMN paypal_email TEXT;
  ALTER TABLE commissions ADD COLUMN payout_batch_id TEXT REFERENCES payout_batches(id);
  CREATE INDEX commissions_payout_batch ON commissions (payout_batch_id);
  CREATE INDEX payout_items_commission ON payout_items (commission_id);
  CREATE INDEX payout_batches_program ON payout_batches (program_id, created_at);
  UPDATE payout_items SET paypal_email = (SELECT pa.paypal_email FROM partners pa WHERE pa.id = payout_items.partner_id);
  UPDATE commissions SET payout_batch_id = (
    SELECT i.batch_id FROM payout_items i JOIN payout_batches b ON b.id = i.batch_id
     WHERE i.commission_id = commissions.id AND b.paid_at IS NULL
     ORDER BY b.created_at, b.id LIMIT 1)
   WHERE id IN (SELECT commission_id FROM payout_items) AND state = 'pending';
  UPDATE commissions SET payout_batch_id = (
    SELECT i.batch_id FROM payout_items i JOIN payout_batches b ON b.id = i.batch_id
     WHERE i.commission_id = commissions.id AND b.paid_at IS NOT NULL
     ORDER BY b.paid_at, b.id LIMIT 1)
   WHERE id IN (SELECT commission_id FROM payout_items) AND state = 'paid';
  `;

export default migration;
