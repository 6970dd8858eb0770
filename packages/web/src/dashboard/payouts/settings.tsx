// Settings → Integrations, for paying partners (docs/payouts.md): the program's PayPal REST
// app for payout runs (the secret write-only, shown by its end), the webhook URL to enter at
// PayPal, and the program's payout settings: the methods offered, the countries each is open
// to, the payout schedule, and whether a valid tax form is required before a partner is paid.

import { useState } from 'preact/hooks';
import { api } from '../../common/api.js';
import { int } from '../../common/format.js';
import { Saving, text, useSubmit } from '../../common/forms.js';
import { useLoad } from '../../common/use-api.js';
import { CopyButton, Show } from '../../common/ui.js';
import { t, tx } from './words.js';

function PaypalPayouts({ owner }: { owner: boolean }) {
  const loaded = useLoad((signal) => api.GET('/v1/integrations/paypal', { signal }), 'paypal');
  const [done, setDone] = useState(false);
  const { error, busy, onSubmit } = useSubmit(async (form, el) => {
    setDone(false);
    await api.PATCH('/v1/integrations/paypal', {
      body: {
        client_id: text(form, 'client_id').trim(),
        client_secret: text(form, 'client_secret').trim(),
        webhook_id: text(form, 'webhook_id').trim() || null,
      },
    });
    // The secret is write-only: the field empties, and the card shows only its end.
    (el.elements.namedItem('client_secret') as HTMLInputElement).value = '';
    setDone(true);
    loaded.reload();
  });
  const connected = loaded.data ? loaded.data.data.client_id !== null : undefined;
  return (
    <section class="integration" id="paypal" aria-labelledby="paypal-title">
      <div class="panel-head">
        <h3 id="paypal-title">PayPal Payouts</h3>
        {connected !== undefined && (
          <span class={`state ${connected ? 'connected' : 'unconnected'}`}>
            {connected ? t('paypal.connected') : t('paypal.notConnected')}
          </span>
        )}
      </div>
      <Show loaded={loaded}>
        {({ data: p }) => (
          <>
            <p>
              {tx('paypal.intro', {
                where: p.environment === 'other' ? tx('paypal.other', { url: <code>{p.api_url}</code> }) : t(`paypal.${p.environment}`),
              })}{' '}
              <span class="hint">{t('paypal.setting')}</span>
            </p>
            <ol class="steps">
              <li>{t('paypal.step1')}</li>
              <li>
                {tx('paypal.step2', {
                  events: <code>PAYMENT.PAYOUTS-ITEM.*</code>,
                  url: <code class="secret">{p.webhook_url}</code>,
                })}{' '}
                <CopyButton text={p.webhook_url} label={t('paypal.copy')} />
              </li>
              <li>{t('paypal.step3')}</li>
            </ol>
            {owner ? (
              <form onSubmit={onSubmit} aria-label={t('paypal.form')}>
                <div class="fields">
                  <label>
                    {t('paypal.clientId')}
                    <input
                      name="client_id"
                      required
                      maxLength={200}
                      autocomplete="off"
                      spellcheck={false}
                      defaultValue={p.client_id ?? ''}
                    />
                  </label>
                  <label>
                    {t('paypal.secret')}{' '}
                    <span class="hint">{p.client_secret_hint ? t('paypal.secretSet', { hint: p.client_secret_hint }) : ''}</span>
                    <input name="client_secret" type="password" required maxLength={200} autocomplete="new-password" />
                  </label>
                  <label>
                    {t('paypal.webhookId')} <span class="hint">{t('paypal.webhookHint')}</span>
                    <input name="webhook_id" maxLength={100} autocomplete="off" spellcheck={false} defaultValue={p.webhook_id ?? ''} />
                  </label>
                </div>
                <Saving error={error} done={done} busy={busy} label={t('paypal.save')} />
              </form>
            ) : (
              <p class="hint">{p.client_id ? t('paypal.ownerOnlyId', { id: p.client_id }) : t('paypal.ownerOnly')}</p>
            )}
          </>
        )}
      </Show>
    </section>
  );
}

const METHODS = [
  ['paypal', 'PayPal'],
  ['stripe_connect', 'Stripe Connect'],
  ['wise', 'Wise'],
] as const;
type Method = (typeof METHODS)[number][0];

/** "de, AT fr" → ['DE', 'AT', 'FR']. */
const countriesIn = (value: string) =>
  value
    .split(/[\s,;]+/)
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);

/** ISO weekdays: day 1 is Monday. */
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const weekday = (day: number) => t(`schedule.weekdays.${WEEKDAYS[day - 1] ?? 'mon'}`);
type Every = 'off' | 'weekly' | 'monthly';

/** The schedule in words, as the form shows it saved. */
function scheduleWords(s: { every: Every; day: number; time_zone: string }): string {
  if (s.every === 'off') return t('schedule.off');
  return s.every === 'weekly'
    ? t('schedule.weeklyText', { weekday: weekday(s.day), zone: s.time_zone })
    : t('schedule.monthlyText', { day: int(s.day), zone: s.time_zone });
}

