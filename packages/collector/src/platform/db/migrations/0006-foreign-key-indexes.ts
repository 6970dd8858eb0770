// Deleting a partner makes the engine check, by foreign key, that no partnership,
// referral or commission still names it, and deleting its partnership that no referral
// does. Without an index led by those columns each was a full scan inside the write
// transaction, which every other write waits for. A conversion writes every index of
// referrals, so the partner's list index is led by the partner instead of a second
// index beside it (the program, its other equality, comes second): it serves the
// `partner_id_eq` lists and the foreign-key check alike. (Separate indexes cost a
// conversion 23% more CPU: docs/performance.md.) query-plans.test.ts holds these paths,
// and `forget` across programs (modules/referrals/repo.ts), to indexes.

import type { Migration } from './migration.js';

const migration: Migration = `
  CREATE INDEX partnerships_partner_fk ON partnerships (partner_id);
  CREATE INDEX referrals_partnership_fk ON referrals (partnership_id);
  DROP INDEX referrals_partner;
  CREATE INDEX referrals_partner ON referrals (partner_id, program_id, created_at DESC, id DESC);
  DROP INDEX commissions_partner;
  CREATE INDEX commissions_partner ON commissions (partner_id, program_id, created_at DESC, id DESC);
  `;

export default migration;
