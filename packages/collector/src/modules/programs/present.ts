// A program's commission rules as the API names them: for the program's routes and its public page.

import type { Rules } from '../../core/payout-terms.js';

/** The rules as the API names them. */
export function renderRules(r: Rules) {
  return { recurring_months: r.recurringMonths, hold_days: r.holdDays, minimum_payout: r.minimumPayout };
}
