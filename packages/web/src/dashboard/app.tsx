// The shell: sign-in pages for visitors; for a signed-in owner, the navigation, the
// program switcher and the pages. Signed out, or a 401 from any call, sends the person to
// sign in, and back to where they were afterwards.

import type { ComponentType } from 'preact';
import { ErrorBoundary } from 'preact-iso/lazy';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso/router';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, isSignedOut, messageOf } from '../common/api.js';
import { signInHref, useLostSession } from '../common/sign-in.js';
import { StepUpHost } from '../common/step-up.js';
import { lazyPage } from '../common/lazy-page.js';
import { useLoad } from '../common/use-api.js';
import { Failure, Loading } from '../common/ui.js';
import { Overview } from './pages/overview.js';
import { BASE, href, SessionContext, type Session } from './session.js';
import { t, useLanguage, withItsWords } from './language.js';
import { LanguageChoice } from './language-choice.js';

// Every page but the overview is fetched the first time it is opened, the sign-in pages too
// (preact-iso's router keeps the page on screen until then; outside it, an ErrorBoundary waits
// for the sign-in pages): the entry carries i18next and
// stays within its budget (decision 0416). A page whose words are a part of their own waits
// for them (withItsWords). A file that cannot be fetched (a tab older than a deploy, whose
// build emptied dist) becomes a page saying so: preact-iso's lazy would otherwise wait on
// the rejected import for ever.
const Partners = lazyPage(() => import('./partners/list.js').then((m) => withItsWords(m.Partners)));
const Partner = lazyPage(() => import('./partners/page.js').then((m) => withItsWords(m.Partner)));
const Referrals = lazyPage(() => import('./records/page.js').then((m) => withItsWords(m.Referrals)));
const Commissions = lazyPage(() => import('./records/page.js').then((m) => withItsWords(m.Commissions)));
const Payments = lazyPage(() => import('./records/page.js').then((m) => withItsWords(m.Payments)));
const Clicks = lazyPage(() => import('./records/page.js').then((m) => withItsWords(m.Clicks)));
const Groups = lazyPage(() => import('./groups/page.js').then((m) => withItsWords(m.Groups)));
const GroupPage = lazyPage(() => import('./groups/page.js').then((m) => withItsWords(m.GroupPage)));
const Payouts = lazyPage(() => import('./payouts/page.js').then((m) => withItsWords(m.Payouts)));
// Settings → Integrations shows the payout settings, whose words are the payouts' part.
const Settings = lazyPage(() => import('./settings/page.js').then((m) => withItsWords(m.Settings)));
const BillingEvents = lazyPage(() => import('./billing-events/page.js').then((m) => withItsWords(m.BillingEvents)));
const Review = lazyPage(() => import('./review/page.js').then((m) => withItsWords(m.Review)));
const WebhookDeliveries = lazyPage(() => import('./webhook-deliveries/page.js').then((m) => withItsWords(m.WebhookDeliveries)));
const Bounties = lazyPage(() => import('./bounties/page.js').then((m) => withItsWords(m.Bounties)));
const BountyPage = lazyPage(() => import('./bounties/page.js').then((m) => withItsWords(m.BountyPage)));
const Notifications = lazyPage(() => import('./notifications/page.js').then((m) => withItsWords(m.Notifications)));
const Messages = lazyPage(() => import('./messages/page.js').then((m) => withItsWords(m.Messages)));
const MessageThread = lazyPage(() => import('./messages/page.js').then((m) => withItsWords(m.MessageThread)));
const Resources = lazyPage(() => import('./resources/page.js').then((m) => withItsWords(m.Resources)));
const Leads = lazyPage(() => import('./leads/page.js').then((m) => withItsWords(m.Leads)));
const AuditLog = lazyPage(() => import('./audit/page.js').then((m) => withItsWords(m.AuditLog)));
// Signing in, a new password and a link's page: a signed-in owner never needs them.
const SignIn = lazyPage(() => import('./sign-in/page.js').then((m) => withItsWords(m.SignIn)));
const ResetPassword = lazyPage(() => import('./sign-in/page.js').then((m) => withItsWords(m.ResetPassword)));
const Welcome = lazyPage(() => import('./sign-in/page.js').then((m) => withItsWords(m.Welcome)));

