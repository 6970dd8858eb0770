// The program's settings and commission rules, its snippet, its public page for partners, its
// promotion codes (code-settings.tsx), its review signals, its billing platforms (integrations.tsx), its webhooks
// (webhook-settings.tsx), its API tokens and its team: a section each, at its own address
// (Settings, at the end). Secrets (a new token, an invitation link) are shown once, when
// made: the collector keeps only their hashes.

import { SecuritySettings } from './security-settings.js';
import type { ComponentChildren } from 'preact';
import { useLocation, useRoute } from 'preact-iso/router';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { dateTime, percent } from '../../common/format.js';
import { Confirm, text, useSubmit, Saving } from '../../common/forms.js';
import { LANGUAGE_NAMES, LOCALES, type Locale } from '../../common/languages.js';
import { useLoad, type Loaded } from '../../common/use-api.js';
import { CopyButton, Failure, Show, Table, type Column } from '../../common/ui.js';
import { SIGNAL_NAMES, signalDescription, signalTitle } from '../review.js';
import { RuleFields, rulesFrom } from '../rules.js';
import { href, useSession } from '../session.js';
import { TRACK_CALL } from '../track-call.js';
import { PromotionCodeSettings } from './code-settings.js';
import { TwoTierSettings } from './two-tier-settings.js';
import { LinkSettings } from '../link-settings.js';
import { Integrations } from './integrations.js';
import { WebhookSettings } from './webhook-settings.js';

type Program = Answer<'/v1/program'>['data'];
type Token = Answer<'/v1/tokens'>['data'][number];
type Member = Answer<'/v1/members'>['data'][number];

function ProgramForm({ program, saved }: { program: Program; saved: () => void }) {
  const { refresh } = useSession();
  const [done, setDone] = useState(false);
  const a = program.attributes;
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    const get = (n: string) => text(form, n).trim();
    setDone(false);
    await api.PATCH('/v1/program', {
      body: {
        name: get('name'),
        site_url: get('site_url'),
        allowed_origins: get('allowed_origins').split(/\s+/).filter(Boolean),
        commission_rate_bps: Math.round(Number(get('rate')) * 100),
        cookie_days: Number(get('cookie_days')),
        ...(rulesFrom(form, false) as { recurring_months: number; hold_days: number; minimum_payout: Record<string, number> }),
      },
    });
    setDone(true);
    saved();
    refresh();
  });
  return (
    <form class="panel" onSubmit={onSubmit}>
      <h2>Program</h2>
      <label>
        Name
        <input name="name" value={a.name} required maxLength={200} />
      </label>
      <label>
        Site URL <span class="hint">(where referral links lead)</span>
        <input name="site_url" type="url" value={a.site_url} required />
      </label>
      <label>
        Allowed origins <span class="hint">(one per line: the sites whose pages may record conversions)</span>
        <textarea name="allowed_origins" rows={3} value={a.allowed_origins.join('\n')} />
      </label>
      <div class="row">
        <label>
          Commission rate, %
          <input name="rate" type="number" min={0} max={100} step={0.01} value={a.commission_rate_bps / 100} required />
        </label>
        <label>
          Referral cookie, days
          <input name="cookie_days" type="number" min={1} max={365} value={a.cookie_days} required />
        </label>
      </div>
      <RuleFields values={a} />
      {error !== undefined && <Failure error={error} />}
      {done && (
        <p role="status" class="ok">
          Saved. New payments earn {percent(a.commission_rate_bps / 10000)} unless a partner has their own rate.
        </p>
      )}
      <button type="submit" disabled={busy}>
        Save
      </button>
    </form>
  );
}

/** The owner's side of the partners' self-billing invoices (docs/payouts.md#invoices); an empty field clears it. */
function BillingDetails({ program, saved }: { program: Program; saved: () => void }) {
  const [done, setDone] = useState(false);
  const a = program.attributes;
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    const value = (n: string) => text(form, n).trim() || null;
    setDone(false);
    await api.PATCH('/v1/program', {
      body: { billing_name: value('billing_name'), billing_address: value('billing_address'), billing_vat_id: value('billing_vat_id') },
    });
    setDone(true);
    saved();
  });
  return (
    <form class="panel" id="billing" onSubmit={onSubmit}>
      <h2>Billing details</h2>
      <p>Printed as the customer on the self-billing invoice each partner gets for a paid payout.</p>
      <label>
        Legal name <span class="hint">(else the program's name)</span>
        <input name="billing_name" value={a.billing_name ?? ''} maxLength={200} />
      </label>
      <label>
        Address
        <textarea name="billing_address" rows={3} maxLength={1000} value={a.billing_address ?? ''} />
      </label>
      <label>
        VAT ID
        <input name="billing_vat_id" value={a.billing_vat_id ?? ''} maxLength={50} />
      </label>
      <Saving error={error} done={done} busy={busy} label="Save billing details" />
    </form>
  );
}

