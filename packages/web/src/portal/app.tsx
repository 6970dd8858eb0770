// The portal's shell: its own sign-in pages, the public program pages, and for a signed-in
// partner the navigation, the program switcher (a partner may join several programs) and
// the pages. Signed out, or a 401 from any call, sends the partner to sign in.

import type { ComponentType } from 'preact';
import { ErrorBoundary } from 'preact-iso/lazy';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso/router';
import { useEffect } from 'preact/hooks';
import { api, isSignedOut } from '../common/api.js';
import { everyPage } from '../common/codes.js';
import { signInHref, useLostSession } from '../common/sign-in.js';
import { StepUpHost } from '../common/step-up.js';
import { lazyPage } from '../common/lazy-page.js';
import { useAccent } from '../common/brand.js';
import { useLoad } from '../common/use-api.js';
import { Failure, Loading } from '../common/ui.js';
import { Home } from './pages/home.js';
import { t, tx, useLanguage, withItsWords } from './language.js';
import { BASE, href, PortalContext, type Account, type Partnership, type PortalSession } from './session.js';

// The pages a partner opens less often load when first opened (the entry's budget: test/web/serving.test.ts).
const Referrals = lazyPage(() => import('./pages/referrals.js').then((m) => withItsWords(m.Referrals)));
const Earnings = lazyPage(() => import('./pages/earnings.js').then((m) => withItsWords(m.Earnings)));
const Bounties = lazyPage(() => import('./bounties/page.js').then((m) => withItsWords(m.Bounties)));
const Settings = lazyPage(() => import('./pages/settings.js').then((m) => withItsWords(m.Settings)));
const Security = lazyPage(() => import('./security/page.js').then((m) => withItsWords(m.Security)));
const Messages = lazyPage(() => import('./messages/page.js').then((m) => withItsWords(m.Messages)));
const Resources = lazyPage(() => import('./resources/page.js').then((m) => withItsWords(m.Resources)));
// The public program page (/p/:slug), for visitors who are not partners yet.
const ProgramPage = lazyPage(() => import('./pages/program-page.js').then((m) => withItsWords(m.ProgramPage)));
const Leads = lazyPage(() => import('./leads/page.js').then((m) => withItsWords(m.Leads)));
const Recruits = lazyPage(() => import('./recruits/page.js').then((m) => withItsWords(m.Recruits)));
const Links = lazyPage(() => import('./links/page.js').then((m) => withItsWords(m.Links)));
// Signing in, a new password and a link's page: a partner signed in never needs them.
const SignIn = lazyPage(() => import('./pages/sign-in.js').then((m) => m.SignIn));
const ResetPassword = lazyPage(() => import('./pages/sign-in.js').then((m) => m.ResetPassword));
const SetPassword = lazyPage(() => import('./pages/sign-in.js').then((m) => m.SetPassword));
// The PayPal confirmation link's page: opened signed in or not.
const PayoutConfirm = lazyPage(() => import('./payment/confirm.js').then((m) => withItsWords(m.PayoutConfirm)));

const NAV = [
  ['/', () => t('nav.home')],
  ['/referrals', () => t('nav.referrals')],
  ['/leads', () => t('nav.leads')],
  ['/links', () => t('nav.links')],
  ['/earnings', () => t('nav.earnings')],
  ['/messages', () => t('nav.messages')],
  ['/resources', () => t('nav.resources')],
  ['/bounties', () => t('nav.bounties')],
  ['/recruits', () => t('nav.recruits')],
  ['/settings', () => t('nav.settings')],
] as const;

/** Every partnership of the partner, for the program switcher: one page, unless they joined more than 50 programs. */
const allPartnerships = (signal: AbortSignal): Promise<Partnership[]> =>
  everyPage((after) => api.GET('/v1/portal/partnerships', { params: { query: { per_page: 50, starting_after: after } }, signal }));

/** The partner and their partnerships; null when signed out. */
async function loadSession(signal: AbortSignal): Promise<{ account: Account; partnerships: Partnership[] } | null> {
  // The account alone first: signed out, it is `data: null` (401 from an older collector),
  // and no other call is made to fail in the console.
  const account = (await api.GET('/v1/portal/account', { signal })).data as Account | null;
  return account ? { account, partnerships: await allPartnerships(signal) } : null;
}

