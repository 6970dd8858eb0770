// Settings' integrations: each billing platform (../billing.ts) connected step by step, in one
// component over the platform's name. The API says where to go in the platform, the URL to
// enter there and the events to select; the secret the platform then shows is pasted back
// here. Several secrets may be set at once (a rotation; test mode beside live mode), each
// shown only by its last letters; a platform with one is connected. Lemon Squeezy's card
// also takes the program's API key for it (api-key.tsx, as Stripe's in Promotion codes):
// its order webhooks name no discount code, so with a key Tally asks its API for an order's.
// After them, paying partners: PayPal for payout runs and the payout methods (../payouts/settings.tsx).

import { useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { dateTime } from '../../common/format.js';
import { Confirm, Saving, text, useSubmit } from '../../common/forms.js';
import { useLoad } from '../../common/use-api.js';
import { CopyButton, Show, Table, type Column } from '../../common/ui.js';
import { ApiKey } from './api-key.js';
import { PlatformCredential } from './platform-credential.js';
import { PLATFORM_TITLES, PLATFORMS, type Platform } from '../billing.js';
import { Payments } from '../payouts/settings.js';
import { href, useRole } from '../session.js';
import { TRACK_CALL } from '../track-call.js';
import { t, tx } from './words.js';

type Connection = Answer<'/v1/integrations/stripe'>['data']['attributes'];
type Program = Answer<'/v1/program'>['data'];
/** The program, once Settings loaded it, and how to load it again once a key changed. */
interface WithProgram {
  program: Program | undefined;
  saved: () => void;
}
type Secret = Connection['secrets'][number];

/**
 * The fields a checkout on each platform passes the visitor's click id in (the collector
 * reads these), in the order the catalogue's sentence (`integrations.clickId`) names them:
 * {{code1}}, {{code2}}…
 */
const CLICK_ID_FIELDS: Record<Platform, readonly string[]> = {
  stripe: ['client_reference_id', 'tally_gr_id'],
  paddle: ['tally_gr_id', 'customData'],
  lemonsqueezy: ['tally_gr_id', 'checkout[custom][tally_gr_id]'],
  chargebee: ['cf_tally_gr_id', 'meta_data', 'tally_gr_id'],
  recurly: ['tally_gr_id'],
  shopify: ['tally_gr_id', '/cart/update.js'],
};

const clickIdWhere = (platform: Platform) =>
  tx(
    `integrations.clickId.${platform}`,
    Object.fromEntries(CLICK_ID_FIELDS[platform].map((field, i) => [`code${i + 1}`, <code>{field}</code>])),
  );

/** What the platform calls the secret it shows (its field's label). */
const secretCalled = (platform: Platform) => t(`integrations.secret.${platform}.name`);

function AddSecret({ platform, first, added }: { platform: Platform; first: boolean; added: () => void }) {
  const [done, setDone] = useState(false);
  const { error, busy, onSubmit } = useSubmit(async (form, el) => {
    setDone(false);
    await api.POST(`/v1/integrations/${platform}/secrets`, {
      body: { secret: text(form, 'secret').trim(), label: text(form, 'label').trim() || undefined },
    });
    el.reset();
    setDone(true);
    added();
  });
  return (
    <form class="add-secret" onSubmit={onSubmit} aria-label={t('integrations.addSecret', { platform: PLATFORM_TITLES[platform] })}>
      <div class="fields">
        <label>
          {secretCalled(platform)} <span class="hint">({t(`integrations.secret.${platform}.looks`)})</span>
          <input name="secret" required maxLength={300} autocomplete="off" spellcheck={false} />
        </label>
        <label>
          {t('label')} <span class="hint">{t('integrations.labelHint')}</span>
          <input name="label" maxLength={100} autocomplete="off" />
        </label>
      </div>
      {/* The API's sentence says what a secret of this platform looks like when it refuses one. */}
      <Saving error={error} done={done} busy={busy} label={first ? t('integrations.connect') : t('integrations.add')} />
    </form>
  );
}

/** What a platform's API is asked with the program's credential (platform-credential.tsx), and what happens without it. */
const WITH_CREDENTIAL = ['chargebee', 'recurly', 'shopify'] as const satisfies readonly Platform[];
const credentialWhy = (platform: Platform): string =>
  (WITH_CREDENTIAL as readonly Platform[]).includes(platform) ? t(`integrations.why.${platform as (typeof WITH_CREDENTIAL)[number]}`) : '';

/** "Label (whsec_…abcd)", or the hint alone. */
const secretName = (s: Secret) => (s.attributes.label ? `${s.attributes.label} (${s.attributes.hint})` : s.attributes.hint);

/** Lemon Squeezy's API key, with which Tally reads the discount code an order used. */
function LemonSqueezyKey({ program, saved }: { program: Program; saved: () => void }) {
  return (
    <ApiKey
      field="lemonsqueezy_api_key"
      program={program}
      saved={saved}
      title={t('integrations.lemonsqueezy.title')}
      level={4}
      label={{ set: t('integrations.lemonsqueezy.set'), replace: t('integrations.lemonsqueezy.replace') }}
      where={t('integrations.lemonsqueezy.where')}
      maxLength={4000}
      removed={t('integrations.lemonsqueezy.removed')}
      removing={t('integrations.lemonsqueezy.removing')}
    >
      <p>{t('integrations.lemonsqueezy.intro')}</p>
    </ApiKey>
  );
}

/**
 * When the platform's last event arrived and whether it verified, so that a test event sent
 * from the platform is seen to land; "Check again" asks the collector anew.
 */
function LastEvent({ title, last, check }: { title: string; last: Connection['last_event']; check: () => void }) {
  return (
    <div class="last-event" aria-live="polite">
      <p>
        {last === null ? (
          t('integrations.noEvent', { platform: title })
        ) : last.verified ? (
          <>
            <span class="state connected">{t('integrations.verified')}</span>
            {tx('integrations.verifiedText', { type: <code>{last.type}</code>, date: dateTime(last.received_at) })}
          </>
        ) : (
          <>
            <span class="state failed">{t('integrations.refused')}</span>
            {t('integrations.refusedText', { date: dateTime(last.received_at), reason: last.reason ?? '', platform: title })}
          </>
        )}{' '}
        <button type="button" class="secondary" onClick={check}>
          {t('integrations.checkAgain')}
        </button>
      </p>
    </div>
  );
}

function Integration({ platform, program, saved }: { platform: Platform } & WithProgram) {
  const title = PLATFORM_TITLES[platform];
  const loaded = useLoad((signal) => api.GET(`/v1/integrations/${platform}`, { signal }), platform);
  const [removing, setRemoving] = useState<Secret | null>(null);
  const count = loaded.data?.data.attributes.secrets.length;
  const columns: Column<Secret>[] = [
    { label: t('label'), cell: (s) => s.attributes.label, text: (s) => s.attributes.label },
    { label: t('secret'), cell: (s) => <code>{s.attributes.hint}</code>, text: (s) => s.attributes.hint },
    { label: t('integrations.added'), cell: (s) => dateTime(s.attributes.created_at), text: (s) => String(s.attributes.created_at) },
    {
      label: t('actions'),
      cell: (s) => (
        <button
          type="button"
          class="link"
          aria-label={t('integrations.removeSecret', { secret: secretName(s) })}
          onClick={() => setRemoving(s)}
        >
          {t('remove')}
        </button>
      ),
    },
  ];
  return (
    <section class="integration" id={platform} aria-labelledby={`${platform}-title`}>
      <div class="panel-head">
        <h3 id={`${platform}-title`}>{title}</h3>
        {count !== undefined && (
          <span class={`state ${count > 0 ? 'connected' : 'unconnected'}`}>
            {count > 0 ? t('integrations.connected', { count }) : t('integrations.notConnected')}
          </span>
        )}
      </div>
      <Show loaded={loaded}>
        {({ data: { attributes: c } }) => (
          <>
            <ol class="steps">
              <li>{t('integrations.goTo', { where: c.setup })}</li>
              <li>
                {tx('integrations.enterUrl', {
                  url: <code class="secret">{c.endpoint_url}</code>,
                  copy: <CopyButton text={c.endpoint_url} label={t('integrations.copyUrl')} />,
                })}
                {c.local_test !== null && (
                  <p class="notice local-endpoint" role="note">
                    <strong>{t('integrations.local')}</strong>
                    {t('integrations.localText', { how: c.local_test })}
                  </p>
                )}
              </li>
              <li>
                {tx('integrations.selectEvents', { copy: <CopyButton text={c.events.join('\n')} label={t('integrations.copyList')} /> })}
                <ul class="events">
                  {c.events.map((e) => (
                    <li>
                      <code>{e}</code>
                    </li>
                  ))}
                </ul>
              </li>
              <li>
                {t('integrations.paste', { secret: t(`integrations.secret.${platform}.pasted`), platform: title })}
                <AddSecret platform={platform} first={c.secrets.length === 0} added={loaded.reload} />
              </li>
              <li>
                {tx('integrations.testEvent', {
                  platform: title,
                  how: c.test_event,
                  events: <a href={href(`/billing-events?platform_eq=${platform}`)}>{t('integrations.billingEvents')}</a>,
                })}
              </li>
            </ol>
            <LastEvent title={title} last={c.last_event} check={loaded.reload} />
            {c.secrets.length > 0 && <Table caption={t('integrations.secrets', { platform: title })} columns={columns} rows={c.secrets} />}
            <p class="hint">
              {tx('integrations.tell', {
                platform: title,
                ready: <code>gr('ready', …)</code>,
                where: clickIdWhere(platform),
                call: <code>{TRACK_CALL}</code>,
              })}
            </p>
            {platform === 'lemonsqueezy' && program && <LemonSqueezyKey program={program} saved={saved} />}
            {c.credential_fields.length > 0 && (
              <PlatformCredential
                platform={platform}
                title={title}
                fields={c.credential_fields}
                hints={c.credential}
                why={credentialWhy(platform)}
                saved={loaded.reload}
              />
            )}
          </>
        )}
      </Show>
      {removing && (
        <Confirm
          title={t('integrations.removeTitle', { platform: title, secret: secretName(removing) })}
          confirm={t('remove')}
          danger
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await api.DELETE(`/v1/integrations/${platform}/secrets/{id}`, { params: { path: { id: removing.id } } });
            loaded.reload();
          }}
        >
          <p>
            {t('integrations.removeText')}{' '}
            {count === 1 ? t('integrations.lastOne', { platform: title }) : t('integrations.notLast', { platform: title })}
          </p>
        </Confirm>
      )}
    </section>
  );
}

export function Integrations({ program, saved }: WithProgram) {
  const role = useRole();
  return (
    <section class="panel" id="integrations" aria-labelledby="integrations-title">
      <h2 id="integrations-title">{t('sections.integrations')}</h2>
      <p>{t('integrations.intro')}</p>
      {PLATFORMS.map((p) => (
        <Integration key={p} platform={p} program={program} saved={saved} />
      ))}
      <p>{t('integrations.payingPartners')}</p>
      <Payments owner={role === 'owner'} />
    </section>
  );
}
