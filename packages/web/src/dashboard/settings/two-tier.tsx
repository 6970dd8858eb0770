// Settings → Two-tier referrals (docs/two-tier.md): on or off, the recruiter's share (typed as
// a percentage, kept in basis points), for how many months from the recruit's application, and
// the cap per recruit in each currency (typed as the minimum payout is, one currency a line).

import { useState } from 'preact/hooks';
import { api } from '../../common/api.js';
import { minimumsText, parseDecimal, parseMinimums } from '../../common/format.js';
import { Saving, text, useSubmit } from '../../common/forms.js';
import { useLoad } from '../../common/use-api.js';
import { Show } from '../../common/ui.js';

export function TwoTierSettings() {
  const loaded = useLoad((signal) => api.GET('/v1/program/two_tier', { signal }), 'two-tier');
  const [saved, setSaved] = useState(false);
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    setSaved(false);
    const share = parseDecimal(text(form, 'share').trim(), 2);
    if (share === undefined || share < 1 || share > 10_000)
      throw new Error('Write the share as a percentage from 0.01 to 100, such as 10.');
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
      <h2>Two-tier referrals</h2>
      <p>
        A partner’s recruitment link brings other partners; the recruiter earns a share of each commission of their recruits, taken back
        with it when it is refunded. Never for recruiting oneself, and only two tiers.
      </p>
      <Show loaded={loaded}>
        {(answer) => {
          const s = answer.data.attributes;
          return (
            <form onSubmit={onSubmit}>
              <label class="check">
                <input name="enabled" type="checkbox" defaultChecked={s.enabled} /> Pay recruiters a share of their recruits’ commissions
              </label>
              <div class="row">
                <label>
                  Share, percent <span class="hint">(of each of the recruit’s commissions)</span>
                  <input name="share" inputMode="decimal" required defaultValue={String(s.share_bps / 100)} autocomplete="off" />
                </label>
                <label>
                  Duration, months <span class="hint">(from the recruit’s application; empty: forever)</span>
                  <input name="duration_months" type="number" min={1} max={1200} defaultValue={String(s.duration_months ?? '')} />
                </label>
              </div>
              <label>
                Cap per recruit <span class="hint">(one currency a line, such as USD 100.00; none: no cap)</span>
                <textarea name="caps" rows={2} defaultValue={minimumsText(s.caps)} />
              </label>
              <Saving error={error} done={saved} busy={busy} label="Save two-tier referrals" />
            </form>
          );
        }}
      </Show>
    </section>
  );
}