function Shell({ portal }: { portal: PortalSession }) {
  const { path, query, route } = useLocation();
  useLostSession(BASE, route);
  const current = portal.current?.id;
  useLanguage(portal.account.attributes.locale, portal.current?.attributes.program_locale ?? null);
  const brand = portal.current?.attributes.brand;
  useAccent(brand?.accent);
  const signOut = async () => {
    await api.POST('/v1/portal/auth/sign_out').catch(() => undefined);
    route(href('/sign-in'));
  };
  return (
    <PortalContext.Provider value={portal}>
      <a class="skip" href="#main">
        {t('app.skip')}
      </a>
      <header class="top">
        <a class="brand" href={href('/', current)}>
          {brand?.logo_url ? <img src={brand.logo_url} alt={portal.current?.attributes.program_name} /> : t('app.brand')}
        </a>
        {portal.partnerships.length > 1 ? (
          <label class="program-switcher">
            <span class="visually-hidden">{t('app.program')}</span>
            <select value={current} onChange={(e) => route(`${path}?${new URLSearchParams({ ...query, p: e.currentTarget.value })}`)}>
              {portal.partnerships.map((p) => (
                <option value={p.id}>{p.attributes.program_name}</option>
              ))}
            </select>
          </label>
        ) : (
          <span class="program-name">{portal.current?.attributes.program_name}</span>
        )}
        <span class="who">{portal.account.attributes.email}</span>
        <button type="button" class="secondary" onClick={signOut}>
          {t('app.signOut')}
        </button>
      </header>
      <nav class="side" aria-label={t('app.nav')}>
        <ul>
          {NAV.map(([to, label]) => (
            <li>
              <a
                href={href(to, current)}
                aria-current={(to === '/' ? path === `${BASE}/` : path.startsWith(`${BASE}${to}`)) ? 'page' : undefined}
              >
                {label()}
                {to === '/messages' && <Unread id={current} />}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" key={current}>
        <Router>
          <Route path={`${BASE}/`} component={Home} />
          <Route path={`${BASE}/referrals`} component={Referrals} />
          <Route path={`${BASE}/leads`} component={Leads} />
          <Route path={`${BASE}/links`} component={Links} />
          <Route path={`${BASE}/earnings`} component={Earnings} />
          <Route path={`${BASE}/resources`} component={Resources} />
          <Route path={`${BASE}/bounties`} component={Bounties} />
          <Route path={`${BASE}/recruits`} component={Recruits} />
          <Route path={`${BASE}/settings`} component={Settings} />
          <Route path={`${BASE}/settings/security`} component={Security} />
          <Route path={`${BASE}/messages`} component={Messages} />
          <Route default component={NotFound} />
        </Router>
      </main>
      <StepUpHost />
    </PortalContext.Provider>
  );
}

/** The team's messages the partner has not read, beside Messages; looked at again on each page. */
function Unread({ id }: { id: string | undefined }) {
  const { path } = useLocation();
  const get = (signal: AbortSignal) => api.GET('/v1/portal/partnerships/{id}/message_thread', { params: { path: { id: id! } }, signal });
  const n = useLoad(id ? get : null, `${id}${path}`).data?.data.attributes.unread ?? 0;
  // Not on the messages page, which reads them.
  return n > 0 && !path.startsWith(`${BASE}/messages`) ? (
    <span class="badge">
      {' '}
      {n}
      <span class="visually-hidden"> {t('nav.unread')}</span>
    </span>
  ) : null;
}

function NotFound() {
  return (
    <section>
      <h1>{t('notFound.title')}</h1>
      <p>{tx('notFound.text', { link: <a href={href('/')}>{t('notFound.link')}</a> })}</p>
    </section>
  );
}

function SignedIn() {
  const { url, query, route } = useLocation();
  const loaded = useLoad(loadSession, 'portal-session');
  const signedOut = loaded.data === null || isSignedOut(loaded.error);
  // One redirect, replacing this page, with next the page asked for.
  useEffect(() => {
    if (signedOut) route(signInHref(BASE, url), true);
  }, [signedOut]);
  if (loaded.data) {
    const { partnerships } = loaded.data;
    // The one asked for, else the newest accepted, else the newest.
    const current =
      partnerships.find((p) => p.id === query.p) ?? partnerships.find((p) => p.attributes.state === 'accepted') ?? partnerships[0];
    return <Shell portal={{ ...loaded.data, current, refresh: loaded.reload }} />;
  }
  if (signedOut) return null;
  if (loaded.error !== undefined) return <Failure error={loaded.error} retry={loaded.reload} />;
  return <Loading what={t('app.opening')} />;
}

/** The pages opened signed in or not, by path under the portal. */
const SIGNED_OUT_PAGES: Record<string, ComponentType | undefined> = {
  '/sign-in': SignIn,
  '/welcome': SetPassword,
  '/reset': ResetPassword,
  '/payout-confirm': PayoutConfirm,
};

function Pages() {
  const { path } = useLocation();
  if (path.startsWith('/p/')) {
    return (
      <ErrorBoundary>
        <ProgramPage />
      </ErrorBoundary>
    );
  }
  // Outside a Router, which otherwise waits for a lazy page's chunk: an ErrorBoundary does.
  const Page = SIGNED_OUT_PAGES[path.slice(BASE.length)];
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
  useLanguage(); // re-renders every page when the language changes
  return (
    <LocationProvider scope={/^\/(portal|p)\//}>
      <Pages />
    </LocationProvider>
  );
}
