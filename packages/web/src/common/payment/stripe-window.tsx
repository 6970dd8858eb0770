// Continue to Stripe from inside a frame (the embed, decision 0376): Stripe's onboarding may
// not be framed, and taking over the top page would leave the company's app, so it opens in
// a window of its own. Stripe sends that window back to the embed's page, which says to close
// it; here the partner asks to read the account again once back (a button, not the
// window's focus, which would race a later read with an earlier one).

import { useState } from 'preact/hooks';
import { Saving, useSubmit } from '../forms.js';
import type { Method, PaymentPlace } from './place.js';

export function StripeWindow({ place, saved }: { place: PaymentPlace; saved: (m: Method) => void }) {
  const { t } = place;
  const [away, setAway] = useState(false);
  // Where no window may open (a frame sandboxed without pop-ups), the link to follow instead.
  const [link, setLink] = useState<string>();
  const open = useSubmit(async () => {
    // Opened at the click: one opened once the link has come would be blocked as a pop-up.
    const w = window.open('', '_blank');
    try {
      const url = await place.onboarding();
      if (w) {
        w.opener = null;
        w.location.href = url;
      } else setLink(url);
      setAway(true);
    } catch (err) {
      w?.close();
      throw err;
    }
  });
  const check = useSubmit(async () => saved(await place.refresh()));
  return (
    <>
      <form onSubmit={open.onSubmit}>
        <p class="hint">{t('method.stripeWindow')}</p>
        <Saving error={open.error} done={false} busy={open.busy} label={t('method.onboard')} />
      </form>
      {link && (
        <p>
          <a href={link} target="_blank" rel="noopener noreferrer">
            {t('method.stripeLink')}
          </a>
        </p>
      )}
      {away && (
        <form onSubmit={check.onSubmit}>
          <Saving error={check.error} done={false} busy={check.busy} label={t('method.stripeCheck')} />
        </form>
      )}
    </>
  );
}
