// A group's reward, added or changed in a dialog: its event, kind and amount (a percentage
// typed as "20" is 2000 basis points; a flat amount is typed in major units and kept in
// minor units by the currency's exponent), the payments it covers, a click reward's daily
// cap, and its conditions: AND/OR groups of conditions, nested down to the API's three
// levels, each field with the operators and the value it takes (docs/rewards.md).

import { useState } from 'preact/hooks';
import { api, type RequestBody } from '../../common/api.js';
import { Confirm } from '../../common/forms.js';
import { decimalText, majorText, parseDecimal, parseMajor } from '../../common/format.js';
import type { Reward } from '../groups.js';
import { t } from './words.js';

type RewardBody = RequestBody<'/v1/groups/{id}/rewards', 'post'>;
type Event = Reward['attributes']['event'];
type Kind = Reward['attributes']['kind'];
type DurationKind = Reward['attributes']['duration']['kind'];

/** A condition as the API takes it (its groups nest, so the conditions are the items with a field). */
type ConditionBody = Extract<NonNullable<RewardBody['conditions']>['items'][number], { field: unknown }>;
type Op = ConditionBody['op'];
type Field = ConditionBody['field'];
/** What a field's value is typed as. */
type ValueKind = 'text' | 'money' | 'count' | 'currency' | 'country' | 'payment';

const SET: Op[] = ['eq', 'neq', 'in', 'not_in'];
const ALL: Op[] = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in'];

interface FieldInfo {
  ops: Op[];
  value: ValueKind;
  /** A payment's field: a sign-up or a click has none. */
  sale?: boolean;
  /** metadata: the key looked up. */
  key?: boolean;
  /** The partner's totals: over a window of days, or all time. */
  window?: boolean;
}

// Each field's label is its key under fields. in the catalogue.
const FIELDS: Record<Field, FieldInfo> = {
  product_id: { ops: SET, value: 'text', sale: true },
  price_id: { ops: SET, value: 'text', sale: true },
  amount: { ops: ALL, value: 'money', sale: true },
  currency: { ops: SET, value: 'currency', sale: true },
  payment: { ops: ['eq', 'neq'], value: 'payment', sale: true },
  months_since_first_payment: { ops: ALL, value: 'count', sale: true },
  customer_country: { ops: SET, value: 'country' },
  metadata: { ops: SET, value: 'text', key: true },
  partner_customers: { ops: ALL, value: 'count', window: true },
  partner_revenue: { ops: ALL, value: 'money', window: true },
};

/** Groups nest at most this deep, the reward's own group being the first level (the API's limit). */
const MAX_DEPTH = 3;

interface ConditionDraft {
  kind: 'condition';
  key: number;
  field: Field;
  op: Op;
  /** As typed: one value, or several separated by commas for in and not_in. */
  value: string;
  metaKey: string;
  currency: string;
  window: string;
}
interface GroupDraft {
  kind: 'group';
  key: number;
  op: 'and' | 'or';
  items: Array<ConditionDraft | GroupDraft>;
}

let keys = 0;
const newCondition = (currency: string): ConditionDraft => ({
  kind: 'condition',
  key: keys++,
  field: 'product_id',
  op: 'eq',
  value: '',
  metaKey: '',
  currency,
  window: '',
});
const newGroup = (currency: string): GroupDraft => ({ kind: 'group', key: keys++, op: 'and', items: [newCondition(currency)] });

const isList = (op: Op) => op === 'in' || op === 'not_in';

// The API's conditions as the editor holds them: amounts in major units, lists as "a, b".
type RawCondition = { field: Field; op: Op; value: unknown; key?: string; currency?: string; window_days?: number | null };
type RawGroup = { op: 'and' | 'or'; items: Array<RawCondition | RawGroup> };

function draftOf(raw: RawGroup): GroupDraft {
  return {
    kind: 'group',
    key: keys++,
    op: raw.op,
    items: raw.items.map((item): ConditionDraft | GroupDraft => {
      if ('items' in item) return draftOf(item);
      const currency = item.currency ?? 'USD';
      const shown = (v: unknown) => (FIELDS[item.field]?.value === 'money' && typeof v === 'number' ? majorText(v, currency) : String(v));
      return {
        kind: 'condition',
        key: keys++,
        field: item.field,
        op: item.op,
        value: Array.isArray(item.value) ? item.value.map(shown).join(', ') : shown(item.value),
        metaKey: item.key ?? '',
        currency,
        window: item.window_days == null ? '' : String(item.window_days),
      };
    }),
  };
}

