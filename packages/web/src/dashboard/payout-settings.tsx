// Settings → Integrations, for paying partners (docs/payouts.md): the program's PayPal REST
// app for payout runs (the secret write-only, shown by its end), the webhook URL to enter at
// PayPal, and the program's payout settings: the methods offered, the countries each is open
// to, the payout schedule, and whether a valid tax form is required before a partner is paid.

import { useState } from 'preact/hooks';
import { api } from '../common/api.js';
import { Saving, text, useSubmit } from '../common/forms.js';
import { useLoad } from '../common/use-api.js';
import { CopyButton, Show } from '../common/ui.js';

const ENVIRONMENTS = {
  live: "PayPal's live API: use a live REST app's credentials.",
  sandbox: "PayPal's sandbox: use a sandbox REST app's credentials; nothing real is paid.",
  other: 'a server of its own',
} as const;

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
          <span class={`state ${connected ? 'connected' : 'unconnected'}`}>{connected ? 'Connected' : 'Not connected'}</span>
        )}
      </div>
      <Show loaded={loaded}>
        {({ data: p }) => (
          <>
            <p>
              Payout runs pay partners who chose PayPal through PayPal's Payouts API. This server calls{' '}
              {p.environment === 'other' ? (
                <>
                  {ENVIRONMENTS.other}, <code>{p.api_url}</code>
                </>
              ) : (
                ENVIRONMENTS[p.environment]
              )}{' '}
              <span class="hint">(PAYPAL_API_URL in the server's settings chooses sandbox or live.)</span>
            </p>
            <ol class="steps">
              <li>
                In PayPal's developer dashboard, Apps &amp; Credentials, make a REST app with Payouts and copy its client id and secret.
              </li>
              <li>
                Add a webhook to the app with this URL, for the <code>PAYMENT.PAYOUTS-ITEM.*</code> events:{' '}
                <code class="secret">{p.webhook_url}</code> <CopyButton text={p.webhook_url} label="Copy URL" />
              </li>
              <li>Paste the client id, the secret and the webhook's id here.</li>
            </ol>
            {owner ? (
              <form onSubmit={onSubmit} aria-label="PayPal REST app">
                <div class="fields">
                  <label>
                    Client id
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
                    Secret{' '}
                    <span class="hint">
                      {p.client_secret_hint ? `(set: ${p.client_secret_hint}; type it again to change the app)` : ''}
                    </span>
                    <input name="client_secret" type="password" required maxLength={200} autocomplete="new-password" />
                  </label>
                  <label>
                    Webhook id <span class="hint">(optional until the webhook exists)</span>
                    <input name="webhook_id" maxLength={100} autocomplete="off" spellcheck={false} defaultValue={p.webhook_id ?? ''} />
                  </label>
                </div>
                <Saving error={error} done={done} busy={busy} label="Save PayPal app" />
              </form>
            ) : (
              <p class="hint">Only an owner sets the PayPal app{p.client_id ? `: client id ${p.client_id}` : ''}.</p>
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

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
type Every = 'off' | 'weekly' | 'monthly';

/** The schedule in words, as the form shows it saved. */
const scheduleWords = (s: { every: Every; day: number; time_zone: string }) =>
  s.every === 'off'
    ? 'No run is made by itself: an admin makes each one.'
    : `A draft run is made ${s.every === 'weekly' ? `every ${WEEKDAYS[s.day - 1]}` : `on day ${s.day} of every month`} at midnight (${s.time_zone}), and waits for an owner to approve it.`;

/** When Tally makes a draft payout run by itself: off, weekly on a weekday, monthly on a day, in a time zone. */
function ScheduleFields({ schedule, owner }: { schedule: { every: Every; day: number; time_zone: string }; owner: boolean }) {
  const [every, setEvery] = useState<Every>(schedule.every);
  const days =
    every === 'weekly' ? WEEKDAYS.map((name, i) => [i + 1, name] as const) : [...Array(28)].map((_, i) => [i + 1, String(i + 1)] as const);
  return (
    <fieldset class="choices" disabled={!owner}>
      <legend>Payout schedule</legend>
      <p class="hint" id="schedule-now">
        {scheduleWords(schedule)}
      </p>
      <div class="fields">
        <label>
          Make a run
          <select name="schedule_every" value={every} onChange={(e) => setEvery((e.target as HTMLSelectElement).value as Every)}>
            <option value="off">Off</option>
            <option value="weekly">Weekly</option>
            <option value="monthly">Monthly</option>
          </select>
        </label>
        {every !== 'off' && (
          <>
            <label>
              {every === 'weekly' ? 'On' : 'On day'}
              <select name="schedule_day" key={every} defaultValue={String(every === schedule.every ? schedule.day : 1)}>
                {days.map(([value, name]) => (
                  <option key={value} value={String(value)}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Time zone <span class="hint">(an IANA name such as Europe/Paris)</span>
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
      <h3 id="payout-settings-title">Payout methods</h3>
      <Show loaded={loaded}>
        {({ settings, taxRequired }) => (
          <form onSubmit={onSubmit} aria-label="Payout methods">
            <fieldset class="choices" disabled={!owner}>
              <legend>Methods partners may choose, and where</legend>
              {METHODS.map(([m, title]) => (
                <div class="fields" key={m}>
                  <label class="check">
                    <input type="checkbox" name="offered" value={m} defaultChecked={settings.offered.includes(m)} /> {title}
                  </label>
                  <label>
                    Only in these countries <span class="hint">(codes such as DE, FR; empty: every country)</span>
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
              <input type="checkbox" name="tax_form_required" defaultChecked={taxRequired} disabled={!owner} /> Require a valid tax form
              (W-9 or W-8) before paying a partner
            </label>
            {owner ? (
              <Saving error={error} done={done} busy={busy} label="Save payout methods" />
            ) : (
              <p class="hint">Only an owner changes them.</p>
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
