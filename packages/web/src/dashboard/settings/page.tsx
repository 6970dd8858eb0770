// The program's settings and commission rules, its snippet, its public page for partners, its
// promotion codes (codes.tsx), its review signals, its billing platforms (integrations.tsx), its
// webhooks (webhooks.tsx), its API tokens, its team and the signed-in person's second factors
// (security.tsx): a section each, at its own address (Settings, at the end). Secrets (a new
// token, an invitation link) are shown once, when made: the collector keeps only their hashes.

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
import { PromotionCodeSettings } from './codes.js';
import { TwoTierSettings } from './two-tier.js';
import { LinkSettings } from './links.js';
import { Integrations } from './integrations.js';
import { WebhookSettings } from './webhooks.js';
import { SecuritySettings } from './security.js';
import { t, tx } from './words.js';

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
      <h2>{t('sections.program')}</h2>
      <label>
        {t('name')}
        <input name="name" value={a.name} required maxLength={200} />
      </label>
      <label>
        {t('program.siteUrl')} <span class="hint">{t('program.siteUrlHint')}</span>
        <input name="site_url" type="url" value={a.site_url} required />
      </label>
      <label>
        {t('program.origins')} <span class="hint">{t('program.originsHint')}</span>
        <textarea name="allowed_origins" rows={3} value={a.allowed_origins.join('\n')} />
      </label>
      <div class="row">
        <label>
          {t('program.rate')}
          <input name="rate" type="number" min={0} max={100} step={0.01} value={a.commission_rate_bps / 100} required />
        </label>
        <label>
          {t('program.cookieDays')}
          <input name="cookie_days" type="number" min={1} max={365} value={a.cookie_days} required />
        </label>
      </div>
      <RuleFields values={a} />
      {error !== undefined && <Failure error={error} />}
      {done && (
        <p role="status" class="ok">
          {t('program.saved', { rate: percent(a.commission_rate_bps / 10000) })}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {t('save')}
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
      <h2>{t('billing.title')}</h2>
      <p>{t('billing.intro')}</p>
      <label>
        {t('billing.legalName')} <span class="hint">{t('billing.legalNameHint')}</span>
        <input name="billing_name" value={a.billing_name ?? ''} maxLength={200} />
      </label>
      <label>
        {t('address')}
        <textarea name="billing_address" rows={3} maxLength={1000} value={a.billing_address ?? ''} />
      </label>
      <label>
        {t('billing.vatId')}
        <input name="billing_vat_id" value={a.billing_vat_id ?? ''} maxLength={50} />
      </label>
      <Saving error={error} done={done} busy={busy} label={t('billing.save')} />
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
      <h2>{t('sections.review')}</h2>
      <p>{tx('review.intro', { queue: <a href={href('/review')}>{t('review.queue')}</a> })}</p>
      <fieldset class="choices signals">
        <legend>{t('review.hold')}</legend>
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
      <Saving error={error} done={done} busy={busy} label={t('review.save')} />
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
      <h2>{t('sections.publicPage')}</h2>
      <p>
        {t('publicPage.intro')}
        {pageUrl && a.page_enabled && (
          <>
            {' '}
            {tx('publicPage.up', {
              link: <a href={pageUrl}>{pageUrl}</a>,
              copy: <CopyButton text={pageUrl} label={t('publicPage.copy')} />,
            })}
          </>
        )}
      </p>
      <label>
        {t('address')} <span class="hint">{t('publicPage.addressHint')}</span>
        <input name="slug" value={a.slug ?? ''} pattern="[a-z0-9][a-z0-9_\-]{1,63}" maxLength={64} />
      </label>
      <label>
        {t('description')} <span class="hint">{t('publicPage.descriptionHint')}</span>
        <textarea name="description" rows={3} maxLength={5000} value={a.description} />
      </label>
      <label class="check">
        <input name="page_enabled" type="checkbox" checked={a.page_enabled} /> {t('publicPage.enabled')}
      </label>
      <label class="check">
        <input name="auto_accept" type="checkbox" checked={a.auto_accept} /> {t('publicPage.autoAccept')}
      </label>
      <label>
        {t('publicPage.language')} <span class="hint">{t('publicPage.languageHint')}</span>
        <select name="locale" value={a.locale}>
          {LOCALES.map((l) => (
            <option value={l}>{LANGUAGE_NAMES[l]}</option>
          ))}
        </select>
      </label>
      <Saving error={error} done={done} busy={busy} label={t('save')} />
    </form>
  );
}

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
          title={t(`tokens.ask.${kind}.title`)}
          confirm={t('tokens.make')}
          onClose={() => setAsking(false)}
          onConfirm={async () => made((await api.POST('/v1/tokens', { body: { kind } })).data.attributes.token)}
        >
          <p>{t(`tokens.ask.${kind}.text`)}</p>
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
      <h2>{t('sections.snippet')}</h2>
      <p>{t('snippet.paste')}</p>
      <pre class="code">
        <code>{code}</code>
      </pre>
      <p>{tx('snippet.call', { email: <code>email</code>, debug: <code>?gr_debug=1</code> })}</p>
      <pre class="code">
        <code class="track-call">{TRACK_CALL}</code>
      </pre>
      <div class="buttons">
        {token ? (
          <CopyButton text={code} label={t('snippet.copy')} />
        ) : (
          <MakeToken
            kind="publishable"
            label={t('snippet.make')}
            made={(publishable) => {
              setToken(publishable);
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
    { label: t('tokens.kind'), cell: (k) => t(`tokens.kinds.${k.attributes.kind}`), text: (k) => k.attributes.kind },
    { label: t('tokens.startsWith'), cell: (k) => <code>{k.attributes.hint}…</code>, text: (k) => k.attributes.hint },
    { label: t('tokens.note'), cell: (k) => (k.attributes.label === 'demo' ? t('tokens.demo') : '—') },
    { label: t('tokens.created'), cell: (k) => dateTime(k.attributes.created_at), text: (k) => String(k.attributes.created_at) },
    {
      label: t('state'),
      cell: (k) =>
        k.attributes.revoked_at ? (
          t('tokens.revoked', { date: dateTime(k.attributes.revoked_at) })
        ) : (
          <button type="button" class="link" onClick={() => setRevoking(k)}>
            {t('tokens.revoke')}
          </button>
        ),
    },
  ];
  return (
    <section class="panel">
      <div class="panel-head">
        <h2>{t('sections.apiTokens')}</h2>
        <MakeToken
          kind="secret"
          label={t('tokens.newSecret')}
          secondary
          made={(token) => {
            setSecret(token);
            loaded.reload();
          }}
        />
      </div>
      {secret && (
        <div class="notice" role="status">
          <p>{t('tokens.shown')}</p>
          <p>
            <code class="secret">{secret}</code> <CopyButton text={secret} />
          </p>
        </div>
      )}
      <Show loaded={loaded}>{(answer) => <Table caption={t('sections.apiTokens')} columns={columns} rows={answer.data} />}</Show>
      {revoking && (
        <Confirm
          title={t('tokens.revokeTitle', { hint: revoking.attributes.hint })}
          confirm={t('tokens.revoke')}
          danger
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await api.DELETE('/v1/tokens/{id}', { params: { path: { id: revoking.id } } });
            loaded.reload();
          }}
        >
          <p>{t('tokens.revokeText')}</p>
        </Confirm>
      )}
    </section>
  );
}