/**
 * An item's name as a heading or a sentence's start ("Group 1, condition 3") and within a
 * sentence ("Add condition to group 1"): two sayings, as German keeps a noun's capital.
 */
interface Name {
  title: string;
  inner: string;
}

/** The name of the i-th item of a group (`within`: the group's own name; none for the reward's own group). */
function itemName(within: Name | undefined, kind: 'condition' | 'group', i: number): Name {
  const n = i + 1;
  if (!within) return { title: t(`name.${kind}`, { n }), inner: t(`inner.${kind}`, { n }) };
  return { title: t(`name.${kind}In`, { within: within.title, n }), inner: t(`name.${kind}In`, { within: within.inner, n }) };
}

/** The drafts as the API takes them; a message naming the condition at fault when one is incomplete. */
function conditionsOf(group: GroupDraft, event: Event, name?: Name): RawGroup {
  if (group.items.length === 0) throw new Error(name ? t('condition.empty', { name: name.title }) : t('condition.noneYet'));
  return {
    op: group.op,
    items: group.items.map((item, i) =>
      item.kind === 'group'
        ? conditionsOf(item, event, itemName(name, 'group', i))
        : conditionOf(item, event, itemName(name, 'condition', i)),
    ),
  };
}

function conditionOf(c: ConditionDraft, event: Event, where: Name): RawCondition {
  const info = FIELDS[c.field];
  const name = where.title;
  if (info.sale && event !== 'sale') throw new Error(t('condition.notSale', { name, field: t(`fields.${c.field}`) }));
  const typed = isList(c.op)
    ? c.value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
    : [c.value.trim()].filter(Boolean);
  if (typed.length === 0) throw new Error(t('condition.noValue', { name }));
  const currency = c.currency.trim().toUpperCase();
  if (info.value === 'money' && !/^[A-Z]{3}$/.test(currency)) throw new Error(t('condition.noCurrency', { name }));
  const one = (v: string): string | number => {
    switch (info.value) {
      case 'money':
        return parseMajor(v, currency, t('condition.amountOf', { name: where.inner }));
      case 'count':
        if (!/^\d{1,13}$/.test(v)) throw new Error(t('condition.notWhole', { name, typed: v }));
        return Number(v);
      case 'currency':
      case 'country':
        return v.toUpperCase();
      default:
        return v;
    }
  };
  const values = typed.map(one);
  const out: RawCondition = { field: c.field, op: c.op, value: isList(c.op) ? values : values[0] };
  if (info.key) {
    if (!c.metaKey.trim()) throw new Error(t('condition.noKey', { name }));
    out.key = c.metaKey.trim();
  }
  if (info.value === 'money') out.currency = currency;
  if (info.window && c.window.trim()) {
    if (!/^\d{1,4}$/.test(c.window.trim())) throw new Error(t('condition.window', { name }));
    out.window_days = Number(c.window.trim());
  }
  return out;
}

