// The embed's shell: trade the address's token for a session, read the partnership and the
// payout settings, speak the partner's language (else the browser's, else the program's),
// then show the link, the codes, the figures, the earnings, how they are paid, their tax form
// and their language in one compact column. An unknown, used or expired token, or a session
// that ends, says so. Stripe's onboarding, in a window of its own, comes back to this page
// with ?stripe=return or ?stripe=refresh and no token: that window says to go back.

import { ErrorBoundary } from 'preact-iso/lazy';
import { LocationProvider } from 'preact-iso/router';
import { useEffect, useState } from 'preact/hooks';
import { api, isSignedOut, whenSignedOut } from '../common/api.js';
import { pickLocale } from '../common/i18n.js';
import { lazyPage } from '../common/lazy-page.js';
import { Failure, Loading } from '../common/ui.js';
import { Codes, Figures, LinkCard, Money } from './cards.js';
import { Resources } from './resources.js';
import { useAccent } from '../common/brand.js';
import { asked, speak, t } from './language.js';
import { MessagesCard } from './messages.js';
import { Settings } from './settings.js';
import { type Account, auth, openSession, type Partnership, takeToken } from './session.js';

type Shown = { partnership: Partnership; account: Account };
type State =
  | { is: 'opening' }
  | { is: 'expired' }
  | { is: 'stripe'; back: 'return' | 'refresh' }
  | { is: 'failed'; error: unknown }
  | ({ is: 'open' } & Shown);

// The forms' chunk, with its words in the language spoken by then.
const Payment = lazyPage(() => import('./payment.js').then((m) => speak(asked()).then(() => m.Payment)));

/** Where Stripe's window came back to: ?stripe=return or refresh. */
const stripeBack = (): 'return' | 'refresh' | undefined => {
  const back = new URL(location.href).searchParams.get('stripe');
  return back === 'return' || back === 'refresh' ? back : undefined;
};

async function open(): Promise<Shown> {
  const token = takeToken();
  if (!token) throw new Expired();
  await openSession(token);
  const [partnership, account] = await Promise.all([api.GET('/v1/embed/partnership', auth()), api.GET('/v1/embed/account', auth())]);
  await speak(pickLocale(account.data.attributes.locale, partnership.data.attributes.program_locale));
  return { partnership: partnership.data, account: account.data };
}

class Expired extends Error {}

function ExpiredPage() {
  return (
    <main class="embed expired" id="main">
      <h1>{t('expired.title')}</h1>
      <p>{t('expired.text')}</p>
    </main>
  );
}

/** Stripe's window, back: the embed in the app reads the account when the partner returns to it. */
function StripeBackPage({ back }: { back: 'return' | 'refresh' }) {
  return (
    <main class="embed expired" id="main">
      <h1>{t(`stripe.${back}Title`)}</h1>
      <p>{t(`stripe.${back}Text`)}</p>
    </main>
  );
}

export function Embed() {
  const [state, setState] = useState<State>({ is: 'opening' });
  const expire = () => void speak(pickLocale()).then(() => setState({ is: 'expired' }));
  useEffect(() => {
    const back = stripeBack();
    if (back) return void speak(pickLocale()).then(() => setState({ is: 'stripe', back }));
    const stop = whenSignedOut(expire);
    open().then(
      (shown) => setState({ is: 'open', ...shown }),
      (error: unknown) => (error instanceof Expired || isSignedOut(error) ? expire() : setState({ is: 'failed', error })),
    );
    return stop;
  }, []);
  if (state.is === 'opening') return <Loading what={t('opening')} />;
  if (state.is === 'expired') return <ExpiredPage />;
  if (state.is === 'stripe') return <StripeBackPage back={state.back} />;
  if (state.is === 'failed') return <Failure error={state.error} />;
  const p = state.partnership;
  const accepted = p.attributes.state === 'accepted';
  return <Open p={p} accepted={accepted} state={state} setState={setState} />;
}

/** The open embed, in the program's colour, under its logo (docs/branding.md). */
function Open({ p, accepted, state, setState }: { p: Partnership; accepted: boolean; state: Shown; setState: (s: State) => void }) {
  const brand = p.attributes.brand;
  useAccent(brand.accent);
  return (
    <LocationProvider scope={/^\/embed\//}>
      <main class="embed" id="main">
        {brand.logo_url && <img class="program-logo" src={brand.logo_url} alt={p.attributes.program_name} />}
        <h1 class="visually-hidden">{t('title')}</h1>
        <LinkCard p={p} />
        {accepted && <Codes />}
        {accepted && <Figures />}
        {accepted && <Resources />}
        <Money p={p} />
        <ErrorBoundary>
          <Payment account={state.account} />
        </ErrorBoundary>
        <MessagesCard id={p.id} program={p.attributes.program_name} />
        <Settings
          account={state.account}
          onSaved={async (account) => {
            await speak(pickLocale(account.attributes.locale, p.attributes.program_locale));
            setState({ is: 'open', ...state, account });
          }}
        />
      </main>
    </LocationProvider>
  );
}
