// Wise bank details (docs/payouts.md, "How partners are paid"): the fields Wise's recipient
// account requirements list for the currency, under Wise's own names and with its
// validation, sent as the recipient's details. Wise checks them again when Tally makes the
// recipient; its refusal names the field.

import { useState } from 'preact/hooks';
import { useLoad } from '../use-api.js';
import { Show } from '../ui.js';
import type { PaymentPlace, Requirement } from './place.js';

type T = PaymentPlace['t'];
type Field = Requirement['fields'][number];

/** The form's names of Wise's fields: apart from the panel's own. */
const PREFIX = 'wise.';
/** Wise asks the holder's name among the fields; Tally's API takes it beside the details. */
const HOLDER = 'accountHolderName';

/** Wise's dotted keys (address.city) are nested objects in the recipient's details. */
function nested(entries: [string, string][]): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    const path = key.split('.');
    let at = details;
    for (const part of path.slice(0, -1)) {
      at[part] ??= {};
      at = at[part] as Record<string, unknown>;
    }
    at[path.at(-1)!] = value;
  }
  return details;
}

/** The body of POST payout_method for Wise, from the form this part rendered. */
export function wiseBody(form: FormData, country: string) {
  const given = [...form.entries()]
    .filter((e): e is [string, string] => e[0].startsWith(PREFIX) && typeof e[1] === 'string' && e[1].trim() !== '')
    .map(([k, v]): [string, string] => [k.slice(PREFIX.length), v.trim()]);
  return {
    method: 'wise' as const,
    country,
    currency: String(form.get('currency') ?? '')
      .trim()
      .toUpperCase(),
    type: String(form.get('wise_type') ?? ''),
    account_holder_name: given.find(([k]) => k === HOLDER)?.[1] ?? '',
    details: nested(given.filter(([k]) => k !== HOLDER)),
  };
}

/**
 * Wise's regexp as the input's pattern, which browsers compile with the v flag: one that flag
 * refuses (an unescaped ( or | in a class) is left to Wise's own check, not logged as an error.
 */
function patternOf(regexp: string | null): string | undefined {
  if (!regexp) return undefined;
  try {
    new RegExp(regexp, 'v');
    return regexp;
  } catch {
    return undefined;
  }
}

function WiseField({ f, t }: { f: Field; t: T }) {
  const name = `${PREFIX}${f.key}`;
  const label = f.name || f.key;
  if (f.values) {
    return (
      <label>
        {label}
        <select name={name} required={f.required}>
          {!f.required && <option value="" />}
          {f.values.map((v) => (
            <option value={v.key}>{v.name}</option>
          ))}
        </select>
      </label>
    );
  }
  return (
    <label>
      {label} {f.example && <span class="hint">{t('wise.example', { example: f.example })}</span>}
      <input
        name={name}
        required={f.required}
        // The browser anchors a pattern itself; Wise's own ^…$ inside it changes nothing.
        pattern={patternOf(f.validation_regexp)}
        minLength={f.min_length ?? undefined}
        maxLength={f.max_length ?? undefined}
        autocomplete={f.key === HOLDER ? 'name' : 'off'}
      />
    </label>
  );
}

/** The account types Wise offers for the currency (a choice when more than one), and the fields of the one chosen. */
function Requirements({ list, t }: { list: Requirement[]; t: T }) {
  const [type, setType] = useState(list[0]?.type);
  const chosen = list.find((r) => r.type === type) ?? list[0];
  if (!chosen) return <p class="hint">{t('wise.none')}</p>;
  return (
    <>
      {list.length > 1 ? (
        <fieldset class="choices">
          <legend>{t('wise.type')}</legend>
          {list.map((r) => (
            <label class="check">
              <input type="radio" name="wise_type" value={r.type} checked={r.type === chosen.type} onChange={() => setType(r.type)} />{' '}
              {r.title}
            </label>
          ))}
        </fieldset>
      ) : (
        <input type="hidden" name="wise_type" value={chosen.type} />
      )}
      <fieldset key={chosen.type}>
        <legend>{t('wise.details', { title: chosen.title })}</legend>
        {chosen.fields.map((f) => (
          <WiseField f={f} t={t} />
        ))}
      </fieldset>
    </>
  );
}

function Asked({ place, currency }: { place: PaymentPlace; currency: string }) {
  const loaded = useLoad((signal) => place.wiseRequirements(currency, signal), `${place.key}:${currency}`);
  return <Show loaded={loaded}>{(list) => <Requirements key={currency} list={list} t={place.t} />}</Show>;
}

/** The currency to be paid in, then what Wise asks for it (asked again whenever the currency changes). */
export function WiseFields({ place, currency: was }: { place: PaymentPlace; currency: string | undefined }) {
  const { t } = place;
  const [currency, setCurrency] = useState((was ?? '').toUpperCase());
  const known = /^[A-Z]{3}$/.test(currency);
  return (
    <>
      <label>
        {t('wise.currency')} <span class="hint">{t('wise.currencyHint')}</span>
        <input
          name="currency"
          required
          pattern="[A-Za-z]{3}"
          maxLength={3}
          value={currency}
          onInput={(e) => setCurrency(e.currentTarget.value.trim().toUpperCase())}
        />
      </label>
      {known && <Asked place={place} currency={currency} />}
    </>
  );
}
