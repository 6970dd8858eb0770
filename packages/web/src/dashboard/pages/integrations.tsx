// Settings' integrations: each billing platform (billing.ts) connected step by step, in one
// component over the platform's name. The API says where to go in the platform, the URL to
// enter there and the events to select; the secret the platform then shows is pasted back
// here. Several secrets may be set at once (a rotation; test mode beside live mode), each
// shown only by its last letters; a platform with one is connected. Lemon Squeezy's card
// also takes the program's API key for it (api-key.tsx, as Stripe's in Promotion codes):
// its order webhooks name no discount code, so with a key Tally asks its API for an order's.
// After them, paying partners: PayPal for payout runs and the payout methods (payouts/settings.tsx).

import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { dateTime } from '../../common/format.js';
import { Confirm, Saving, text, useSubmit } from '../../common/forms.js';
import { useLoad } from '../../common/use-api.js';
import { CopyButton, Show, Table, type Column } from '../../common/ui.js';
import { ApiKey } from '../api-key.js';
import { PlatformCredential } from '../platform-credential.js';
import { PLATFORM_TITLES, PLATFORMS, type Platform } from '../billing.js';
import { Payments } from '../payouts/settings.js';
import { href, useRole } from '../session.js';
import { TRACK_CALL } from '../track-call.js';

type Connection = Answer<'/v1/integrations/stripe'>['data']['attributes'];
type Program = Answer<'/v1/program'>['data'];
/** The program, once Settings loaded it, and how to load it again once a key changed. */
interface WithProgram {
  program: Program | undefined;
  saved: () => void;
}
type Secret = Connection['secrets'][number];

/**
 * What each platform calls the secret it shows and what it looks like there, and how a
 * checkout on it passes the visitor's click id (the collector reads these fields).
 */
const SECRET: Record<Platform, { name: string; looks: string; clickId: ComponentChildren }> = {
  stripe: {
    name: 'Signing secret',
    looks: 'whsec_…',
    clickId: (
      <>
        to Checkout as <code>client_reference_id</code>, or in the customer's metadata as <code>tally_gr_id</code>
      </>
    ),
  },
  paddle: {
    name: 'Secret key',
    looks: 'pdl_ntfset_…',
    clickId: (
      <>
        in the checkout's custom data as <code>tally_gr_id</code> (Paddle.js: <code>customData</code>)
      </>
    ),
  },
  lemonsqueezy: {
    name: 'Signing secret',
    looks: 'the one you typed there: 6 to 40 characters',
    clickId: (
      <>
        in the checkout's custom data as <code>tally_gr_id</code> (<code>checkout[custom][tally_gr_id]</code>)
      </>
    ),
  },
  chargebee: {
    name: 'Basic auth username:password',
    looks: "the webhook's, as you set them there: username:password",
    clickId: (
      <>
        in the customer's or subscription's custom field <code>cf_tally_gr_id</code>, or their <code>meta_data</code> as{' '}
        <code>tally_gr_id</code>
      </>
    ),
  },
  recurly: {
    name: 'Secret key',
    looks: "the webhook endpoint's, as Recurly shows it",
    clickId: (
      <>
        in the account's custom field <code>tally_gr_id</code> (made first in Recurly's Configuration → Custom Fields)
      </>
    ),
  },
  shopify: {
    name: 'Signing key',
    looks: '64 hex digits, shown under the webhooks; or your app’s client secret',
    clickId: (
      <>
        in the cart's attributes as <code>tally_gr_id</code> (the theme snippet in docs/shopify.md: <code>/cart/update.js</code>)
      </>
    ),
  },
};

function AddSecret({ platform, first, added }: { platform: Platform; first: boolean; added: () => void }) {
  const [done, setDone] = useState(false);
  const secret = SECRET[platform];
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
    <form class="add-secret" onSubmit={onSubmit} aria-label={`Add a ${PLATFORM_TITLES[platform]} secret`}>
      <div class="fields">
        <label>
          {secret.name} <span class="hint">({secret.looks})</span>
          <input name="secret" required maxLength={300} autocomplete="off" spellcheck={false} />
        </label>
        <label>
          Label <span class="hint">(optional: live, test…)</span>
          <input name="label" maxLength={100} autocomplete="off" />
        </label>
      </div>
      {/* The API's sentence says what a secret of this platform looks like when it refuses one. */}
      <Saving error={error} done={done} busy={busy} label={first ? 'Connect' : 'Add secret'} />
    </form>
  );
}

/** What a platform's API is asked with the program's credential (platform-credential.tsx), and what happens without it. */
const CREDENTIAL_WHY: Partial<Record<Platform, string>> = {
  chargebee:
    "With them, Tally reads each event back from Chargebee before acting on it, and refuses one Chargebee does not have. Without them, an event is trusted on its webhook's username and password alone.",
  recurly:
    "Recurly's notifications name their invoice, account and coupons by id only: with a private API key, Tally reads them from Recurly's API. Without one, each notification Tally acts on is answered 503, so Recurly sends it again once the key is set.",
  shopify:
    "Optional: with the shop's Admin API access token (write_discounts), partners' codes with a discount are made in the shop as discount codes. Without it, make them in Shopify's Discounts with the same text: orders credit by the code either way.",
};

/** "Label (whsec_…abcd)", or the hint alone. */
const secretName = (s: Secret) => (s.attributes.label ? `${s.attributes.label} (${s.attributes.hint})` : s.attributes.hint);