function ConditionRow({
  c,
  n,
  event,
  changed,
  remove,
}: {
  c: ConditionDraft;
  n: Name;
  event: Event;
  changed: () => void;
  remove: () => void;
}) {
  const info = FIELDS[c.field];
  const list = isList(c.op);
  const setField = (field: Field) => {
    const before = info.value;
    c.field = field;
    if (!FIELDS[field].ops.includes(c.op)) c.op = 'eq';
    if (FIELDS[field].value !== before) c.value = FIELDS[field].value === 'payment' ? 'first' : '';
    changed();
  };
  const numeric = !list && (info.value === 'count' || info.value === 'money');
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset per condition would nest a legend in every row; a named group says the same
    <div class="condition" role="group" aria-label={n.title}>
      <label>
        {t('condition.field')}
        <select value={c.field} onChange={(e) => setField(e.currentTarget.value as Field)}>
          {(Object.keys(FIELDS) as Field[]).map((f) => (
            <option value={f} disabled={FIELDS[f].sale && event !== 'sale'}>
              {t(`fields.${f}`)}
            </option>
          ))}
        </select>
      </label>
      {info.key && (
        <label>
          {t('condition.key')}
          <input
            value={c.metaKey}
            maxLength={200}
            onInput={(e) => {
              c.metaKey = e.currentTarget.value;
            }}
          />
        </label>
      )}
      <label>
        {t('condition.operator')}
        <select
          value={c.op}
          onChange={(e) => {
            c.op = e.currentTarget.value as Op;
            changed();
          }}
        >
          {info.ops.map((op) => (
            <option value={op}>{t(`ops.${op}`)}</option>
          ))}
        </select>
      </label>
      {info.value === 'payment' ? (
        <label>
          {t('condition.value')}
          <select
            value={c.value}
            onChange={(e) => {
              c.value = e.currentTarget.value;
            }}
          >
            <option value="first">{t('condition.first')}</option>
            <option value="renewal">{t('condition.renewal')}</option>
          </select>
        </label>
      ) : (
        <label class="value">
          {t('condition.value')}{' '}
          {(list || info.value === 'money' || info.value === 'country') && (
            <span class="hint">
              {[
                info.value === 'money' && t('condition.major'),
                info.value === 'country' && t('condition.country'),
                list && t('condition.list'),
              ]
                .filter(Boolean)
                .join(', ')}
            </span>
          )}
          <input
            value={c.value}
            {...(numeric
              ? { type: 'number' as const, min: 0, step: info.value === 'money' ? 'any' : 1, inputMode: 'decimal' as const }
              : { type: 'text' as const, maxLength: 2000, spellcheck: false })}
            onInput={(e) => {
              c.value = e.currentTarget.value;
            }}
          />
        </label>
      )}
      {info.value === 'money' && (
        <label class="short">
          {t('condition.currency')}
          <input
            value={c.currency}
            maxLength={3}
            size={4}
            spellcheck={false}
            onInput={(e) => {
              c.currency = e.currentTarget.value;
            }}
          />
        </label>
      )}
      {info.window && (
        <label class="short">
          {t('condition.overDays')} <span class="hint">{t('condition.allTime')}</span>
          <input
            value={c.window}
            type="number"
            min={1}
            max={3650}
            onInput={(e) => {
              c.window = e.currentTarget.value;
            }}
          />
        </label>
      )}
      <button type="button" class="secondary danger" aria-label={t('condition.removeOf', { name: n.inner })} onClick={remove}>
        {t('condition.remove')}
      </button>
    </div>
  );
}

function GroupEditor({
  group,
  depth,
  name,
  event,
  currency,
  changed,
  remove,
}: {
  group: GroupDraft;
  depth: number;
  name: Name;
  event: Event;
  currency: string;
  changed: () => void;
  remove?: () => void;
}) {
  const without = (item: ConditionDraft | GroupDraft) => () => {
    group.items = group.items.filter((x) => x !== item);
    changed();
  };
  return (
    <fieldset class="cond-group">
      <legend>{name.title}</legend>
      <label class="match">
        <span>{t('condition.match')}</span>
        <select
          value={group.op}
          onChange={(e) => {
            group.op = e.currentTarget.value as 'and' | 'or';
            changed();
          }}
        >
          <option value="and">{t('condition.and')}</option>
          <option value="or">{t('condition.or')}</option>
        </select>
      </label>
      {group.items.map((item, i) =>
        item.kind === 'group' ? (
          <GroupEditor
            key={item.key}
            group={item}
            depth={depth + 1}
            name={itemName(depth === 1 ? undefined : name, 'group', i)}
            event={event}
            currency={currency}
            changed={changed}
            remove={without(item)}
          />
        ) : (
          <ConditionRow
            key={item.key}
            c={item}
            n={itemName(depth === 1 ? undefined : name, 'condition', i)}
            event={event}
            changed={changed}
            remove={without(item)}
          />
        ),
      )}
      <div class="buttons">
        <button
          type="button"
          class="secondary"
          onClick={() => {
            group.items = [...group.items, newCondition(currency)];
            changed();
          }}
        >
          {depth === 1 ? t('condition.addCondition') : t('condition.addConditionTo', { name: name.inner })}
        </button>
        {depth < MAX_DEPTH && (
          <button
            type="button"
            class="secondary"
            onClick={() => {
              group.items = [...group.items, newGroup(currency)];
              changed();
            }}
          >
            {depth === 1 ? t('condition.addGroup') : t('condition.addGroupTo', { name: name.inner })}
          </button>
        )}
        {remove && (
          <button type="button" class="secondary danger" onClick={remove}>
            {t('condition.removeOf', { name: name.inner })}
          </button>
        )}
      </div>
    </fieldset>
  );
}

/** The editor's fields as typed; read when the dialog is saved. */
interface Draft {
  event: Event;
  kind: Kind;
  amount: string;
  currency: string;
  duration: DurationKind;
  months: string;
  dailyCap: string;
  position: string;
  conditions: GroupDraft | null;
}