/** Which review signals hold a conversion that looks wrong (the review queue's), each on or off. */
function ReviewSignals({ program, saved }: { program: Program; saved: () => void }) {
  const [done, setDone] = useState(false);
  const chosen = program.attributes.review_signals;
  // The dashboard's own list first, in its order; any other the collector has, by its name.
  const names = [...SIGNAL_NAMES, ...Object.keys(chosen).filter((n) => !(SIGNAL_NAMES as string[]).includes(n))];
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    setDone(false);
    await api.PATCH('/v1/program', { body: { review_signals: Object.fromEntries(names.map((n) => [n, form.get(n) === 'on'])) } });
    setDone(true);
    saved();
  });
  return (
    <form class="panel" id="review" onSubmit={onSubmit}>
      <h2>Review</h2>
      <p>
        A conversion a signal flags is held in the <a href={href('/review')}>review queue</a>: its commissions go into no payout until you
        approve it. Conversions your own servers record (a secret token) are not judged on the visitor's address or browser.
      </p>
      <fieldset class="choices signals">
        <legend>Hold a conversion when</legend>
        {names.map((n) => (
          <label class="check">
            <input name={n} type="checkbox" checked={chosen[n] ?? false} />
            <span>
              {signalTitle(n)}
              {signalDescription(n) && <span class="hint"> — {signalDescription(n)}</span>}
            </span>
          </label>
        ))}
      </fieldset>
      <Saving error={error} done={done} busy={busy} label="Save signals" />
    </form>
  );
}

/** The program's public page, where partners read the terms and apply. */
function PublicPage({ program, saved }: { program: Program; saved: () => void }) {
  const [done, setDone] = useState(false);
  const a = program.attributes;
  const pageUrl = a.slug ? `${location.origin}/p/${a.slug}/` : null;
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    setDone(false);
    await api.PATCH('/v1/program', {
      body: {
        slug: text(form, 'slug').trim() || null,
        description: text(form, 'description'),
        page_enabled: form.get('page_enabled') === 'on',
        auto_accept: form.get('auto_accept') === 'on',
        locale: text(form, 'locale') as Locale,
      },
    });
    setDone(true);
    saved();
  });
  return (
    <form class="panel" id="public-page" onSubmit={onSubmit}>
      <h2>Public page</h2>
      <p>
        Partners read your terms and apply there, then sign in to their portal for their link and earnings.
        {pageUrl && a.page_enabled && (
          <>
            {' '}
            It is up at <a href={pageUrl}>{pageUrl}</a> <CopyButton text={pageUrl} label="Copy address" />
          </>
        )}
      </p>
      <label>
        Address <span class="hint">(/p/…/: lower-case letters, digits, - and _)</span>
        <input name="slug" value={a.slug ?? ''} pattern="[a-z0-9][a-z0-9_\-]{1,63}" maxLength={64} />
      </label>
      <label>
        Description <span class="hint">(what partners should know: your product, your audience)</span>
        <textarea name="description" rows={3} maxLength={5000} value={a.description} />
      </label>
      <label class="check">
        <input name="page_enabled" type="checkbox" checked={a.page_enabled} /> The page is up and takes applications
      </label>
      <label class="check">
        <input name="auto_accept" type="checkbox" checked={a.auto_accept} /> Accept applications at once (otherwise you accept each on the
        partner's page)
      </label>
      <label>
        Partners' language{' '}
        <span class="hint">(the portal's, this page's and their e-mails', unless they or their browser choose one of these)</span>
        <select name="locale" value={a.locale}>
          {LOCALES.map((l) => (
            <option value={l}>{LANGUAGE_NAMES[l]}</option>
          ))}
        </select>
      </label>
      <Saving error={error} done={done} busy={busy} label="Save" />
    </form>
  );
}

const TOKEN_QUESTION = {
  publishable: {
    title: 'Make a publishable token?',
    text: 'It is shown once, for your pages: it can only record clicks and conversions. You can revoke it under API tokens.',
  },
  secret: {
    title: 'Make a secret token?',
    text: 'It is shown once, and may call every API route: keep it on your servers. You can revoke it in the list below.',
  },
} as const;

/** A button that makes a token once asked, as every change asks; `made` gets the token, shown only then. */
function MakeToken({
  kind,
  label,
  secondary,
  made,
}: {
  kind: Token['attributes']['kind'];
  label: string;
  secondary?: boolean;
  made: (token: string) => void;
}) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button type="button" class={secondary ? 'secondary' : undefined} onClick={() => setAsking(true)}>
        {label}
      </button>
      {asking && (
        <Confirm
          title={TOKEN_QUESTION[kind].title}
          confirm="Make token"
          onClose={() => setAsking(false)}
          onConfirm={async () => made((await api.POST('/v1/tokens', { body: { kind } })).data.attributes.token)}
        >
          <p>{TOKEN_QUESTION[kind].text}</p>
        </Confirm>
      )}
    </>
  );
}