// Labels are said when the menu renders, in the language spoken then.
const NAV = [
  ['/', () => t('nav.overview')],
  ['/partners', () => t('nav.partners')],
  ['/messages', () => t('nav.messages')],
  ['/groups', () => t('nav.groups')],
  ['/bounties', () => t('nav.bounties')],
  ['/referrals', () => t('nav.referrals')],
  ['/leads', () => t('nav.leads')],
  ['/commissions', () => t('nav.commissions')],
  ['/review', () => t('nav.review')],
  ['/payments', () => t('nav.payments')],
  ['/clicks', () => t('nav.clicks')],
  ['/payouts', () => t('nav.payouts')],
  ['/billing-events', () => t('nav.billingEvents')],
  ['/resources', () => t('nav.resources')],
  ['/settings', () => t('nav.settings')],
  ['/audit', () => t('nav.auditLog')],
  ['/notifications', () => t('nav.yourEmails')],
] as const;

/** The messages waiting for the team, beside Messages in the menu; looked at again on each page. */
function Unread() {
  const { path } = useLocation();
  const n = useLoad((signal) => api.GET('/v1/messages/unread', { signal }), path).data?.data.attributes.messages ?? 0;
  // Not while a thread is open: it is being read, and the count comes back right on the next page.
  return n > 0 && !path.startsWith(`${BASE}/messages/`) ? (
    <span class="badge">
      {' '}
      {n}
      <span class="visually-hidden"> {t('shell.unread')}</span>
    </span>
  ) : null;
}

// A failed switch or sign-out is said in the header (role=alert), instead of being an
// unhandled rejection the owner never sees; the select falls back to the current program.
function ProgramSwitcher({ session, refresh, fail }: { session: Session; refresh: () => void; fail: (err: unknown) => void }) {
  const programs = session.attributes.programs;
  if (programs.length < 2) return <span class="program-name">{programs[0]?.name}</span>;
  return (
    <label class="program-switcher">
      <span class="visually-hidden">{t('shell.program')}</span>
      <select
        value={session.attributes.program_id}
        onChange={async (e) => {
          const select = e.currentTarget;
          try {
            await api.POST('/v1/auth/program', { body: { program_id: select.value } });
            refresh();
          } catch (err) {
            select.value = session.attributes.program_id;
            fail(err);
          }
        }}
      >
        {programs.map((p) => (
          <option value={p.id}>{p.name}</option>
        ))}
      </select>
    </label>
  );
}

