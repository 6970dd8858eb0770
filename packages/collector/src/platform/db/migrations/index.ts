// Every migration in the order it runs: the n-th is version n (platform/db/migrate.ts runs
// them). TypeScript modules rather than .sql files: rollup bundles the collector into
// dist, and loose .sql files beside the sources would not ship with it.

import type { Migration } from './migration.js';
import m0001 from './0001-initial.js';
import m0002 from './0002-token-labels.js';
import m0003 from './0003-payments-and-payouts.js';
import m0004 from './0004-payment-without-referral.js';
import m0005 from './0005-drop-state-set-indexes.js';
import m0006 from './0006-foreign-key-indexes.js';
import m0007 from './0007-one-batch-per-commission.js';
import m0008 from './0008-owners.js';
import m0009 from './0009-cookie-days-and-lists.js';
import m0010 from './0010-statistics.js';
import m0011 from './0011-stripe-and-rules.js';
import m0012 from './0012-partner-accounts.js';
import m0013 from './0013-webhooks.js';
import m0014 from './0014-settings-triggers.js';
import m0015 from './0015-identity.js';
import m0016 from './0016-clicks-purged.js';
import m0017 from './0017-groups-and-rewards.js';
import m0018 from './0018-discount-codes.js';
import m0019 from './0019-partner-codes.js';
import m0020 from './0020-stripe-promotion-codes.js';
import m0021 from './0021-stripe-api-key.js';
import m0022 from './0022-billing-platforms.js';
import m0023 from './0023-review.js';
import m0024 from './0024-clicks-by-month.js';
import m0025 from './0025-settings-notice-backend.js';
import m0026 from './0026-locales.js';
import m0027 from './0027-notifications.js';
import m0028 from './0028-imports.js';
import m0029 from './0029-embed.js';
import m0030 from './0030-review-commissions.js';
import m0031 from './0031-move-rule-currencies.js';
import m0032 from './0032-partner-invitation-links.js';
import m0033 from './0033-billing-refusals.js';
import m0034 from './0034-payout-methods.js';
import m0035 from './0035-tax-forms.js';
import m0036 from './0036-payout-runs.js';
import m0037 from './0037-invoices.js';
import m0038 from './0038-wise-payouts.js';
import m0039 from './0039-payout-schedule.js';
import m0040 from './0040-reversals-credit-notes.js';
import m0041 from './0041-messages.js';
import m0042 from './0042-brand-resources.js';
import m0043 from './0043-bounties.js';
import m0044 from './0044-leads.js';
import m0045 from './0045-two-tier.js';
import m0046 from './0046-links.js';
import m0047 from './0047-billing-credentials.js';
import m0048 from './0048-audit-events.js';
import m0049 from './0049-referrals-partial-indexes.js';
import m0050 from './0050-owner-locale.js';
import m0051 from './0051-second-factors.js';
import m0052 from './0052-stat-windows.js';
import m0053 from './0053-covering-indexes.js';

export type { Migration, Script } from './migration.js';

export const MIGRATIONS: readonly Migration[] = [
  m0001,
  m0002,
  m0003,
  m0004,
  m0005,
  m0006,
  m0007,
  m0008,
  m0009,
  m0010,
  m0011,
  m0012,
  m0013,
  m0014,
  m0015,
  m0016,
  m0017,
  m0018,
  m0019,
  m0020,
  m0021,
  m0022,
  m0023,
  m0024,
  m0025,
  m0026,
  m0027,
  m0028,
  m0029,
  m0030,
  m0031,
  m0032,
  m0033,
  m0034,
  m0035,
  m0036,
  m0037,
  m0038,
  m0039,
  m0040,
  m0041,
  m0042,
  m0043,
  m0044,
  m0045,
  m0046,
  m0047,
  m0048,
  m0049,
  m0050,
  m0051,
  m0052,
  m0053,
];