function draftFrom(r: Reward | null, fallbackCurrency: string): Draft {
  const a = r?.attributes;
  const currency = a?.currency ?? fallbackCurrency;
  return {
    event: a?.event ?? 'sale',
    kind: a?.kind ?? 'percentage',
    amount: !a ? '' : a.kind === 'percentage' ? decimalText(a.amount, 2).replace(/\.?0+$/, '') : majorText(a.amount, currency),
    currency,
    duration: a?.duration.kind ?? 'lifetime',
    months: String(a?.duration.months ?? 12),
    dailyCap: a?.daily_cap == null ? '' : majorText(a.daily_cap, currency),
    position: String(a?.position ?? 0),
    conditions: a?.conditions ? draftOf(a.conditions as RawGroup) : null,
  };
}

/** The body of POST /v1/groups/:id/rewards (and PATCH /v1/rewards/:id) from the draft; a message for what cannot be read. */
function bodyOf(d: Draft): RewardBody {
  const currency = d.currency.trim().toUpperCase();
  const flat = d.kind === 'flat' || d.event !== 'sale';
  if (flat && !/^[A-Z]{3}$/.test(currency)) throw new Error(t('editor.noCurrency'));
  let amount: number;
  if (flat) amount = parseMajor(d.amount, currency);
  else {
    const bps = parseDecimal(d.amount, 2);
    if (bps === undefined || bps < 1 || bps > 10_000) throw new Error(t('editor.percent', { typed: d.amount }));
    amount = bps;
  }
  if (amount < 1) throw new Error(t('editor.nothing'));
  const months = Number(d.months);
  if (d.event === 'sale' && d.duration === 'months' && !(Number.isInteger(months) && months >= 1)) {
    throw new Error(t('editor.wholeMonths'));
  }
  const body: Record<string, unknown> = {
    event: d.event,
    kind: flat ? 'flat' : 'percentage',
    amount,
    currency: flat ? currency : null,
    duration: d.event !== 'sale' ? { kind: 'once' } : d.duration === 'months' ? { kind: 'months', months } : { kind: d.duration },
    conditions: d.conditions ? conditionsOf(d.conditions, d.event) : null,
    position: Number(d.position) || 0,
  };
  if (d.event === 'click') body.daily_cap = d.dailyCap.trim() ? parseMajor(d.dailyCap, currency, t('editor.theDailyCap')) : null;
  return body as unknown as RewardBody;
}

const EVENTS: Event[] = ['sale', 'lead', 'click'];

type DraftProps = { draft: Draft; set: (patch: Partial<Draft>) => void };

/** What the reward pays for (a sale, a lead, a click), and how much: a percentage of a sale, or an amount in a currency. */
function WhatItPays({ draft, set }: DraftProps) {
  const flat = draft.kind === 'flat' || draft.event !== 'sale';
  const code = draft.currency.trim().toUpperCase() || t('editor.theCurrency');
  return (
    <>
      <div class="row">
        <label>
          {t('editor.paidFor')}
          <select
            name="event"
            value={draft.event}
            onChange={(e) => {
              const event = e.currentTarget.value as Event;
              set({ event, kind: event === 'sale' ? draft.kind : 'flat' });
            }}
          >
            {EVENTS.map((e) => (
              <option value={e}>{t(`editor.events.${e}`)}</option>
            ))}
          </select>
        </label>
        <label>
          {t('editor.kind')}
          <select name="kind" value={flat ? 'flat' : 'percentage'} onChange={(e) => set({ kind: e.currentTarget.value as Kind })}>
            <option value="percentage" disabled={draft.event !== 'sale'}>
              {t('editor.percentage')}
            </option>
            <option value="flat">{t('editor.flat')}</option>
          </select>
        </label>
      </div>
      <div class="row">
        <label>
          {flat ? t('editor.amountIn', { currency: code }) : t('editor.amountPercent')}
          <input
            name="amount"
            type="number"
            min={flat ? 0 : 0.01}
            max={flat ? undefined : 100}
            step="any"
            inputMode="decimal"
            required
            value={draft.amount}
            onInput={(e) => {
              draft.amount = e.currentTarget.value;
            }}
          />
        </label>
        {flat && (
          <label>
            {t('editor.currency')} <span class="hint">{t('editor.currencyHint')}</span>
            <input
              name="currency"
              required
              maxLength={3}
              pattern="[A-Za-z]{3}"
              spellcheck={false}
              value={draft.currency}
              onInput={(e) => set({ currency: e.currentTarget.value })}
            />
          </label>
        )}
      </div>
    </>
  );
}