function Snippet({ program, made }: { program: Program; made: () => void }) {
  const [token, setToken] = useState<string | null>(null);
  const origin = location.origin;
  const code = [
    `<script>window.gr=window.gr||function(){(gr.q=gr.q||[]).push(arguments)};</script>`,
    `<script async src="${origin}/tracker.js" data-key="${token ?? 'tly_pub_…'}" data-cookie-days="${program.attributes.cookie_days}"></script>`,
  ].join('\n');
  return (
    <section class="panel" id="snippet">
      <h2>Snippet</h2>
      <p>
        Paste this into every page of your site. It needs a publishable token, which is safe in pages: it can only record clicks and
        conversions.
      </p>
      <pre class="code">
        <code>{code}</code>
      </pre>
      <p>
        Then, when someone signs up, call this with their e-mail address in <code>email</code>; <code>?gr_debug=1</code> in a page's address
        shows in the console what the snippet does.
      </p>
      <pre class="code">
        <code class="track-call">{TRACK_CALL}</code>
      </pre>
      <div class="buttons">
        {token ? (
          <CopyButton text={code} label="Copy snippet" />
        ) : (
          <MakeToken
            kind="publishable"
            label="Make a publishable token for it"
            made={(t) => {
              setToken(t);
              made();
            }}
          />
        )}
      </div>
    </section>
  );
}

/** The program's tokens; loaded by the page, since the snippet's panel makes them too. */
function Tokens({ loaded }: { loaded: Loaded<Answer<'/v1/tokens'>> }) {
  const [secret, setSecret] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<Token | null>(null);
  const columns: Column<Token>[] = [
    { label: 'Kind', cell: (t) => t.attributes.kind, text: (t) => t.attributes.kind },
    { label: 'Starts with', cell: (t) => <code>{t.attributes.hint}…</code>, text: (t) => t.attributes.hint },
    { label: 'Note', cell: (t) => (t.attributes.label === 'demo' ? 'the demo page’s, replaced at each start' : '—') },
    { label: 'Created', cell: (t) => dateTime(t.attributes.created_at), text: (t) => String(t.attributes.created_at) },
    {
      label: 'State',
      cell: (t) =>
        t.attributes.revoked_at ? (
          `revoked ${dateTime(t.attributes.revoked_at)}`
        ) : (
          <button type="button" class="link" onClick={() => setRevoking(t)}>
            Revoke
          </button>
        ),
    },
  ];
  return (
    <section class="panel">
      <div class="panel-head">
        <h2>API tokens</h2>
        <MakeToken
          kind="secret"
          label="New secret token"
          secondary
          made={(t) => {
            setSecret(t);
            loaded.reload();
          }}
        />
      </div>
      {secret && (
        <div class="notice" role="status">
          <p>Your new secret token, shown only now. It may call every API route: keep it on your servers.</p>
          <p>
            <code class="secret">{secret}</code> <CopyButton text={secret} />
          </p>
        </div>
      )}
      <Show loaded={loaded}>{(answer) => <Table caption="API tokens" columns={columns} rows={answer.data} />}</Show>
      {revoking && (
        <Confirm
          title={`Revoke ${revoking.attributes.hint}…?`}
          confirm="Revoke"
          danger
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await api.DELETE('/v1/tokens/{id}', { params: { path: { id: revoking.id } } });
            loaded.reload();
          }}
        >
          <p>Every request with it is refused from now on, in every process.</p>
        </Confirm>
      )}
    </section>
  );
}

// Least powers first: the invitation's first option, its default (and what a reset returns
// to), is the viewer's; more is given on purpose.
const ROLE_HELP: Record<Member['attributes']['role'], string> = {
  viewer: 'looks, changes nothing',
  admin: 'everything but the team and secret tokens',
  owner: 'everything, the team and secret tokens too',
};

