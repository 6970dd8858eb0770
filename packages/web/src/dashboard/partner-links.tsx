// A partner's links, on their page (docs/links.md): each key with its address, status and
// clicks; a waiting key approved, a link disabled or enabled again.

import { api, type Answer } from '../common/api.js';
import { useLoad } from '../common/use-api.js';
import { CopyButton, Failure, Show, Table, type Column } from '../common/ui.js';
import { useState } from 'preact/hooks';

type Link = Answer<'/v1/links'>['data'][number];
type Status = Link['attributes']['status'];

const STATUS: Record<Status, string> = { pending_approval: 'Waiting for approval', active: 'Active', disabled: 'Disabled' };

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
    { label: 'Key', cell: (l) => <code>{l.attributes.key}</code> },
    { label: 'Lands on', cell: (l) => <span class="url">{l.attributes.destination}</span>, minor: true },
    { label: 'Status', cell: (l) => <span class={`state ${l.attributes.status}`}>{STATUS[l.attributes.status]}</span> },
    {
      label: 'Actions',
      cell: (l) => (
        <span class="buttons">
          {l.attributes.url && <CopyButton text={l.attributes.url} label={`Copy ${l.attributes.key}`} />}
          {l.attributes.status === 'active' ? (
            <button type="button" class="secondary" onClick={() => set(l, 'disabled')}>
              Disable {l.attributes.key}
            </button>
          ) : (
            <button type="button" onClick={() => set(l, 'active')}>
              {l.attributes.status === 'pending_approval' ? 'Approve' : 'Enable'} {l.attributes.key}
            </button>
          )}
        </span>
      ),
    },
  ];
  return (
    <section class="panel" aria-labelledby="partner-links-title">
      <h2 id="partner-links-title">Links</h2>
      {error !== undefined && <Failure error={error} />}
      <Show loaded={loaded}>
        {(answer) =>
          answer.data.length === 0 ? (
            <p class="hint">No links besides the referral link yet: the partner makes them in the portal.</p>
          ) : (
            <Table caption="The partner's links" columns={columns} rows={answer.data} />
          )
        }
      </Show>
    </section>
  );
}
