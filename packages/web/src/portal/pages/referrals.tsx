// The partner's referrals: when, and how far each got. E-mails come masked from the API:
// a partner learns that a customer came, not who.

import { useListAddress } from '../../common/list-address.js';
import { api, type Answer } from '../../common/api.js';
import { dateTime } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Empty, Pager, Show, Table, type Column } from '../../common/ui.js';
import { stateWord, t } from '../language.js';
import { usePortal } from '../session.js';

type Referral = Answer<'/v1/portal/partnerships/{id}/referrals'>['data'][number];

const columns = (): Column<Referral>[] => [
  {
    label: t('referrals.date'),
    cell: (r) => dateTime(r.attributes.created_at),
    text: (r) => new Date(r.attributes.created_at * 1000).toISOString(),
  },
  { label: t('referrals.customer'), cell: (r) => r.attributes.email, text: (r) => r.attributes.email },
  {
    label: t('referrals.state'),
    cell: (r) => <span class={`state ${r.attributes.state}`}>{stateWord(`referralState.${r.attributes.state}`, r.attributes.state)}</span>,
    text: (r) => r.attributes.state,
  },
];

export function Referrals() {
  const { current } = usePortal();
  const { page, go } = useListAddress();
  const id = current?.id ?? '';
  const loaded = useLoad(
    current ? (signal) => api.GET('/v1/portal/partnerships/{id}/referrals', { params: { path: { id }, query: { page } }, signal }) : null,
    `${id}/${page}`,
  );
  return (
    <section>
      <h1>{t('referrals.title')}</h1>
      {!current ? (
        <Empty title={t('app.noProgram')} />
      ) : (
        <Show loaded={loaded}>
          {(answer) =>
            answer.data.length === 0 ? (
              <Empty title={t('referrals.none')}>
                <p>{t('referrals.noneText')}</p>
              </Empty>
            ) : (
              <>
                <Table caption={t('referrals.yours')} columns={columns()} rows={answer.data} csv="referrals" />
                <Pager page={page} hasMore={answer.meta.pagination.has_more} go={go} />
              </>
            )
          }
        </Show>
      )}
    </section>
  );
}
