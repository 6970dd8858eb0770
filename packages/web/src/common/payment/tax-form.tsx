// The partner's tax form for the current partnership's program (docs/payouts.md, "Tax
// forms"): its status and the TIN as the API masks it, and a W-8BEN or W-9 to give, signed
// with the typed name. The TIN never comes back whole: the field is emptied once sent.

import { useState } from 'preact/hooks';
import { day } from '../format.js';
import { Saving, text, useSubmit } from '../forms.js';
import { useLoad } from '../use-api.js';
import { Show } from '../ui.js';
import type { PaymentPlace, TaxBody as Body, TaxStatus as Status } from './place.js';

type T = PaymentPlace['t'];
type W9 = Extract<Body, { kind: 'w9' }>;

const CLASSES: W9['tax_classification'][] = [
  'individual',
  'c_corporation',
  's_corporation',
  'partnership',
  'trust_estate',
  'llc_c',
  'llc_s',
  'llc_p',
  'other',
];

/** The last UTC day before `expires_at` (the first second of a year): 31 December. */
const lastDay = (expiresAt: number) => day(new Date((expiresAt - 1) * 1000).toISOString().slice(0, 10));

function Given({ s, t }: { s: Status; t: T }) {
  const f = s.form;
  return (
    <div role="status">
      <p class={s.status === 'valid' ? 'ok' : 'hint'}>{t('tax.status', { status: t(`statuses.${s.status}`) })}</p>
      {f && <p>{t('tax.given', { kind: t(`kinds.${f.kind}`), tin: f.tin })}</p>}
      {f?.expires_at && <p class="hint">{t('tax.expires', { date: lastDay(f.expires_at) })}</p>}
    </div>
  );
}

/** A text field of the form: its label, and `name` as the body's key. */
function Field({ label, name, ...rest }: { label: string; name: string; required?: boolean; autocomplete?: string }) {
  return (
    <label>
      {label}
      <input name={name} maxLength={200} {...rest} />
    </label>
  );
}

/** The form's body: the blank optional fields left out, the countries in capitals. */
function bodyOf(form: FormData, kind: 'w9' | 'w8ben'): Body {
  const v = (name: string) => text(form, name).trim();
  const optional = (name: string) => v(name) || null;
  const address = {
    line1: v('line1'),
    line2: optional('line2'),
    city: v('city'),
    region: optional('region'),
    postal_code: optional('postal_code'),
    country: v('address_country').toUpperCase(),
  };
  const common = { name: v('name'), address, tin: v('tin'), signature: v('signature') };
  return kind === 'w9'
    ? { kind, ...common, business_name: optional('business_name'), tax_classification: v('tax_classification') as W9['tax_classification'] }
    : { kind, ...common, country: v('country').toUpperCase(), date_of_birth: v('date_of_birth') };
}

function TaxFormForm({ place, given }: { place: PaymentPlace; given: (s: Status) => void }) {
  const { t } = place;
  const [kind, setKind] = useState<'w9' | 'w8ben'>('w8ben');
  const [done, setDone] = useState(false);
  const submit = useSubmit(async (form, el) => {
    setDone(false);
    given(await place.giveTaxForm(bodyOf(form, kind)));
    el.reset();
    setDone(true);
  });
  return (
    <form onSubmit={submit.onSubmit}>
      <label>
        {t('tax.kind')}
        <select name="kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as 'w9' | 'w8ben')}>
          <option value="w8ben">{t('kinds.w8ben')}</option>
          <option value="w9">{t('kinds.w9')}</option>
        </select>
      </label>
      <Field label={t('tax.name')} name="name" required autocomplete="name" />
      {kind === 'w9' ? (
        <>
          <Field label={t('tax.businessName')} name="business_name" autocomplete="organization" />
          <label>
            {t('tax.classification')}
            <select name="tax_classification">
              {CLASSES.map((c) => (
                <option value={c}>{t(`classes.${c}`)}</option>
              ))}
            </select>
          </label>
        </>
      ) : (
        <Field label={t('tax.citizenship')} name="country" required />
      )}
      <Field label={t('tax.line1')} name="line1" required autocomplete="address-line1" />
      <Field label={t('tax.line2')} name="line2" autocomplete="address-line2" />
      <Field label={t('tax.city')} name="city" required autocomplete="address-level2" />
      <Field label={t('tax.region')} name="region" autocomplete="address-level1" />
      <Field label={t('tax.postalCode')} name="postal_code" autocomplete="postal-code" />
      <Field label={t('tax.addressCountry')} name="address_country" required autocomplete="country" />
      <label>
        {t('tax.tin')} <span class="hint">{t('tax.tinHint')}</span>
        <input name="tin" required maxLength={40} autocomplete="off" />
      </label>
      {kind === 'w8ben' && (
        <label>
          {t('tax.dateOfBirth')}
          <input name="date_of_birth" type="date" required autocomplete="bday" />
        </label>
      )}
      <Field label={t('tax.signature')} name="signature" required />
      <Saving error={submit.error} done={done && t('tax.saved')} busy={submit.busy} label={t('tax.save')} />
    </form>
  );
}

/** The panel, for the partner the place shows. */
export function TaxForm({ place }: { place: PaymentPlace }) {
  const { t } = place;
  const loaded = useLoad((signal) => place.taxForm(signal), place.key);
  const [latest, setLatest] = useState<{ key: string; s: Status }>();
  return (
    <section class="panel" aria-labelledby="tax-form">
      <h2 id="tax-form">{t('tax.title')}</h2>
      <p class="hint">{t('tax.intro')}</p>
      <Show loaded={loaded}>
        {(answer) => (
          <>
            <Given s={latest?.key === place.key ? latest.s : answer} t={t} />
            <TaxFormForm key={place.key} place={place} given={(s) => setLatest({ key: place.key, s })} />
          </>
        )}
      </Show>
    </section>
  );
}
