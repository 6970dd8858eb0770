// The partner's leads (docs/leads.md): submit a person who could become a customer, and see
// how far each got. A lead the program has already (the person, their company, or a
// referral) is refused with the reason, said in the portal's language.

import { useState } from 'preact/hooks';
import { useListAddress } from '../../common/list-address.js';
import { ApiError, api, type Answer } from '../../common/api.js';
import { dateTime } from '../../common/format.js';
import { text, useSubmit } from '../../common/forms.js';
import { useLoad } from '../../common/use-api.js';
import { Empty, Failure, Pager, Show, Table, type Column } from '../../common/ui.js';
import { t as portalWord } from '../language.js';
import { usePortal } from '../session.js';
import { t } from './words.js';

type Lead = Answer<'/v1/portal/partnerships/{id}/leads'>['data'][number];

const stageOf = (l: Lead) => t(`stages.${l.attributes.stage}`);

const columns = (): Column<Lead>[] => [
  {
    label: t('date'),
    cell: (l) => dateTime(l.attributes.created_at),
    text: (l) => new Date(l.attributes.created_at * 1000).toISOString(),
  },
  {
    label: t('person'),
    cell: (l) => (
      <>
        {l.attributes.name} <span class="hint">{l.attributes.email}</span>
      </>
    ),
    text: (l) => `${l.attributes.name} <${l.attributes.email}>`,
  },
  { label: t('company'), cell: (l) => l.attributes.company ?? '', text: (l) => l.attributes.company ?? '' },
  {
    label: t('stage'),
    cell: (l) => (
      <>
        <span class={`state ${l.attributes.stage}`}>{stageOf(l)}</span>
        {l.attributes.lost_reason && <span class="hint"> {t('lostBecause', { reason: l.attributes.lost_reason })}</span>}
      </>
    ),
    text: (l) => l.attributes.stage,
  },
];

/** A duplicate's refusal in the portal's words, by its reason; any other error as the API said it. */
const inWords = (err: unknown): unknown =>
  err instanceof ApiError && err.code === 'duplicate_lead'
    ? new Error(t(`duplicate.${String(err.meta?.reason)}` as 'duplicate.lead_email', { defaultValue: err.message }))
    : err;

function LeadForm({ id, done }: { id: string; done: () => void }) {
  const [sent, setSent] = useState('');
  const { error, busy, onSubmit } = useSubmit(async (form, el) => {
    setSent('');
    const body = { name: text(form, 'name'), email: text(form, 'email'), company: text(form, 'company'), notes: text(form, 'notes') };
    await api.POST('/v1/portal/partnerships/{id}/leads', { params: { path: { id } }, body }).catch((err: unknown) => {
      throw inWords(err);
    });
    el.reset();
    setSent(t('submitted', { name: body.name }));
    done();
  });
  const optional = <span class="hint">{t('optional')}</span>;
  return (
    <form class="panel lead-form" onSubmit={onSubmit} aria-labelledby="lead-form-title">
      <h2 id="lead-form-title">{t('form')}</h2>
      <div class="fields">
        <label>
          {t('name')}
          <input name="name" required maxLength={200} autocomplete="off" />
        </label>
        <label>
          {t('email')}
          <input name="email" type="email" required maxLength={254} autocomplete="off" />
        </label>
        <label>
          {t('company')} {optional}
          <input name="company" maxLength={200} autocomplete="off" />
        </label>
        <label>
          {t('notes')} {optional}
          <textarea name="notes" maxLength={2000} rows={3} />
        </label>
      </div>
      {error !== undefined && <Failure error={error} />}
      <p role="status">{sent}</p>
      <button type="submit" disabled={busy}>
        {t('submit')}
      </button>
    </form>
  );
}

export function Leads() {
  const { current } = usePortal();
  const { page, go } = useListAddress();
  const id = current?.id ?? '';
  const loaded = useLoad(
    current ? (signal) => api.GET('/v1/portal/partnerships/{id}/leads', { params: { path: { id }, query: { page } }, signal }) : null,
    `leads/${id}/${page}`,
  );
  return (
    <section>
      <h1>{t('title')}</h1>
      {!current ? (
        <Empty title={portalWord('app.noProgram')} />
      ) : (
        <>
          <p>{t('intro')}</p>
          {current.attributes.state === 'accepted' ? <LeadForm id={id} done={loaded.reload} /> : <p class="notice">{t('notAccepted')}</p>}
          <Show loaded={loaded}>
            {(answer) =>
              answer.data.length === 0 ? (
                <Empty title={t('none')}>
                  <p>{t('noneText')}</p>
                </Empty>
              ) : (
                <>
                  <Table caption={t('yours')} columns={columns()} rows={answer.data} csv="leads" />
                  <Pager page={page} hasMore={answer.meta.pagination.has_more} go={go} />
                </>
              )
            }
          </Show>
        </>
      )}
    </section>
  );
}
