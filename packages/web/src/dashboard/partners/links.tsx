// A partner's links, on their page (docs/links.md): each key with its address, status and
// clicks; a waiting key approved, a link disabled or enabled again.

import { api, type Answer } from '../../common/api.js';
import { useLoad } from '../../common/use-api.js';
import { CopyButton, Failure, Show, Table, type Column } from '../../common/ui.js';
import { useState } from 'preact/hooks';
import { t } from './words.js';

type Link = Answer<'/v1/links'>['data'][number];
type Status = Link['attributes']['status'];

export function PartnerLinks({ partnershipId }: { partnershipId: string }) {
  const loaded = useLoad(
    (signal) => api.GET('/v1/links', { params: { query: { partnership_id_eq: partnershipId, per_page: 50 } }, signal }),
    `links/${partnershipId}`,
  );
  const [error, setError] = useState<unknown>();
  const set = async (link: Link, status: 'active' | 'disabled') => {
    setError(undefined);
    await api.PATCH('/v1/links/{id}', { params: { path: { id: link.id } }, body: { status } }).then(loaded.reload, setError);
  };
  const columns: Column<Link>[] = [
    { label: t('links.key'), cell: (l) => <code>{l.attributes.key}</code> },
    { label: t('links.landsOn'), cell: (l) => <span class="url">{l.attributes.destination}</span>, minor: true },
    {
      label: t('links.status'),
      cell: (l) => <span class={`state ${l.attributes.status}`}>{t(`links.statuses.${l.attributes.status satisfies Status}`)}</span>,
    },
    {
      label: t('links.actions'),
      cell: (l) => (
        <span class="buttons">
          {l.attributes.url && <CopyButton text={l.attributes.url} label={t('links.copy', { key: l.attributes.key })} />}
          {l.attributes.status === 'active' ? (
            <button type="button" class="secondary" onClick={() => set(l, 'disabled')}>
              {t('links.disable', { key: l.attributes.key })}
            </button>
          ) : (
            <button type="button" onClick={() => set(l, 'active')}>
              {l.attributes.status === 'pending_approval'
                ? t('links.approve', { key: l.attributes.key })
                : t('links.enable', { key: l.attributes.key })}
            </button>
          )}
        </span>
      ),
    },
  ];
  return (
    <section class="panel" aria-labelledby="partner-links-title">
      <h2 id="partner-links-title">{t('links.title')}</h2>
      {error !== undefined && <Failure error={error} />}
      <Show loaded={loaded}>
        {(answer) =>
          answer.data.length === 0 ? (
            <p class="hint">{t('links.none')}</p>
          ) : (
            <Table caption={t('links.caption')} columns={columns} rows={answer.data} />
          )
        }
      </Show>
    </section>
  );
}
