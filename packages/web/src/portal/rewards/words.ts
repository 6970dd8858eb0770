// A group's rewards in the portal's language: the API sends each reward's terms, and these
// words say them (the API's own sentences are English only). The same shapes as the
// collector's rewards/model.ts; the English follows its rewards/describe.ts.

import type { Catalogues } from '../../common/i18n.js';
import { locale, money } from '../../common/format.js';
import { part } from '../language.js';
import en from './locales/en.js';

const CATALOGUES: Catalogues<typeof en> = {
  en,
  de: () => import('./locales/de.js'),
  fr: () => import('./locales/fr.js'),
  es: () => import('./locales/es.js'),
};

/** In the portal's language: fetched with the portal's own words (language.ts). */
const t = part('rewards', CATALOGUES);

type Comparison = 'eq' | 'neq' | 'in' | 'not_in' | 'gt' | 'gte' | 'lt' | 'lte';
interface Condition {
  field: string;
  op: Comparison;
  value: string | number | Array<string | number>;
  key?: string;
  window_days?: number | null;
  currency?: string;
}
interface ConditionGroup {
  op: 'and' | 'or';
  items: Array<Condition | ConditionGroup>;
}

export interface RewardTerms {
  event: 'lead' | 'sale' | 'click';
  kind: 'percentage' | 'flat';
  amount: number;
  currency: string | null;
  duration: { kind: 'once' | 'months' | 'lifetime'; months?: number };
  conditions?: unknown;
  daily_cap: number | null;
}

const isGroup = (item: Condition | ConditionGroup): item is ConditionGroup => 'items' in item;

/** "DE or FR", "DE, FR or ES" as the language writes a list. */
const listOf = (values: string[]) => new Intl.ListFormat(locale() ?? 'en', { type: 'disjunction' }).format(values);

/** Basis points as a number of percent in the language's digits: 1250 "12.5" ("12,5" in German). */
const percent = (bps: number) => new Intl.NumberFormat(locale(), { maximumFractionDigits: 2 }).format(bps / 100);

function over(windowDays: number | null | undefined): string {
  return windowDays == null ? t('over.toDate') : t('over.lastDays', { count: windowDays });
}

function subject(c: Condition): string {
  if (c.field === 'metadata') return t('subject.metadata', { key: c.key ?? '' });
  if (c.field === 'partner_customers' || c.field === 'partner_revenue') return t(`subject.${c.field}`, { over: over(c.window_days) });
  return t(`subject.${c.field}` as 'subject.product_id', { defaultValue: c.field });
}

function condition(c: Condition): string {
  if (c.field === 'payment') return (c.value === 'first') === (c.op === 'eq') ? t('firstPayment') : t('renewal');
  const raw = Array.isArray(c.value) ? c.value : [c.value];
  const inMoney = (c.field === 'amount' || c.field === 'partner_revenue') && c.currency !== undefined;
  const values = raw.map((v) => (inMoney && typeof v === 'number' ? money(v, c.currency!) : String(v)));
  // One value left out is "is not"; "in" says what "eq" does.
  const op = c.op === 'in' ? 'eq' : c.op === 'not_in' && values.length === 1 ? 'neq' : c.op;
  return t(`op.${op}`, { subject: subject(c), values: listOf(values) });
}

/** A nested group of more than one item is put in parentheses, so "and" and "or" stay unambiguous. */
function conditions(group: ConditionGroup): string {
  const words = group.items.map((item) => {
    if (!isGroup(item)) return condition(item);
    return item.items.length > 1 ? `(${conditions(item)})` : conditions(item);
  });
  return words.join(` ${group.op === 'and' ? t('and') : t('or')} `);
}

/** The payments a percentage is of: "the first payment", "each payment for 12 months". */
function payments(d: RewardTerms['duration']): string {
  if (d.kind === 'once') return t('payments.once');
  if (d.kind === 'months') return t('payments.months', { count: d.months ?? 0 });
  return t('payments.lifetime');
}

/** A reward in words: "20 % of each payment for 12 months, when the product is pro"; `ownRate`: the partnership's own. */
export function rewardWords(r: RewardTerms, ownRate = false): string {
  const amount = money(r.amount, r.currency ?? '');
  let what: string;
  if (ownRate) what = t('what.ownRate', { percent: percent(r.amount) });
  else if (r.event === 'lead') what = t('what.lead', { amount });
  else if (r.event === 'click')
    what =
      r.daily_cap === null ? t('what.click', { amount }) : t('what.clickCapped', { amount, cap: money(r.daily_cap, r.currency ?? '') });
  else if (r.kind === 'percentage') what = t('what.percentage', { percent: percent(r.amount), payments: payments(r.duration) });
  else if (r.duration.kind === 'once') what = t('what.sale', { amount });
  else if (r.duration.kind === 'months') what = t('what.flatMonths', { amount, count: r.duration.months ?? 0 });
  else what = t('what.flatLifetime', { amount });
  const when = r.conditions as ConditionGroup | null | undefined;
  return when ? t('when', { what, conditions: conditions(when) }) : what;
}
