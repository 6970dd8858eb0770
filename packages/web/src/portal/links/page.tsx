// The partner's links (docs/links.md): a link to any page of the program's site with a key of
// their choosing where the program allows, each with its address to copy, its QR code to
// download (SVG, PNG) and its clicks, referrals and paying customers.

import { api, apiHref, type Answer } from '../../common/api.js';
import { text, useSubmit } from '../../common/forms.js';
import { useLoad } from '../../common/use-api.js';
import { CopyButton, Empty, Failure, Show, Table, type Column } from '../../common/ui.js';
import { t as portalT } from '../language.js';
import { type Partnership, usePortal } from '../session.js';
import { t } from './words.js';

type Link = Answer<'/v1/portal/partnerships/{id}/links'>['data'][number];
type Stats = Answer<'/v1/portal/partnerships/{id}/links/{link_id}/stats'>['data']['attributes'];
type Rules = Answer<'/v1/portal/partnerships/{id}/link_settings'>['data']['attributes'];

interface Loaded {
  links: Link[];
  stats: Map<string, Stats>;
  rules: Rules;
}

async function load(id: string, signal: AbortSignal): Promise<Loaded> {
  const path = { id };
  const [links, rules] = await Promise.all([
    api.GET('/v1/portal/partnerships/{id}/links', { params: { path, query: { per_page: 50 } }, signal }),
    api.GET('/v1/portal/partnerships/{id}/link_settings', { params: { path }, signal }),
  ]);
  // A partner has a few links: one small read each.
  const stats = await Promise.all(
    links.data.map((l) =>
      api.GET('/v1/portal/partnerships/{id}/links/{link_id}/stats', { params: { path: { id, link_id: l.id } }, signal }),
    ),
  );
  return { links: links.data, stats: new Map(stats.map((s) => [s.data.id, s.data.attributes])), rules: rules.data.attributes };
}

function Downloads({ id, link }: { id: string; link: Link }) {
  const key = link.attributes.key;
  const path = { id, link_id: link.id };
  return (
    <span class="buttons">
      {link.attributes.status === 'active' && link.attributes.url && (
        <CopyButton text={link.attributes.url} label={t('links.copy', { key })} />
      )}
      <a class="button-link" download={`${key}.svg`} href={apiHref('/v1/portal/partnerships/{id}/links/{link_id}/qr.svg', { path })}>
        {t('links.svg', { key })}
      </a>
      <a class="button-link" download={`${key}.png`} href={apiHref('/v1/portal/partnerships/{id}/links/{link_id}/qr.png', { path })}>
        {t('links.png', { key })}
      </a>
    </span>
  );
}

const columns = (id: string, stats: Map<string, Stats>): Column<Link>[] => {
  const count = (measure: keyof Stats) => (l: Link) => String(stats.get(l.id)?.[measure] ?? 0);
  return [
    { label: t('links.key'), cell: (l) => <code>{l.attributes.key}</code>, text: (l) => l.attributes.key },
    { label: t('links.page'), cell: (l) => <span class="url">{l.attributes.url ?? l.attributes.destination}</span>, minor: true },
    {
      label: t('links.status'),
      cell: (l) => <span class={`state ${l.attributes.status}`}>{t(`links.state.${l.attributes.status}`)}</span>,
    },
    { label: t('links.clicks'), cell: count('clicks'), numeric: true },
    { label: t('links.referrals'), cell: count('referrals'), numeric: true, minor: true },
    { label: t('links.conversions'), cell: count('conversions'), numeric: true, minor: true },
    { label: t('links.share'), cell: (l) => <Downloads id={id} link={l} /> },
  ];
};

function MakeLink({ p, rules, made }: { p: Partnership; rules: Rules; made: () => void }) {
  const site = p.attributes.referral_link ? new URL(p.attributes.referral_link).origin : '';
  const { error, busy, onSubmit } = useSubmit(async (form, el) => {
    const key = text(form, 'key').trim();
    await api.POST('/v1/portal/partnerships/{id}/links', {
      params: { path: { id: p.id } },
      body: { destination: text(form, 'destination').trim(), ...(key ? { key } : {}) },
    });
    el.reset();
    made();
  });
  return (
    <form class="panel make-link" onSubmit={onSubmit} aria-labelledby="make-link-title">
      <h2 id="make-link-title">{t('links.make')}</h2>
      <div class="fields">
        <label>
          {t('links.destination')} <span class="hint">{t('links.destinationHint', { site })}</span>
          <input name="destination" type="url" required placeholder={`${site}/`} autocomplete="off" />
        </label>
        {rules.custom_keys ? (
          <label>
            {t('links.chosenKey')} <span class="hint">{t('links.keyRules', { min: rules.key_min_length, max: rules.key_max_length })}</span>
            <input name="key" minLength={rules.key_min_length} maxLength={rules.key_max_length} spellcheck={false} autocomplete="off" />
          </label>
        ) : (
          <p class="hint">{t('links.keyMadeUp')}</p>
        )}
      </div>
      {rules.custom_keys && rules.approval_required && <p class="hint">{t('links.approval')}</p>}
      {error !== undefined && <Failure error={error} />}
      <button type="submit" disabled={busy}>
        {t('links.submit')}
      </button>
    </form>
  );
}

export function Links() {
  const { current } = usePortal();
  const id = current?.id ?? '';
  const accepted = current?.attributes.state === 'accepted' ? current : undefined;
  const loaded = useLoad(accepted ? (signal) => load(id, signal) : null, `links/${id}`);
  return (
    <section>
      <h1>{t('links.title')}</h1>
      {!accepted ? (
        <Empty title={portalT('app.noProgram')} />
      ) : (
        <>
          <p>{t('links.intro', { program: accepted.attributes.program_name })}</p>
          <Show loaded={loaded}>
            {(answer) => (
              <>
                {answer.links.length === 0 ? (
                  <p>{t('links.none')}</p>
                ) : (
                  <Table caption={t('links.yours')} columns={columns(id, answer.stats)} rows={answer.links} />
                )}
                <MakeLink p={accepted} rules={answer.rules} made={loaded.reload} />
              </>
            )}
          </Show>
        </>
      )}
    </section>
  );
}
