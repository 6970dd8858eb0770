// The partner's recruits (docs/two-tier.md): their recruitment link, who recruited them, whom
// they recruited and what each one's commissions paid them. A page of its own, loaded when
// first opened (the portal entry's budget); its words are its own catalogue (locales/).

import { api, type Answer } from '../../common/api.js';
import { dateTime, money } from '../../common/format.js';
import type { Catalogues } from '../../common/i18n.js';
import { useLoad } from '../../common/use-api.js';
import { CopyButton, Empty, Show, Table, type Column } from '../../common/ui.js';
import { part, t as portalWords } from '../language.js';
import { usePortal } from '../session.js';
import en from './locales/en.js';

const CATALOGUES: Catalogues<typeof en> = {
  en,
  de: () => import('./locales/de.js'),
  fr: () => import('./locales/fr.js'),
  es: () => import('./locales/es.js'),
};

const t = part('recruits', CATALOGUES);

type Recruitment = Answer<'/v1/portal/partnerships/{id}/recruitment'>['data']['attributes'];
type Recruit = Recruitment['recruits'][number] & { id: string };

const earned = (list: Recruitment['earned']): string =>
  list.length === 0 ? t('nothing') : list.map((e) => money(e.amount, e.currency)).join(', ');

const columns = (): Column<Recruit>[] => [
  { label: t('name'), cell: (r) => r.name, text: (r) => r.name },
  {
    label: t('joined'),
    cell: (r) => dateTime(r.joined_at),
    text: (r) => new Date(r.joined_at * 1000).toISOString(),
    minor: true,
  },
  { label: t('theirShare'), cell: (r) => earned(r.earned), text: (r) => earned(r.earned), numeric: true },
];

function Link({ link }: { link: string | null }) {
  return (
    <section class="panel link-card">
      <h2>{t('link')}</h2>
      {link ? (
        <>
          <p>
            <code class="referral-link">{link}</code> <CopyButton text={link} label={t('copy')} />
          </p>
          <p class="hint">{t('linkText')}</p>
        </>
      ) : (
        <p>{t('noLink')}</p>
      )}
    </section>
  );
}

export function Recruits() {
  const { current } = usePortal();
  const id = current?.id ?? '';
  const loaded = useLoad(
    current ? (signal) => api.GET('/v1/portal/partnerships/{id}/recruitment', { params: { path: { id } }, signal }) : null,
    id,
  );
  return (
    <section>
      <h1>{t('title')}</h1>
      {!current ? (
        <Empty title={portalWords('app.noProgram')} />
      ) : (
        <Show loaded={loaded}>
          {(answer) => {
            const a = answer.data.attributes;
            const rows = a.recruits.map((r, i) => ({ ...r, id: `${i}` }));
            return (
              <>
                {a.recruited_by && <p>{t('recruitedBy', { name: a.recruited_by.name })}</p>}
                <Link link={a.link} />
                <section class="panel">
                  <h2>{t('earned')}</h2>
                  <p>
                    <strong>{earned(a.earned)}</strong>
                  </p>
                </section>
                {rows.length === 0 ? (
                  <Empty title={t('none')}>
                    <p>{t('noneText')}</p>
                  </Empty>
                ) : (
                  <Table caption={t('yours')} columns={columns()} rows={rows} />
                )}
              </>
            );
          }}
        </Show>
      )}
    </section>
  );
}
