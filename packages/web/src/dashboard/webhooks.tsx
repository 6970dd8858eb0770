// What the webhook settings and an endpoint's deliveries page both show: whether the
// endpoint is sending, or why Tally stopped, and the button that sends it a test event.

import { useState } from 'preact/hooks';
import { api, type Answer } from '../common/api.js';
import { dateTime } from '../common/format.js';
import { Confirm } from '../common/forms.js';
import { href } from './session.js';
import { t } from './language.js';

export type Endpoint = Answer<'/v1/webhook_endpoints/{id}'>['data'];

/** An endpoint's own page: its deliveries and their attempts. */
export const deliveriesHref = (id: string): string => href(`/settings/webhooks/${id}`);

/**
 * Disabled, and why, in red: a 410 or five days of failures would otherwise stop
 * everything unseen. A run of failures is said too, since it leads there. The API's
 * reasons read "it answered 410 Gone" or "disabled by its owner": after "disabled:" the
 * second loses its own "disabled".
 */
export function EndpointState({ endpoint }: { endpoint: Endpoint }) {
  const a = endpoint.attributes;
  return (
    <>
      {a.enabled ? (
        <span class="state succeeded">{t('webhooks.enabled')}</span>
      ) : (
        <span class="state failed">{t('webhooks.disabled', { reason: a.disabled_reason?.replace(/^disabled /, '') ?? '' })}</span>
      )}
      {a.failing_since !== undefined && <span class="warn"> {t('webhooks.failingSince', { date: dateTime(a.failing_since) })}</span>}
    </>
  );
}

/** Sends a webhook.test event to this endpoint only (even a disabled one: that is how its owner finds out it works again), after asking. */
export function SendTest({
  endpointId,
  url,
  done,
  link,
}: {
  endpointId: string;
  url?: string;
  done: (error?: unknown) => void;
  link?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button type="button" class={link ? 'link' : 'secondary'} onClick={() => setAsking(true)}>
        {t('webhooks.sendTest')}
      </button>
      {asking && (
        <Confirm
          title={url ? t('webhooks.sendTestTo', { url }) : t('webhooks.sendTestHere')}
          confirm={t('webhooks.send')}
          onClose={() => setAsking(false)}
          onConfirm={async () => {
            await api.POST('/v1/webhook_endpoints/{id}/test', { params: { path: { id: endpointId } } });
            done();
          }}
        >
          <p>{t('webhooks.testText')}</p>
        </Confirm>
      )}
    </>
  );
}
