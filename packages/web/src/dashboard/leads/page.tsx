// The leads partners submitted (docs/leads.md), by stage: new ones to qualify or lose,
// qualified ones to win or lose. Winning makes the person the partner's referral, so their
// payments earn the partner's commission; losing asks why, and the partner sees the reason.
// Every move is a button (keyboard and screen reader alike) behind a confirmation.

import { useListAddress } from '../../common/list-address.js';
import { useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { dateTime } from '../../common/format.js';
import { Confirm } from '../../common/forms.js';
import { useLoad } from '../../common/use-api.js';
import { Empty, Pager, Show, Table, type Column } from '../../common/ui.js';
import { href } from '../session.js';
import { usePartnerNames } from '../records/page.js';
import { t } from './words.js';

type Lead = Answer<'/v1/leads'>['data'][number];
type Stage = Lead['attributes']['stage'];

const STAGES: readonly Stage[] = ['new', 'qualified', 'won', 'lost'];
const word = (stage: Stage) => t(`stages.${stage}`);

/** Each move the stage allows, with its question. */
type Move = Exclude<Stage, 'new'>;
const MOVES: Record<Stage, readonly Move[]> = { new: ['qualified', 'lost'], qualified: ['won', 'lost'], won: [], lost: [] };
const ASK = (to: Move) => ({ button: t(`moves.${to}.button`), title: t(`moves.${to}.title`), body: t(`moves.${to}.body`) });

function MoveDialog({ lead, to, onClose, onDone }: { lead: Lead; to: Move; onClose: () => void; onDone: (l: Lead) => void }) {
  const ask = ASK(to);
  return (
    <Confirm
      title={ask.title}
      confirm={ask.button}
      danger={to === 'lost'}
      onClose={onClose}
      onConfirm={async (form) => {
        const lost_reason = to === 'lost' ? String(form.get('lost_reason') ?? '').trim() : undefined;
        const moved = await api.PATCH('/v1/leads/{id}', { params: { path: { id: lead.id } }, body: { stage: to, lost_reason } });
        onDone(moved.data);
      }}
    >
      <p>
        {lead.attributes.name} ({lead.attributes.email}). {ask.body}
      </p>
      {to === 'lost' && (
        <label>
          {t('reason')} <span class="hint">{t('reasonHint')}</span>
          <input name="lost_reason" required maxLength={500} autocomplete="off" />
        </label>
      )}
    </Confirm>
  );
}

function LeadTable({ rows, reload, say }: { rows: Lead[]; reload: () => void; say: (text: string) => void }) {
  const [asking, setAsking] = useState<{ lead: Lead; to: Move }>();
  const names = usePartnerNames(rows.map((l) => l.attributes.partner_id));
  const columns: Column<Lead>[] = [
    {
      label: t('submitted'),
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
      label: t('partner'),
      cell: (l) => <a href={href(`/partners/${l.attributes.partner_id}`)}>{names[l.attributes.partner_id] ?? l.attributes.partner_id}</a>,
      text: (l) => names[l.attributes.partner_id] ?? l.attributes.partner_id,
    },
    { label: t('notes'), cell: (l) => <span class="wrap">{l.attributes.notes ?? ''}</span>, text: (l) => l.attributes.notes ?? '' },
    {
      label: t('stage'),
      cell: (l) => (
        <>
          <span class={`state ${l.attributes.stage}`}>{word(l.attributes.stage)}</span>
          {l.attributes.lost_reason && <span class="hint"> {l.attributes.lost_reason}</span>}
          {l.relationships.referral.data && (
            <>
              {' '}
              <a href={href(`/referrals?partner_id_eq=${l.attributes.partner_id}`)}>{t('referral')}</a>
            </>
          )}
        </>
      ),
      text: (l) => l.attributes.stage,
    },
    {
      label: t('move'),
      cell: (l) => (
        <span class="actions">
          {MOVES[l.attributes.stage].map((to) => (
            <button
              type="button"
              class={to === 'lost' ? 'secondary' : ''}
              aria-label={`${ASK(to).button} ${l.attributes.name}`}
              onClick={() => setAsking({ lead: l, to })}
            >
              {ASK(to).button}
            </button>
          ))}
        </span>
      ),
      text: () => '',
    },
  ];
  return (
    <>
      <Table caption={t('title')} columns={columns} rows={rows} csv="leads" />
      {asking && (
        <MoveDialog
          lead={asking.lead}
          to={asking.to}
          onClose={() => setAsking(undefined)}
          onDone={(l) => {
            say(t('moved', { name: l.attributes.name, stage: t(`stageWords.${l.attributes.stage}`) }));
            reload();
          }}
        />
      )}
    </>
  );
}

export function Leads() {
  const { query, page, go } = useListAddress();
  const stage = STAGES.find((s) => s === query.stage);
  const base = href('/leads');
  // Kept above the list: a lead moved out of the tab's stage leaves it, and the list may be empty.
  const [said, setSaid] = useState('');
  const loaded = useLoad(
    (signal) => api.GET('/v1/leads', { params: { query: { page, ...(stage ? { stage_eq: stage } : {}) } }, signal }),
    `leads/${stage ?? 'all'}/${page}`,
  );
  return (
    <section>
      <h1>{t('title')}</h1>
      <p>{t('intro')}</p>
      <nav class="tabs" aria-label={t('stagesLabel')}>
        <a href={base} aria-current={!stage ? 'page' : undefined}>
          {t('all')}
        </a>
        {STAGES.map((s) => (
          <a href={`${base}?stage=${s}`} aria-current={stage === s ? 'page' : undefined}>
            {word(s)}
          </a>
        ))}
      </nav>
      <p role="status" class={said ? 'ok' : undefined}>
        {said}
      </p>
      <Show loaded={loaded}>
        {(answer) =>
          answer.data.length === 0 ? (
            <Empty title={stage ? t(`noneIn.${stage}`) : t('none')}>
              <p>{t('noneText')}</p>
            </Empty>
          ) : (
            <>
              <LeadTable rows={answer.data} reload={loaded.reload} say={setSaid} />
              <Pager page={page} hasMore={answer.meta.pagination.has_more} go={go} />
            </>
          )
        }
      </Show>
    </section>
  );
}
