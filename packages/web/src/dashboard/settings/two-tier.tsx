// Settings → Two-tier referrals (docs/two-tier.md): on or off, the recruiter's share (typed as
// a percentage, kept in basis points), for how many months from the recruit's application, and
// the cap per recruit in each currency (typed as the minimum payout is, one currency a line).

import { useState } from 'preact/hooks';
import { api } from '../../common/api.js';
import { minimumsText, parseDecimal, parseMinimums } from '../../common/format.js';
import { Saving, text, useSubmit } from '../../common/forms.js';
import { useLoad } from '../../common/use-api.js';
import { Show } from '../../common/ui.js';
import { t } from './words.js';

export function TwoTierSettings() {
  const loaded = useLoad((signal) => api.GET('/v1/program/two_tier', { signal }), 'two-tier');
  const [saved, setSaved] = useState(false);
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    setSaved(false);
    const share = parseDecimal(text(form, 'share').trim(), 2);
    if (share === undefined || share < 1 || share > 10_000) throw new Error(t('twoTier.badShare'));
    const months = text(form, 'duration_months').trim();
    await api.PATCH('/v1/program/two_tier', {
      body: {
        enabled: form.get('enabled') === 'on',
        share_bps: share,
        duration_months: months === '' ? null : Number(months),
        caps: parseMinimums(text(form, 'caps').trim()),
      },
    });
    setSaved(true);
    loaded.reload();
  });
  return (
    <section class="panel">
      <h2>{t('sections.twoTier')}</h2>
      <p>{t('twoTier.intro')}</p>
      <Show loaded={loaded}>
        {(answer) => {
          const s = answer.data.attributes;
          return (
            <form onSubmit={onSubmit}>
              <label class="check">
                <input name="enabled" type="checkbox" defaultChecked={s.enabled} /> {t('twoTier.enabled')}
              </label>
              <div class="row">
                <label>
                  {t('twoTier.share')} <span class="hint">{t('twoTier.shareHint')}</span>
                  <input name="share" inputMode="decimal" required defaultValue={String(s.share_bps / 100)} autocomplete="off" />
                </label>
                <label>
                  {t('twoTier.duration')} <span class="hint">{t('twoTier.durationHint')}</span>
                  <input name="duration_months" type="number" min={1} max={1200} defaultValue={String(s.duration_months ?? '')} />
                </label>
              </div>
              <label>
                {t('twoTier.caps')} <span class="hint">{t('twoTier.capsHint')}</span>
                <textarea name="caps" rows={2} defaultValue={minimumsText(s.caps)} />
              </label>
              <Saving error={error} done={saved} busy={busy} label={t('twoTier.save')} />
            </form>
          );
        }}
      </Show>
    </section>
  );
}