/** When Tally makes a draft payout run by itself: off, weekly on a weekday, monthly on a day, in a time zone. */
function ScheduleFields({ schedule, owner }: { schedule: { every: Every; day: number; time_zone: string }; owner: boolean }) {
  const [every, setEvery] = useState<Every>(schedule.every);
  const days =
    every === 'weekly'
      ? WEEKDAYS.map((_, i) => [i + 1, weekday(i + 1)] as const)
      : [...Array(28)].map((_, i) => [i + 1, int(i + 1)] as const);
  return (
    <fieldset class="choices" disabled={!owner}>
      <legend>{t('schedule.legend')}</legend>
      <p class="hint" id="schedule-now">
        {scheduleWords(schedule)}
      </p>
      <div class="fields">
        <label>
          {t('schedule.make')}
          <select name="schedule_every" value={every} onChange={(e) => setEvery((e.target as HTMLSelectElement).value as Every)}>
            <option value="off">{t('schedule.every.off')}</option>
            <option value="weekly">{t('schedule.every.weekly')}</option>
            <option value="monthly">{t('schedule.every.monthly')}</option>
          </select>
        </label>
        {every !== 'off' && (
          <>
            <label>
              {every === 'weekly' ? t('schedule.on') : t('schedule.onDay')}
              <select name="schedule_day" key={every} defaultValue={String(every === schedule.every ? schedule.day : 1)}>
                {days.map(([value, name]) => (
                  <option key={value} value={String(value)}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {t('schedule.zone')} <span class="hint">{t('schedule.zoneHint')}</span>
              <input
                name="schedule_time_zone"
                required
                maxLength={64}
                autocomplete="off"
                spellcheck={false}
                defaultValue={schedule.time_zone}
              />
            </label>
          </>
        )}
      </div>
    </fieldset>
  );
}

/** The form's schedule, as PATCH takes it. */
function scheduleIn(form: FormData) {
  const every = text(form, 'schedule_every') as Every;
  if (every === 'off') return { every };
  return { every, day: Number(text(form, 'schedule_day')), time_zone: text(form, 'schedule_time_zone').trim() };
}

function PayoutRules({ owner }: { owner: boolean }) {
  const loaded = useLoad(async (signal) => {
    const [settings, tax] = await Promise.all([
      api.GET('/v1/program/payout_settings', { signal }),
      api.GET('/v1/tax_forms/settings', { signal }),
    ]);
    return { settings: settings.data.attributes, taxRequired: tax.data.tax_form_required };
  }, 'payout-settings');
  const [done, setDone] = useState(false);
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    setDone(false);
    const offered = form.getAll('offered').map(String) as Method[];
    // A method without countries is open to every country: its key is left out.
    const countries: Partial<Record<Method, string[]>> = {};
    for (const [m] of METHODS) {
      const list = countriesIn(text(form, `countries_${m}`));
      if (list.length > 0) countries[m] = list;
    }
    await api.PATCH('/v1/program/payout_settings', { body: { offered, countries, schedule: scheduleIn(form) } });
    await api.PATCH('/v1/tax_forms/settings', { body: { tax_form_required: form.get('tax_form_required') === 'on' } });
    setDone(true);
    loaded.reload();
  });
  return (
    <section class="integration" id="payout-settings" aria-labelledby="payout-settings-title">
      <h3 id="payout-settings-title">{t('methods.title')}</h3>
      <Show loaded={loaded}>
        {({ settings, taxRequired }) => (
          <form onSubmit={onSubmit} aria-label={t('methods.title')}>
            <fieldset class="choices" disabled={!owner}>
              <legend>{t('methods.legend')}</legend>
              {METHODS.map(([m, title]) => (
                <div class="fields" key={m}>
                  <label class="check">
                    <input type="checkbox" name="offered" value={m} defaultChecked={settings.offered.includes(m)} /> {title}
                  </label>
                  <label>
                    {t('methods.countries')} <span class="hint">{t('methods.countriesHint')}</span>
                    <input
                      name={`countries_${m}`}
                      autocomplete="off"
                      spellcheck={false}
                      defaultValue={(settings.countries[m] ?? []).join(', ')}
                    />
                  </label>
                </div>
              ))}
            </fieldset>
            <ScheduleFields schedule={settings.schedule} owner={owner} />
            <label class="check">
              <input type="checkbox" name="tax_form_required" defaultChecked={taxRequired} disabled={!owner} /> {t('methods.taxForm')}
            </label>
            {owner ? (
              <Saving error={error} done={done} busy={busy} label={t('methods.save')} />
            ) : (
              <p class="hint">{t('methods.ownerOnly')}</p>
            )}
          </form>
        )}
      </Show>
    </section>
  );
}

/** Both, after the billing platforms in Integrations. */
export function Payments({ owner }: { owner: boolean }) {
  return (
    <>
      <PaypalPayouts owner={owner} />
      <PayoutRules owner={owner} />
    </>
  );
}