/** The program's members and open invitations; only an owner manages them. */
function Team() {
  const { session } = useSession();
  const myRole = session.attributes.programs.find((p) => p.id === session.attributes.program_id)?.role;
  const loaded = useLoad((signal) => api.GET('/v1/members', { signal }), 'members');
  const [link, setLink] = useState<{ email: string; link: string } | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const { error, busy, onSubmit } = useSubmit(async (form, el) => {
    const email = text(form, 'email').trim();
    const role = text(form, 'role') as Member['attributes']['role'];
    const made = await api.POST('/v1/members', { body: { email, role } });
    setLink({ email, link: made.meta.sign_in_link });
    el.reset();
    loaded.reload();
  });
  // Asked first; cancelled, the select shows the member's role again when the question goes.
  const [changing, setChanging] = useState<{ member: Member; role: Member['attributes']['role'] } | null>(null);
  const owner = myRole === 'owner';
  const columns: Column<Member>[] = [
    { label: 'E-mail', cell: (m) => m.attributes.email ?? '(first owner, not signed in yet)', text: (m) => m.attributes.email ?? '' },
    {
      label: 'Role',
      cell: (m) =>
        owner && m.attributes.active && m.attributes.email !== session.attributes.email ? (
          <select
            aria-label={`Role of ${m.attributes.email ?? 'this member'}`}
            value={m.attributes.role}
            onChange={(e) => setChanging({ member: m, role: e.currentTarget.value as Member['attributes']['role'] })}
          >
            {Object.keys(ROLE_HELP).map((r) => (
              <option value={r}>{r}</option>
            ))}
          </select>
        ) : (
          m.attributes.role
        ),
      text: (m) => m.attributes.role,
    },
    {
      label: 'State',
      cell: (m) => (m.attributes.active ? 'active' : 'invited'),
      text: (m) => (m.attributes.active ? 'active' : 'invited'),
    },
    {
      label: 'Actions',
      cell: (m) =>
        owner &&
        m.attributes.email !== session.attributes.email && (
          <button type="button" class="link" onClick={() => setRemoving(m)}>
            {m.attributes.active ? 'Remove' : 'Withdraw invitation'}
          </button>
        ),
    },
  ];
  return (
    <section class="panel">
      <h2>Team</h2>
      {owner ? (
        <form class="inline" onSubmit={onSubmit}>
          <label>
            Invite by e-mail
            <input name="email" type="email" required />
          </label>
          <label>
            as
            <select name="role">
              {Object.entries(ROLE_HELP).map(([r, help]) => (
                <option value={r}>
                  {r}: {help}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={busy}>
            Invite
          </button>
        </form>
      ) : (
        <p class="hint">You are {myRole === 'admin' ? 'an admin' : 'a viewer'} here: an owner invites people and sets their roles.</p>
      )}
      {error !== undefined && <Failure error={error} />}
      {link && (
        <div class="notice" role="status">
          <p>
            Send {link.email} this invitation link; it works once, for 24 hours. Someone who already has an account here accepts with its
            password: <code class="secret">{link.link}</code> <CopyButton text={link.link} />
          </p>
        </div>
      )}
      <Show loaded={loaded}>{(answer) => <Table caption="Team" columns={columns} rows={answer.data} />}</Show>
      {changing && (
        <Confirm
          title={`Make ${changing.member.attributes.email ?? 'this member'} ${changing.role === 'viewer' ? 'a' : 'an'} ${changing.role}?`}
          confirm="Change role"
          onClose={() => setChanging(null)}
          onConfirm={async () => {
            await api.PATCH('/v1/members/{id}', { params: { path: { id: changing.member.id } }, body: { role: changing.role } });
            loaded.reload();
          }}
        >
          <p>
            {changing.role[0]!.toUpperCase() + changing.role.slice(1)}: {ROLE_HELP[changing.role]}.
          </p>
        </Confirm>
      )}
      {removing && (
        <Confirm
          title={
            removing.attributes.active
              ? `Remove ${removing.attributes.email ?? 'this member'}?`
              : `Withdraw the invitation of ${removing.attributes.email ?? ''}?`
          }
          confirm={removing.attributes.active ? 'Remove' : 'Withdraw'}
          danger
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await api.DELETE('/v1/members/{id}', { params: { path: { id: removing.id } } });
            loaded.reload();
          }}
        >
          <p>
            {removing.attributes.active ? 'They lose this program at once; their sessions for it end.' : 'Its link stops working at once.'}
          </p>
        </Confirm>
      )}
    </section>
  );
}

/**
 * The sections, each at /settings/<id>, named as README.md and docs/ name them ("Settings →
 * Integrations"). Those that edit the program get it as Settings loaded it; the snippet and
 * the API tokens share the token list, since the snippet's panel makes a token too.
 */
const SECTIONS: ReadonlyArray<{ id: string; title: string; show: (on: SectionData) => ComponentChildren }> = [
  {
    id: 'program',
    title: 'Program',
    show: (on) =>
      withProgram(on, (p) => (
        <>
          <ProgramForm program={p} saved={on.program.reload} />
          <BillingDetails program={p} saved={on.program.reload} />
        </>
      )),
  },
  { id: 'snippet', title: 'Snippet', show: (on) => withProgram(on, (p) => <Snippet program={p} made={on.tokens.reload} />) },
  { id: 'public-page', title: 'Public page', show: (on) => withProgram(on, (p) => <PublicPage program={p} saved={on.program.reload} />) },
  {
    id: 'promotion-codes',
    title: 'Promotion codes',
    show: (on) => withProgram(on, (p) => <PromotionCodeSettings program={p} saved={on.program.reload} />),
  },
  { id: 'two-tier', title: 'Two-tier referrals', show: () => <TwoTierSettings /> },
  { id: 'links', title: 'Links', show: () => <LinkSettings /> },
  { id: 'review', title: 'Review', show: (on) => withProgram(on, (p) => <ReviewSignals program={p} saved={on.program.reload} />) },
  { id: 'integrations', title: 'Integrations', show: (on) => <Integrations program={on.program.data?.data} saved={on.program.reload} /> },
  { id: 'webhooks', title: 'Webhooks', show: () => <WebhookSettings /> },
  { id: 'api-tokens', title: 'API tokens', show: (on) => <Tokens loaded={on.tokens} /> },
  { id: 'team', title: 'Team', show: () => <Team /> },
  { id: 'security', title: 'Security', show: () => <SecuritySettings /> },
];

interface SectionData {
  program: Loaded<Answer<'/v1/program'>>;
  tokens: Loaded<Answer<'/v1/tokens'>>;
}

const withProgram = (on: SectionData, show: (program: Program) => ComponentChildren) => (
  <Show loaded={on.program}>{(answer) => show(answer.data)}</Show>
);

/** The section shown last, to tell a change of section from the page's first one. */
let lastSection: string | undefined;

const settingsHref = (section: string): string => href(`/settings/${section}`);

/**
 * Settings, one section at a time, chosen by the address: a menu of links (each one Tab
 * stop, Enter follows it) and the section below. The old one-page addresses still lead
 * to their section: /settings#snippet goes to /settings/snippet, and /settings to the first.
 */
export function Settings() {
  const { route } = useLocation();
  const section = useRoute().params.section;
  const chosen = SECTIONS.find((s) => s.id === section);
  const program = useLoad((signal) => api.GET('/v1/program', { signal }), 'program');
  const tokens = useLoad((signal) => api.GET('/v1/tokens', { signal }), 'tokens');
  const menu = useRef<HTMLElement>(null);
  useEffect(() => {
    if (section === undefined) {
      const hashed = SECTIONS.find((s) => `#${s.id}` === location.hash) ?? SECTIONS[0]!;
      route(settingsHref(hashed.id), true);
    } else if (section !== lastSection && lastSection !== undefined && document.activeElement === document.body) {
      // Another section chosen from the menu, whose link the new page replaced: focus goes
      // back to the menu's current link, so the next Tab enters the section.
      menu.current?.querySelector<HTMLElement>('[aria-current=page]')?.focus();
    }
    lastSection = section;
  }, [section]);
  if (section === undefined) return null;
  return (
    <section class="settings">
      <h1>Settings</h1>
      <nav class="sections" aria-label="Settings sections" ref={menu}>
        <ul>
          {SECTIONS.map((s) => (
            <li>
              <a href={settingsHref(s.id)} aria-current={s === chosen ? 'page' : undefined}>
                {s.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {chosen ? (
        chosen.show({ program, tokens })
      ) : (
        <p>
          There is no section “{section}” in the settings: choose one above, or go to{' '}
          <a href={settingsHref(SECTIONS[0]!.id)}>{SECTIONS[0]!.title}</a>.
        </p>
      )}
    </section>
  );
}
