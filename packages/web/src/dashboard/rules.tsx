// The commission rules (recurring limit, holding period, minimum payout) as form fields,
// for the program and, left empty to follow the program, for one partnership.

import { minimumsText, parseMinimums } from '../common/format.js';
import { t } from './language.js';

export interface RuleValues {
  recurring_months: number | null;
  hold_days: number | null;
  minimum_payout: Record<string, number> | null;
}

/**
 * Fields named recurring_months, hold_days and minimum_payout; `inherit` allows empty for
 * "the program's". A partner group has no recurring limit of its own (its rewards' durations
 * say it): `recurring={false}` leaves the field out. `initial` makes the values where the
 * fields start, so a form that renders again (another part of its page loaded) keeps what is typed.
 */
export function RuleFields({
  values,
  inherit,
  recurring = true,
  initial = false,
}: {
  values: Partial<RuleValues>;
  inherit?: RuleValues;
  recurring?: boolean;
  initial?: boolean;
}) {
  const follow = (what: string) => (inherit ? t('rules.follow', { what }) : '');
  const value = (v: string) => (initial ? { defaultValue: v } : { value: v });
  const hold = (
    <label>
      {t('rules.hold')} <span class="hint">{t('rules.holdHint', { follow: follow(String(inherit?.hold_days ?? '')) })}</span>
      <input name="hold_days" type="number" min={0} max={365} {...value(String(values.hold_days ?? ''))} required={!inherit} />
    </label>
  );
  return (
    <fieldset class="rules">
      <legend>{t('rules.title')}</legend>
      {recurring ? (
        <div class="row">
          <label>
            {t('rules.recurring')}{' '}
            <span class="hint">{t('rules.recurringHint', { follow: follow(String(inherit?.recurring_months ?? '')) })}</span>
            <input
              name="recurring_months"
              type="number"
              min={0}
              max={1200}
              {...value(String(values.recurring_months ?? ''))}
              required={!inherit}
            />
          </label>
          {hold}
        </div>
      ) : (
        hold
      )}
      <label>
        {t('rules.minimum')} <span class="hint">{inherit ? t('rules.minimumHintInherit') : t('rules.minimumHint')}</span>
        <textarea name="minimum_payout" rows={2} {...value(values.minimum_payout == null ? '' : minimumsText(values.minimum_payout))} />
      </label>
    </fieldset>
  );
}

/** The rules from a submitted form; with `inherit`, an empty field is null (the program's). */
export function rulesFrom(form: FormData, inherit: boolean): RuleValues {
  const text = (n: string) => String(form.get(n) ?? '').trim();
  const num = (n: string) => (text(n) === '' && inherit ? null : Number(text(n)));
  return {
    recurring_months: num('recurring_months'),
    hold_days: num('hold_days'),
    minimum_payout: text('minimum_payout') === '' && inherit ? null : parseMinimums(text('minimum_payout')),
  };
}