/** Which of a customer's payments a sale's reward earns on; a click's reward's daily cap. */
function HowLong({ draft, set }: DraftProps) {
  const code = draft.currency.trim().toUpperCase() || t('editor.theCurrency');
  return (
    <>
      {draft.event === 'sale' && (
        <div class="row">
          <label>
            {t('editor.which')}
            <select name="duration" value={draft.duration} onChange={(e) => set({ duration: e.currentTarget.value as DurationKind })}>
              <option value="once">{t('editor.duration.once')}</option>
              <option value="months">{t('editor.duration.months')}</option>
              <option value="lifetime">{t('editor.duration.lifetime')}</option>
            </select>
          </label>
          {draft.duration === 'months' && (
            <label>
              {t('editor.months')}
              <input
                name="months"
                type="number"
                min={1}
                max={1200}
                required
                value={draft.months}
                onInput={(e) => {
                  draft.months = e.currentTarget.value;
                }}
              />
            </label>
          )}
        </div>
      )}
      {draft.event === 'click' && (
        <label>
          {t('editor.dailyCap', { currency: code })} <span class="hint">{t('editor.dailyCapHint')}</span>
          <input
            name="daily_cap"
            type="number"
            min={0}
            step="any"
            inputMode="decimal"
            value={draft.dailyCap}
            onInput={(e) => {
              draft.dailyCap = e.currentTarget.value;
            }}
          />
        </label>
      )}
    </>
  );
}

/** The reward's position among those that would pay the same, and when it applies: always, or under conditions. */
function WhenItApplies({ draft, set, changed }: DraftProps & { changed: () => void }) {
  return (
    <>
      <label>
        {t('editor.position')} <span class="hint">{t('editor.positionHint')}</span>
        <input
          name="position"
          type="number"
          min={0}
          max={1000000}
          value={draft.position}
          onInput={(e) => {
            draft.position = e.currentTarget.value;
          }}
        />
      </label>
      <fieldset class="choices">
        <legend>{t('editor.when')}</legend>
        <label class="check">
          <input type="radio" name="when" checked={draft.conditions === null} onChange={() => set({ conditions: null })} />{' '}
          {t('editor.always')}
        </label>
        <label class="check">
          <input
            type="radio"
            name="when"
            checked={draft.conditions !== null}
            onChange={() => set({ conditions: draft.conditions ?? newGroup(draft.currency.trim().toUpperCase() || 'USD') })}
          />{' '}
          {t('editor.onlyWhen')}
        </label>
        <p class="hint">{t(`editor.mostWins.${draft.event}`)}</p>
      </fieldset>
      {draft.conditions && (
        <GroupEditor
          group={draft.conditions}
          depth={1}
          name={{ title: t('editor.conditions'), inner: t('editor.conditions') }}
          event={draft.event}
          currency={draft.currency.trim().toUpperCase() || 'USD'}
          changed={changed}
        />
      )}
    </>
  );
}

/** Adds a reward to the group, or (with `reward`) changes one; `saved` once the API took it. */
export function RewardDialog({
  groupId,
  reward,
  currency,
  onClose,
  saved,
}: {
  groupId: string;
  reward: Reward | null;
  /** The currency a new flat amount starts in. */
  currency: string;
  onClose: () => void;
  saved: () => void;
}) {
  const [draft] = useState(() => draftFrom(reward, currency));
  const [, setRound] = useState(0);
  const changed = () => setRound((n) => n + 1);
  const set = (patch: Partial<Draft>) => {
    Object.assign(draft, patch);
    changed();
  };
  return (
    <Confirm
      title={reward ? t('editor.changeTitle') : t('editor.addTitle')}
      confirm={reward ? t('editor.save') : t('editor.add')}
      wide
      onClose={onClose}
      onConfirm={async () => {
        const body = bodyOf(draft);
        // The generated union (a reward per event, conditions three levels deep) is more than
        // openapi-fetch's body type follows (a sale's `daily_cap: null`); the collector checks the body.
        if (reward) await api.PATCH('/v1/rewards/{id}', { params: { path: { id: reward.id } }, body: body as never });
        else await api.POST('/v1/groups/{id}/rewards', { params: { path: { id: groupId } }, body: body as never });
        saved();
      }}
    >
      <WhatItPays draft={draft} set={set} />
      <HowLong draft={draft} set={set} />
      <WhenItApplies draft={draft} set={set} changed={changed} />
    </Confirm>
  );
}
