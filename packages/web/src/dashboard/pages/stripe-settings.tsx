// Connecting Stripe, step by step: the URL to enter in Stripe, the events to select, and
// the signing secret Stripe then shows, pasted back here. Several secrets may be set at
// once (a rotation; test mode beside live mode); each is shown only by its last letters.

import { useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { dateTime } from '../../common/format.js';
import { Confirm, text, useSubmit } from '../../common/forms.js';
import { useLoad } from '../../common/use-api.js';
import { CopyButton, Failure, Show, Table, type Column } from '../../common/ui.js';
import { href } from '../session.js';

type Connection = Answer<'/v1/integrations/stripe'>['data']['attributes'];
type Secret = Connection['secrets'][number];

function AddSecret({ added, first }: { added: () => void; first: boolean }) {
  const [done, setDone] = useState(false);
  const { error, busy, onSubmit } = useSubmit(async (form, el) => {
    setDone(false);
    await api.POST('/v1/integrations/stripe/secrets', {
      body: {
        secret: text(form, 'secret').trim(),
        label: text(form, 'label').trim() || undefined,
      },
    });
    el.reset();
    setDone(true);
    added();
  });
  return (
    <form class="inline" onSubmit={onSubmit}>
      <label>
        Signing secret <span class="hint">(whsec_…)</span>
        <input name="secret" required autocomplete="off" spellcheck={false} pattern="\s*whsec_\S+\s*" placeholder="whsec_…" />
      </label>
      <label>
        Label <span class="hint">(optional: live, test…)</span>
        <input name="label" maxLength={100} />
      </label>
      <button type="submit" disabled={busy}>
        {first ? 'Connect' : 'Add secret'}
      </button>
      {error !== undefined && <Failure error={error} />}
      {done && (
        <p role="status" class="ok">
          Saved. Send a test event from Stripe: it appears in the <a href={href('/stripe')}>Stripe events</a>.
        </p>
      )}
    </form>
  );
}

export function StripeConnection() {
  const loaded = useLoad((signal) => api.GET('/v1/integrations/stripe', { signal }), 'stripe');
  const [removing, setRemoving] = useState<Secret | null>(null);
  const columns: Column<Secret>[] = [
    { label: 'Label', cell: (s) => s.attributes.label, text: (s) => s.attributes.label },
    { label: 'Secret', cell: (s) => <code>{s.attributes.hint}</code>, text: (s) => s.attributes.hint },
    { label: 'Added', cell: (s) => dateTime(s.attributes.created_at), text: (s) => String(s.attributes.created_at) },
    {
      label: 'Actions',
      cell: (s) => (
        <button type="button" class="link" onClick={() => setRemoving(s)}>
          Remove
        </button>
      ),
    },
  ];
  return (
    <section class="panel" id="stripe" aria-labelledby="stripe-title">
      <h2 id="stripe-title">Stripe</h2>
      <Show loaded={loaded}>
        {({ data: { attributes: c } }) => (
          <>
            <p>
              Connect Stripe and commissions arrive by themselves: a payment earns its partner a commission, a refund takes it back.{' '}
              {c.secrets.length > 0 ? 'Connected.' : 'Not connected yet.'}
            </p>
            <ol class="steps">
              <li>
                In Stripe, open <strong>Developers → Webhooks</strong> and choose <strong>Add endpoint</strong>.
              </li>
              <li>
                As the endpoint URL, enter <code class="secret">{c.endpoint_url}</code>{' '}
                <CopyButton text={c.endpoint_url} label="Copy URL" />
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
                Save the endpoint, reveal its <strong>Signing secret</strong> and paste it here. For test mode, add the test endpoint's
                secret too.
              </li>
            </ol>
            <AddSecret added={loaded.reload} first={c.secrets.length === 0} />
            <p class="hint">
              Pass the visitor's click id to Checkout as <code>client_reference_id</code> (the snippet gives it to the page with{' '}
              <code>gr('ready', …)</code>), or put it in the customer's metadata as <code>tally_gr_id</code>: see the README's Stripe
              section.
            </p>
            {c.secrets.length > 0 && <Table caption="Stripe signing secrets" columns={columns} rows={c.secrets} />}
          </>
        )}
      </Show>
      {removing && (
        <Confirm
          title={`Remove ${removing.attributes.label} ${removing.attributes.hint}?`}
          confirm="Remove"
          danger
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await api.DELETE('/v1/integrations/stripe/secrets/{id}', { params: { path: { id: removing.id } } });
            loaded.reload();
          }}
        >
          <p>Events signed with it are refused from now on: remove it once Stripe signs with the new one.</p>
        </Confirm>
      )}
    </section>
  );
}