function Shell({ session, refresh }: { session: Session; refresh: () => void }) {
  const { path, route } = useLocation();
  // The owner's choice (null: the browser's); the shell re-renders in it once its words are here,
  // and the page under it starts again in it (preact-iso's router keeps a page it already shows).
  const spoken = useLanguage(session.attributes.locale);
  useLostSession(BASE, route);
  const current = (to: string) => (to === '/' ? path === `${BASE}/` || path === BASE : path.startsWith(href(to)));
  const [problem, setProblem] = useState<string>();
  // On a narrow screen the menu is folded behind a button: open, it took a third of the screen before any content.
  const [menuOpen, setMenuOpen] = useState(false);
  // Folded when the page changes, not on the first render: the mount's effect runs after paint and
  // once folded a menu opened in that moment.
  const shownPath = useRef(path);
  useEffect(() => {
    if (shownPath.current !== path) setMenuOpen(false);
    shownPath.current = path;
  }, [path]);
  // Escape folds the open menu, wherever the focus is, and gives the focus back to its button.
  // Listening from the render that opens it (a layout effect): an Escape right after opening once came first.
  useLayoutEffect(() => {
    if (!menuOpen) return;
    const fold = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setMenuOpen(false);
      document.querySelector<HTMLElement>('.menu-button')?.focus();
    };
    document.addEventListener('keydown', fold);
    return () => document.removeEventListener('keydown', fold);
  }, [menuOpen]);
  const fail = (err: unknown) => setProblem(messageOf(err));
  const signOut = async () => {
    try {
      await api.POST('/v1/auth/sign_out');
      route(href('/sign-in'));
    } catch (err) {
      // Still signed in: going to the sign-in page would pretend otherwise.
      fail(err);
    }
  };
  return (
    <SessionContext.Provider value={{ session, refresh }}>
      <a class="skip" href="#main">
        {t('shell.skip')}
      </a>
      <header class="top">
        <a class="brand" href={href('/')}>
          Tally
        </a>
        <ProgramSwitcher session={session} refresh={refresh} fail={fail} />
        <span class="who">{session.attributes.email}</span>
        <LanguageChoice session={session} refresh={refresh} fail={fail} />
        <button
          type="button"
          class="secondary menu-button"
          aria-expanded={menuOpen}
          aria-controls="dashboard-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {t('shell.menu')}
        </button>
        <button type="button" class="secondary" onClick={signOut}>
          {t('shell.signOut')}
        </button>
      </header>
      <nav class={menuOpen ? 'side folding open' : 'side folding'} id="dashboard-menu" aria-label={t('shell.navigation')}>
        <ul>
          {NAV.map(([to, label]) => (
            <li>
              <a href={href(to)} aria-current={current(to) ? 'page' : undefined}>
                {label()}
                {to === '/messages' && <Unread />}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" key={`${session.attributes.program_id}/${spoken}`}>
        {roleOf(session) === 'viewer' && (
          <p class="notice" role="note">
            {t('shell.viewer')}
          </p>
        )}
        {problem !== undefined && (
          <p class="failure" role="alert">
            {problem}{' '}
            <button type="button" class="secondary" onClick={() => setProblem(undefined)}>
              {t('shell.dismiss')}
            </button>
          </p>
        )}
        <Router>
          <Route path={`${BASE}/`} component={Overview} />
          <Route path={`${BASE}/partners`} component={Partners} />
          <Route path={`${BASE}/partners/:id`} component={Partner} />
          <Route path={`${BASE}/groups`} component={Groups} />
          <Route path={`${BASE}/groups/:id`} component={GroupPage} />
          <Route path={`${BASE}/bounties`} component={Bounties} />
          <Route path={`${BASE}/bounties/:id`} component={BountyPage} />
          <Route path={`${BASE}/referrals`} component={Referrals} />
          <Route path={`${BASE}/leads`} component={Leads} />
          <Route path={`${BASE}/commissions`} component={Commissions} />
          <Route path={`${BASE}/review`} component={Review} />
          <Route path={`${BASE}/payments`} component={Payments} />
          <Route path={`${BASE}/clicks`} component={Clicks} />
          <Route path={`${BASE}/payouts`} component={Payouts} />
          <Route path={`${BASE}/billing-events`} component={BillingEvents} />
          <Route path={`${BASE}/stripe`} component={StripeEventsMoved} />
          <Route path={`${BASE}/settings/:section?`} component={Settings} />
          <Route path={`${BASE}/settings/webhooks/:id`} component={WebhookDeliveries} />
          <Route path={`${BASE}/notifications`} component={Notifications} />
          <Route path={`${BASE}/messages`} component={Messages} />
          <Route path={`${BASE}/messages/:id`} component={MessageThread} />
          <Route path={`${BASE}/resources`} component={Resources} />
          <Route path={`${BASE}/audit`} component={AuditLog} />
          <Route default component={NotFound} />
        </Router>
      </main>
      <StepUpHost />
    </SessionContext.Provider>
  );
}

/** The signed-in member's role in the program the session acts for. */
const roleOf = (session: Session) => session.attributes.programs.find((p) => p.id === session.attributes.program_id)?.role;

/** The Stripe-only page's old address: the billing events with Stripe chosen, its other filters kept. */
function StripeEventsMoved() {
  const { query, route } = useLocation();
  useEffect(() => {
    route(href(`/billing-events?${new URLSearchParams({ ...query, platform_eq: 'stripe' })}`), true);
  }, []);
  return null;
}

function NotFound() {
  return (
    <section>
      <h1>{t('notFound.title')}</h1>
      <p>
        {t('notFound.text')} <a href={href('/')}>{t('notFound.back')}</a>
      </p>
    </section>
  );
}

function SignedIn() {
  const { url, route } = useLocation();
  const loaded = useLoad((signal) => api.GET('/v1/auth/session', { signal }), 'session');
  // Signed out is `data: null`; a collector from before that answer says 401.
  const session = loaded.data?.data as Session | null | undefined;
  const signedOut = session === null || isSignedOut(loaded.error);
  // One redirect, replacing this page: Back does not return to a page that sends away again.
  useEffect(() => {
    if (signedOut) route(signInHref(BASE, url), true);
  }, [signedOut]);
  if (session) return <Shell session={session} refresh={loaded.reload} />;
  if (signedOut) return null;
  if (loaded.error !== undefined) return <Failure error={loaded.error} retry={loaded.reload} />;
  return <Loading what={t('shell.opening')} />;
}

/** The pages opened signed out, by their address. */
const SIGNED_OUT_PAGES: Record<string, ComponentType | undefined> = {
  [href('/sign-in')]: SignIn,
  [href('/welcome')]: Welcome,
  [href('/reset')]: ResetPassword,
};

function Pages() {
  const { path } = useLocation();
  const Page = SIGNED_OUT_PAGES[path];
  // Outside the Router, which otherwise waits for a lazy page's chunk: an ErrorBoundary does.
  if (Page) {
    return (
      <ErrorBoundary>
        <Page />
      </ErrorBoundary>
    );
  }
  return <SignedIn />;
}

export function App() {
  return (
    <LocationProvider scope={BASE}>
      <Pages />
    </LocationProvider>
  );
}
