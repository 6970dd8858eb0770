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

type Lead = Answer<'/v1/leads'>['data'][number];
type Stage = Lead['attributes']['stage'];

const STAGES: readonly [Stage, string][] = [
  ['new', 'New'],
  ['qualified', 'Qualified'],
  ['won', 'Won'],
  ['lost', 'Lost'],
];
const WORD = Object.fromEntries(STAGES) as Record<Stage, string>;

/** Each move the stage allows, with its question. */
const MOVES: Record<Stage, readonly Stage[]> = { new: ['qualified', 'lost'], qualified: ['won', 'lost'], won: [], lost: [] };
const ASK: Record<Stage, { button: string; title: string; body: string }> = {
  new: { button: '', title: '', body: '' },
  qualified: { button: 'Qualify', title: 'Qualify this lead?', body: 'You are following this person up. Their partner is told.' },
  won: {
    button: 'Mark won',
    title: 'Mark this lead won?',
    body: "They become the partner's referral: their payments earn the partner's commission, as any referral's do. Their partner is told.",
  },
  lost: { button: 'Mark lost', title: 'Mark this lead lost?', body: 'Their partner is told, with your reason.' },
};

function MoveDialog({ lead, to, onClose, onDone }: { lead: Lead; to: Stage; onClose: () => void; onDone: (l: Lead) => void }) {
  const ask = ASK[to];
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
          Reason <span class="hint">(the partner sees it)</span>
          <input name="lost_reason" required maxLength={500} autocomplete="off" />
        </label>
      )}
    </Confirm>
  );
}

function LeadTable({ rows, reload, say }: { rows: Lead[]; reload: () => void; say: (text: string) => void }) {
  const [asking, setAsking] = useState<{ lead: Lead; to: Stage }>();
  const names = usePartnerNames(rows.map((l) => l.attributes.partner_id));
  const columns: Column<Lead>[] = [
    {
      label: 'Submitted',
      cell: (l) => dateTime(l.attributes.created_at),
      text: (l) => new Date(l.attributes.created_at * 1000).toISOString(),
    },
    {
      label: 'Person',
      cell: (l) => (
        <>
          {l.attributes.name} <span class="hint">{l.attributes.email}</span>
        </>
      ),
      text: (l) => `${l.attributes.name} <${l.attributes.email}>`,
    },
    { label: 'Company', cell: (l) => l.attributes.company ?? '', text: (l) => l.attributes.company ?? '' },
    {
      label: 'Partner',
      cell: (l) => <a href={href(`/partners/${l.attributes.partner_id}`)}>{names[l.attributes.partner_id] ?? l.attributes.partner_id}</a>,
      text: (l) => names[l.attributes.partner_id] ?? l.attributes.partner_id,
    },
    { label: 'Notes', cell: (l) => <span class="wrap">{l.attributes.notes ?? ''}</span>, text: (l) => l.attributes.notes ?? '' },
    {
      label: 'Stage',
      cell: (l) => (
        <>
          <span class={`state ${l.attributes.stage}`}>{WORD[l.attributes.stage]}</span>
          {l.attributes.lost_reason && <span class="hint"> {l.attributes.lost_reason}</span>}
          {l.relationships.referral.data && (
            <>
              {' '}
              <a href={href(`/referrals?partner_id_eq=${l.attributes.partner_id}`)}>Referral</a>
            </>
          )}
        </>
      ),
      text: (l) => l.attributes.stage,
    },
    {
      label: 'Move',
      cell: (l) => (
        <span class="actions">
          {MOVES[l.attributes.stage].map((to) => (
            <button
              type="button"
              class={to === 'lost' ? 'secondary' : ''}
              aria-label={`${ASK[to].button} ${l.attributes.name}`}
              onClick={() => setAsking({ lead: l, to })}
            >
              {ASK[to].button}
            </button>
          ))}
        </span>
      ),
      text: () => '',
    },
  ];
  return (
    <>
      <Table caption="Leads" columns={columns} rows={rows} csv="leads" />
      {asking && (
        <MoveDialog
          lead={asking.lead}
          to={asking.to}
          onClose={() => setAsking(undefined)}
          onDone={(l) => {
            say(`${l.attributes.name}: ${WORD[l.attributes.stage].toLowerCase()}.`);
            reload();
          }}
        />
      )}
    </>
  );
}

export function Leads() {
  const { query, page, go } = useListAddress();
  const stage = STAGES.some(([s]) => s === query.stage) ? (query.stage as Stage) : undefined;
  const base = href('/leads');
  // Kept above the list: a lead moved out of the tab's stage leaves it, and the list may be empty.
  const [said, setSaid] = useState('');
  const loaded = useLoad(
    (signal) => api.GET('/v1/leads', { params: { query: { page, ...(stage ? { stage_eq: stage } : {}) } }, signal }),
    `leads/${stage ?? 'all'}/${page}`,
  );
  return (
    <section>
      <h1>Leads</h1>
      <p>People your partners submitted. Qualify the ones worth following up, then mark each won or lost.</p>
      <nav class="tabs" aria-label="Stages">
        <a href={base} aria-current={!stage ? 'page' : undefined}>
          All
        </a>
        {STAGES.map(([s, word]) => (
          <a href={`${base}?stage=${s}`} aria-current={stage === s ? 'page' : undefined}>
            {word}
          </a>
        ))}
      </nav>
      <p role="status" class={said ? 'ok' : undefined}>
        {said}
      </p>
      <Show loaded={loaded}>
        {(answer) =>
          answer.data.length === 0 ? (
            <Empty title={stage ? `No ${WORD[stage].toLowerCase()} leads` : 'No leads yet'}>
              <p>Partners submit leads in their portal; you can also submit one for a partner with POST /v1/leads.</p>
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
