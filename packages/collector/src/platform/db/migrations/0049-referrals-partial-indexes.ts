// Issue 47, the conversion's write path: three of referrals' ten indexes serve rows where
// a column is set, and every conversion wrote an entry into each. Now each holds only
// those rows: a partner's uid lookup (most conversions send none), the review queue
// (held, approved or rejected: most are never held) and review's address evidence (public
// conversions only). Their readers all compare the column with `=` or IN, which implies
// IS NOT NULL on both engines, so the plans stay (query-plans.test.ts).

import type { Migration } from './migration.js';

const migration: Migration = `
  DROP INDEX referrals_uid;
  CREATE INDEX referrals_uid ON referrals (program_id, uid) WHERE uid IS NOT NULL;
  DROP INDEX referrals_review;
  CREATE INDEX referrals_review ON referrals (program_id, review, created_at DESC, id DESC) WHERE review IS NOT NULL;
  DROP INDEX referrals_client;
  CREATE INDEX referrals_client ON referrals (program_id, client_hash, created_at) WHERE client_hash IS NOT NULL;
`;

export default migration;