type Role = Member['attributes']['role'];
// Least powers first: the invitation's first option, its default (and what a reset returns
// to), is the viewer's; more is given on purpose.
const ROLES = ['viewer', 'admin', 'owner'] as const satisfies readonly Role[];
// Named by the API's role, so the compiler refuses a role the catalogue lacks.
const roleName = (r: Role) => t(`team.roles.${r}`);
/** "viewer: looks, changes nothing", as the invitation's options say it. */
const roleOption = (r: Role) => t('team.option', { role: roleName(r), help: t(`team.help.${r}`) });
const capitalized = (s: string) => s.charAt(0).toLocaleUpperCase() + s.slice(1);

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
    { label: t('team.email'), cell: (m) => m.attributes.email ?? t('team.firstOwner'), text: (m) => m.attributes.email ?? '' },
    {
      label: t('team.role'),
      cell: (m) =>
        owner && m.attributes.active && m.attributes.email !== session.attributes.email ? (
          <select
            aria-label={t('team.roleOf', { who: m.attributes.email ?? t('team.thisMember') })}
            value={m.attributes.role}
            onChange={(e) => setChanging({ member: m, role: e.currentTarget.value as Member['attributes']['role'] })}
          >
            {ROLES.map((r) => (
              <option value={r}>{roleName(r)}</option>
            ))}
          </select>
        ) : (
          roleName(m.attributes.role)
        ),
      text: (m) => m.attributes.role,
    },
    {
      label: t('state'),
      cell: (m) => (m.attributes.active ? t('team.active') : t('team.invited')),
      text: (m) => (m.attributes.active ? 'active' : 'invited'),
    },
    {
      label: t('actions'),
      cell: (m) =>
        owner &&
        m.attributes.email !== session.attributes.email && (
          <button type="button" class="link" onClick={() => setRemoving(m)}>
            {m.attributes.active ? t('remove') : t('team.withdrawInvitation')}
          </button>
        ),
    },
  ];
  return (
    <section class="panel">
      <h2>{t('sections.team')}</h2>
      {owner ? (
        <form class="inline" onSubmit={onSubmit}>
          <label>
            {t('team.invite')}
            <input name="email" type="email" required />
          </label>
          <label>
            {t('team.as')}
            <select name="role">
              {ROLES.map((r) => (
                <option value={r}>{roleOption(r)}</option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={busy}>
            {t('team.send')}
          </button>
        </form>
      ) : (
        <p class="hint">{myRole === 'admin' ? t('team.youAreAdmin') : t('team.youAreViewer')}</p>
      )}
      {error !== undefined && <Failure error={error} />}
      {link && (
        <div class="notice" role="status">
          <p>
            {tx('team.link', {
              email: link.email,
              link: <code class="secret">{link.link}</code>,
              copy: <CopyButton text={link.link} />,
            })}
          </p>
        </div>
      )}
      <Show loaded={loaded}>{(answer) => <Table caption={t('sections.team')} columns={columns} rows={answer.data} />}</Show>
      {changing && (
        <Confirm
          title={t(`team.make.${changing.role}`, { who: changing.member.attributes.email ?? t('team.thisMember') })}
          confirm={t('team.changeRole')}
          onClose={() => setChanging(null)}
          onConfirm={async () => {
            await api.PATCH('/v1/members/{id}', { params: { path: { id: changing.member.id } }, body: { role: changing.role } });
            loaded.reload();
          }}
        >
          <p>{t('team.roleLine', { role: capitalized(roleName(changing.role)), help: t(`team.help.${changing.role}`) })}</p>
        </Confirm>
      )}
      {removing && (
        <Confirm
          title={
            removing.attributes.active
              ? t('team.removeTitle', { who: removing.attributes.email ?? t('team.thisMember') })
              : t('team.withdrawTitle', { email: removing.attributes.email ?? '' })
          }
          confirm={removing.attributes.active ? t('remove') : t('team.withdraw')}
          danger
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await api.DELETE('/v1/members/{id}', { params: { path: { id: removing.id } } });
            loaded.reload();
          }}
        >
          <p>{removing.attributes.active ? t('team.removeText') : t('team.withdrawText')}</p>
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
const SECTIONS: ReadonlyArray<{ id: string; title: () => string; show: (on: SectionData) => ComponentChildren }> = [
  {
    id: 'program',
    title: () => t('sections.program'),
    show: (on) =>
      withProgram(on, (p) => (
        <>
          <ProgramForm program={p} saved={on.program.reload} />
          <BillingDetails program={p} saved={on.program.reload} />
        </>
      )),
  },
  {
    id: 'snippet',
    title: () => t('sections.snippet'),
    show: (on) => withProgram(on, (p) => <Snippet program={p} made={on.tokens.reload} />),
  },
  {
    id: 'public-page',
    title: () => t('sections.publicPage'),
    show: (on) => withProgram(on, (p) => <PublicPage program={p} saved={on.program.reload} />),
  },
  {
    id: 'promotion-codes',
    title: () => t('sections.promotionCodes'),
    show: (on) => withProgram(on, (p) => <PromotionCodeSettings program={p} saved={on.program.reload} />),
  },
  { id: 'two-tier', title: () => t('sections.twoTier'), show: () => <TwoTierSettings /> },
  { id: 'links', title: () => t('sections.links'), show: () => <LinkSettings /> },
  {
    id: 'review',
    title: () => t('sections.review'),
    show: (on) => withProgram(on, (p) => <ReviewSignals program={p} saved={on.program.reload} />),
  },
  {
    id: 'integrations',
    title: () => t('sections.integrations'),
    show: (on) => <Integrations program={on.program.data?.data} saved={on.program.reload} />,
  },
  { id: 'webhooks', title: () => t('sections.webhooks'), show: () => <WebhookSettings /> },
  { id: 'api-tokens', title: () => t('sections.apiTokens'), show: (on) => <Tokens loaded={on.tokens} /> },
  { id: 'team', title: () => t('sections.team'), show: () => <Team /> },
  { id: 'security', title: () => t('sections.security'), show: () => <SecuritySettings /> },
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
      <h1>{t('title')}</h1>
      <nav class="sections" aria-label={t('sectionsLabel')} ref={menu}>
        <ul>
          {SECTIONS.map((s) => (
            <li>
              <a href={settingsHref(s.id)} aria-current={s === chosen ? 'page' : undefined}>
                {s.title()}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {chosen ? (
        chosen.show({ program, tokens })
      ) : (
        <p>{tx('noSection', { section, first: <a href={settingsHref(SECTIONS[0]!.id)}>{SECTIONS[0]!.title()}</a> })}</p>
      )}
    </section>
  );
}
