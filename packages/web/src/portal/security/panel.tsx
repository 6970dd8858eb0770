// The Security panel of the portal's Settings: whether two-step sign-in is on, and the way to
// its page (page.tsx), which loads when first opened.

import { api } from '../../common/api.js';
import { useLoad } from '../../common/use-api.js';
import { Show } from '../../common/ui.js';
import { href, usePortal } from '../session.js';
import { t } from './words.js';

export function SecurityPanel() {
  const { current } = usePortal();
  const factors = useLoad((signal) => api.GET('/v1/portal/auth/factors', { signal }), 'portal-factors');
  return (
    <section class="panel" aria-labelledby="security-panel">
      <h2 id="security-panel">{t('panel.title')}</h2>
      <Show loaded={factors}>{(answer) => <p>{answer.data.length > 0 ? t('panel.on') : t('panel.off')}</p>}</Show>
      <p>
        <a href={href('/settings/security', current?.id)}>{t('panel.manage')}</a>
      </p>
    </section>
  );
}
