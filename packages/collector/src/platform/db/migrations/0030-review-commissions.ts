// Issue 42: owners decide about a commission held by a signal of its own (an e-mail match,
// a partner's refund rate, a quick payment), whose referral is not held: a decision names
// the commission it was about.

import type { Migration } from './migration.js';

const migration: Migration = `
  ALTER TABLE review_decisions ADD COLUMN commission_id TEXT;
  `;

export default migration;