/** Lemon Squeezy's API key, with which Tally reads the discount code an order used. */
function LemonSqueezyKey({ program, saved }: { program: Program; saved: () => void }) {
  return (
    <ApiKey
      field="lemonsqueezy_api_key"
      program={program}
      saved={saved}
      title="Lemon Squeezy API key"
      level={4}
      label={{ set: 'API key', replace: 'Replace it with another API key' }}
      where={<>a long token: in Lemon Squeezy, Settings → API → the + button; it is shown once</>}
      maxLength={4000}
      removed="Removed. Orders credit by link and e-mail only."
      removing={<>Tally stops asking Lemon Squeezy which discount code an order used: orders credit by link and e-mail only.</>}
    >
      <p>
        Optional: an API key lets Tally see which discount code an order used; without it, orders credit by link and e-mail only. Lemon
        Squeezy's order webhooks do not carry the code, so Tally asks its API for the order's discount.
      </p>
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
          <>No event from {title} has arrived yet.</>
        ) : last.verified ? (
          <>
            <span class="state connected">Last event verified</span>: <code>{last.type}</code>, received {dateTime(last.received_at)}.
          </>
        ) : (
          <>
            <span class="state failed">Last event refused</span>, received {dateTime(last.received_at)}: {last.reason}. Check the secret
            pasted here is the one {title} shows for this URL.
          </>
        )}{' '}
        <button type="button" class="secondary" onClick={check}>
          Check again
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
    { label: 'Label', cell: (s) => s.attributes.label, text: (s) => s.attributes.label },
    { label: 'Secret', cell: (s) => <code>{s.attributes.hint}</code>, text: (s) => s.attributes.hint },
    { label: 'Added', cell: (s) => dateTime(s.attributes.created_at), text: (s) => String(s.attributes.created_at) },
    {
      label: 'Actions',
      cell: (s) => (
        <button type="button" class="link" aria-label={`Remove ${secretName(s)}`} onClick={() => setRemoving(s)}>
          Remove
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
            {count > 0 ? `Connected: ${count} secret${count === 1 ? '' : 's'}` : 'Not connected'}
          </span>
        )}
      </div>
      <Show loaded={loaded}>
        {({ data: { attributes: c } }) => (
          <>
            <ol class="steps">
              <li>Go to {c.setup}.</li>
              <li>
                Enter this URL as the endpoint: <code class="secret">{c.endpoint_url}</code>{' '}
                <CopyButton text={c.endpoint_url} label="Copy URL" />
                {c.local_test !== null && (
                  <p class="notice local-endpoint" role="note">
                    <strong>This URL is on this machine</strong> (PUBLIC_URL names it): {c.local_test}.
                  </p>
                )}
              </li>
              <li>
                Select these events: <CopyButton text={c.events.join('\n')} label="Copy the list" />
                <ul class="events">
                  {c.events.map((e) => (
                    <li>
                      <code>{e}</code>
                    </li>
                  ))}
                </ul>
              </li>
              <li>
                Paste the {SECRET[platform].name.toLowerCase()} {title} shows for it here. For test mode, add the test endpoint's too.
                <AddSecret platform={platform} first={c.secrets.length === 0} added={loaded.reload} />
              </li>
              <li>
                Send a test event from {title}: {c.test_event}. It shows below, and in the{' '}
                <a href={href(`/billing-events?platform_eq=${platform}`)}>billing events</a> with what it did.
              </li>
            </ol>
            <LastEvent title={title} last={c.last_event} check={loaded.reload} />
            {c.secrets.length > 0 && <Table caption={`${title} secrets`} columns={columns} rows={c.secrets} />}
            <p class="hint">
              Tell {title} who referred the customer: pass the visitor's click id (the snippet gives it to your page with{' '}
              <code>gr('ready', …)</code>) {SECRET[platform].clickId}. Without it, the customer is matched by e-mail to the referral{' '}
              <code>{TRACK_CALL}</code> recorded.
            </p>
            {platform === 'lemonsqueezy' && program && <LemonSqueezyKey program={program} saved={saved} />}
            {c.credential_fields.length > 0 && (
              <PlatformCredential
                platform={platform}
                title={title}
                fields={c.credential_fields}
                hints={c.credential}
                why={CREDENTIAL_WHY[platform] ?? ''}
                saved={loaded.reload}
              />
            )}
          </>
        )}
      </Show>
      {removing && (
        <Confirm
          title={`Remove the ${title} secret ${secretName(removing)}?`}
          confirm="Remove"
          danger
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await api.DELETE(`/v1/integrations/${platform}/secrets/{id}`, { params: { path: { id: removing.id } } });
            loaded.reload();
          }}
        >
          <p>
            Events signed with it are refused from now on.{' '}
            {count === 1
              ? `It is the last one: ${title} is no longer connected, and its events are refused until you add another.`
              : `Remove it once ${title} signs with the new one.`}
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
      <h2 id="integrations-title">Integrations</h2>
      <p>
        Connect the platform that bills your customers and commissions arrive by themselves: a payment earns its partner a commission, a
        refund takes it back. Connect each one you use.
      </p>
      {PLATFORMS.map((p) => (
        <Integration key={p} platform={p} program={program} saved={saved} />
      ))}
      <p>Paying partners: the PayPal app payout runs pay through, and the payout methods partners may choose.</p>
      <Payments owner={role === 'owner'} />
    </section>
  );
}
