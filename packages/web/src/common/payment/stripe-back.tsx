// Back from Stripe's onboarding in the page that left for it (the portal): at the return URL
// the account is read again now (account.updated may not have come yet); at the refresh URL
// the link had expired, so a fresh one is asked and followed.

import { useEffect, useState } from 'preact/hooks';
import { Failure, Loading } from '../ui.js';
import type { Method, PaymentPlace } from './place.js';

let leaving = false;

export function StripeBack({
  place,
  back,
  saved,
  done,
}: {
  place: PaymentPlace;
  back: 'return' | 'refresh';
  saved: (m: Method) => void;
  /** Called once the account is read: the page drops the return from its address, so a reload reads the method, not Stripe again. */
  done: () => void;
}) {
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    const run = async () => {
      if (back === 'refresh') {
        // Once per page: a remount while the link is asked must not ask Stripe for a second one.
        if (leaving) return;
        leaving = true;
        return location.assign(await place.onboarding());
      }
      saved(await place.refresh());
      done();
    };
    run().catch(setError);
  }, [place.key, back]);
  if (error !== undefined) return <Failure error={error} />;
  return <Loading what={back === 'refresh' ? place.t('method.stripeAgain') : place.t('method.stripeReading')} />;
}
