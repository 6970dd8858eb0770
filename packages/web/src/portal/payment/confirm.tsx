// The page the PayPal confirmation e-mail links to (/portal/payout-confirm#token): the token
// stays in the fragment, never sent with the page, and is traded only when the partner
// presses the button, since mail scanners open every link they see (a GET confirms nothing).

import { useState } from 'preact/hooks';
import { api, ApiError } from '../../common/api.js';
import { Card, useSubmit } from '../../common/forms.js';
import { Failure } from '../../common/ui.js';
import { href } from '../session.js';
import { t } from './words.js';

export function PayoutConfirm() {
  const [token] = useState(() => location.hash.slice(1));
  const [outcome, setOutcome] = useState<'confirmed' | 'gone'>();
  const { error, busy, onSubmit } = useSubmit(async () => {
    try {
      await api.POST('/v1/portal/payout_method/confirm', { body: { token } });
      setOutcome('confirmed');
    } catch (err) {
      // One answer for unknown, used, expired or replaced: the link no longer works either way.
      if (!(err instanceof ApiError && err.status === 404)) throw err;
      setOutcome('gone');
    }
    // The token is spent (or dead): not left in the address bar or the history.
    history.replaceState(null, '', href('/payout-confirm'));
  });
  return (
    <Card title={t('confirm.title')}>
      {outcome ? (
        <p role="status" class={outcome === 'confirmed' ? 'ok' : 'hint'}>
          {outcome === 'confirmed' ? t('confirm.confirmed') : t('confirm.gone')}
        </p>
      ) : (
        <form onSubmit={onSubmit}>
          <p>{token ? t('confirm.intro') : t('confirm.gone')}</p>
          {error !== undefined ? <Failure error={error} /> : null}
          <button type="submit" disabled={busy || !token}>
            {t('confirm.button')}
          </button>
        </form>
      )}
      <p>
        <a href={href('/earnings')}>{t('confirm.toPortal')}</a>
      </p>
    </Card>
  );
}
